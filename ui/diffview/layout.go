package diffview

import (
	"sort"

	"github.com/clipperhouse/displaywidth"
)

const (
	// splitMinWidth is the width from which the diff is shown side by side
	// unless the person chose otherwise.
	splitMinWidth = 140
	// minCodeWidth is the narrowest code column worth drawing; below it the
	// line numbers are dropped, and side by side falls back to unified.
	minCodeWidth = 12
	// maxWrapLines bounds how many screen lines one long line may take when
	// wrapping; the rest of it is cut with "…".
	maxWrapLines = 24
)

// geometry is where things go on a screen line of a given width. A line is
// the marker column, then the row: unified, the old and new line numbers,
// the sign and the code; side by side, number, sign and code of the old
// line, a rule, and the same for the new line.
type geometry struct {
	width       int
	split, wrap bool
	numW        int // digits of a line number; 0 when numbers are hidden
	codeW       int // unified code column
	leftW       int // side by side code columns
	rightW      int
	rowW        int // the row, without the marker column
}

// markerW is the column left of every row where the current hunk is marked.
const markerW = 1

// signW is the "+ " or "- " before the code.
const signW = 2

// ruleW is the rule between the two sides, and the space after it.
const ruleW = 2

// newGeometry places the columns for a width. split is what the person
// wants; it is dropped when the columns would be too narrow.
func newGeometry(width int, split, wrap bool, lines int) geometry {
	g := geometry{width: width, wrap: wrap, rowW: max(width-markerW, 0)}
	g.numW = digits(max(lines, 1))
	if split {
		fixed := 2*(g.numW+1+signW) + ruleW
		code := g.rowW - fixed
		if code/2 >= minCodeWidth {
			g.split = true
			g.leftW = code / 2
			g.rightW = code - g.leftW
			return g
		}
	}
	g.codeW = g.rowW - 2*(g.numW+1) - signW
	if g.codeW < minCodeWidth {
		g.numW = 0
		g.codeW = max(g.rowW-signW, 1)
	}
	return g
}

func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// numbersW is the width of one line number and the space after it.
func (g geometry) numbersW() int {
	if g.numW == 0 {
		return 0
	}
	return g.numW + 1
}

// layout is the diff laid out for one geometry: which rows, and the screen
// line each starts on.
type layout struct {
	geometry
	rs   *rowSet
	tops []int // tops[i] is the first screen line of row i; tops[len(rows)] is the total
	// cut counts the added lines drawn cut short: past maxWrapLines
	// when wrapping, past the edge when not.
	cut int
}

func newLayout(d *doc, g geometry) *layout {
	l := &layout{geometry: g, rs: d.layouts[0]}
	if g.split {
		l.rs = d.layouts[1]
	}
	l.tops = make([]int, len(l.rs.rows)+1)
	w := g.codeW
	if g.split {
		w = g.rightW
	}
	seen := map[int]bool{}
	for i, r := range l.rs.rows {
		l.tops[i+1] = l.tops[i] + l.rowHeight(d, r)
		if r.kind == rowChange && r.new >= 0 && !seen[r.new] && d.new.width[r.new] > w {
			seen[r.new] = true
			if _, cut := l.chunks(d.new, r.new, w); cut {
				l.cut++
			}
		}
	}
	return l
}

func (l *layout) total() int { return l.tops[len(l.tops)-1] }

// rowAt is the row that screen line n falls on.
func (l *layout) rowAt(n int) int {
	i := sort.SearchInts(l.tops, n+1) - 1
	return max(min(i, len(l.rs.rows)-1), 0)
}

// hunkSpan is the screen lines [start, end) of hunk i.
func (l *layout) hunkSpan(i int) (start, end int) {
	return l.tops[l.rs.first[i]], l.tops[l.rs.end[i]]
}

// rowHeight is how many screen lines row r takes.
func (l *layout) rowHeight(d *doc, r row) int {
	if r.kind != rowContext && r.kind != rowChange {
		return 1
	}
	if l.split {
		return max(l.lineHeight(d.old, r.old, l.leftW), l.lineHeight(d.new, r.new, l.rightW), 1)
	}
	if r.old >= 0 {
		return l.lineHeight(d.old, r.old, l.codeW)
	}
	return l.lineHeight(d.new, r.new, l.codeW)
}

func (l *layout) lineHeight(s *side, i, w int) int {
	if i < 0 {
		return 0
	}
	if !l.wrap || s.width[i] <= w {
		return 1
	}
	chunks, _ := wrapLine(s.text[i], w, maxWrapLines)
	return len(chunks)
}

// chunk is the part of a line drawn on one screen line: bytes [start, end),
// width cells wide.
type chunk struct {
	start, end, width int
}

// wrapLine cuts text into chunks at most w cells wide, at most maxLines of
// them; cut says text goes on past the last one, which then leaves a cell
// free for "…". Empty text is one empty chunk.
func wrapLine(text string, w, maxLines int) (chunks []chunk, cut bool) {
	for pos := 0; ; {
		n, width := prefixFit(text[pos:], w)
		if len(chunks) == maxLines-1 && pos+n < len(text) {
			n, width = prefixFit(text[pos:], w-1)
			cut = true
		}
		chunks = append(chunks, chunk{start: pos, end: pos + n, width: width})
		pos += n
		if pos >= len(text) || cut {
			return chunks, cut
		}
	}
}

// prefixFit returns the length in bytes and the width of the longest prefix
// of s that is at most w cells wide. It takes at least one grapheme when w
// allows any, so that wrapping always advances.
func prefixFit(s string, w int) (n, width int) {
	if w <= 0 {
		return 0, 0
	}
	if n := min(len(s), w); isASCII(s[:min(len(s), w+1)]) {
		// One cell a byte; the byte after the prefix is checked too, since
		// a combining mark there would join the prefix's last grapheme.
		return n, n
	}
	g := displaywidth.StringGraphemes(s)
	for g.Next() {
		gw := g.Width()
		if width+gw > w && n > 0 {
			break
		}
		n += len(g.Value())
		width += gw
	}
	return n, width
}

// isASCII reports whether s is printable ASCII only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}
