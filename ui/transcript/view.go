package transcript

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// View draws the pane: exactly its height in lines, none wider than its
// width. While nothing changed it returns the previous frame without
// drawing.
func (m Model) View() string {
	s := m.s
	if s.frameValid || s.deferring && !s.personal && s.frame != "" || s.holdsStill() {
		s.moved = 0
		return s.frame
	}
	s.frame = s.draw()
	s.frameValid, s.personal = true, false
	return s.frame
}

// AtBottom reports whether the view shows the end of the transcript and
// follows new output.
func (m Model) AtBottom() bool { return m.s.follow }

// NewBelow reports whether output arrived below the view since the person
// scrolled up; the pane then shows a "new output" line at its bottom.
func (m Model) NewBelow() bool { return m.s.newBelow && !m.s.follow }

// Len returns the number of entries.
func (m Model) Len() int { return len(m.s.items) }

func (s *state) draw() string {
	if s.width <= 0 || s.height <= 0 {
		return strings.Repeat("\n", max(s.height-1, 0))
	}
	s.clampTop()
	var rows []string
	s.shownFixed = false
	if a, atBottom := s.frameTop(); atBottom {
		rows = s.bottomRows()
		// The view moves by what was added, less what the rows left
		// blank at the bottom of the last frame took.
		s.moved = 0
		if n := s.appended(); n > 0 && s.shownValid && s.shownAtEnd {
			s.moved = max(n-(s.page()-s.shownRows), 0)
		}
		s.shownValid, s.shownAtEnd, s.shownRows = true, true, len(rows)
	} else {
		rows = s.rowsFrom(a)
		s.moved = 0
		if s.shownValid && !s.shownAtEnd && s.shownGen == s.gen {
			if d := s.distance(s.shownTop, a, s.page()); d > 0 && d < s.page() {
				s.moved = d
			}
		}
		s.shownTop, s.shownGen, s.shownValid, s.shownAtEnd = a, s.gen, true, false
		s.shownFixed = s.holding && s.rowsFixed(a, len(rows))
	}
	s.noteEnd()
	if s.newBelow && !s.follow {
		ind := s.indicator()
		if len(rows) == s.height {
			rows[len(rows)-1] = ind
		} else {
			rows = append(rows, ind)
		}
	}
	var b strings.Builder
	for i := 0; i < s.height; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i < len(rows) {
			row := rows[i]
			if s.width < gutterWidth+1 {
				row = ansi.Truncate(row, s.width, "")
			}
			b.WriteString(row)
		}
	}
	return b.String()
}

// rowsFrom is the pane's rows from anchor a down.
func (s *state) rowsFrom(a anchor) []string {
	rows := make([]string, 0, s.height)
	for i := a.idx; i < s.count() && len(rows) < s.height; i++ {
		lines := s.lines(i)
		if len(lines) == 0 {
			continue
		}
		gap := s.gap(i)
		start := 0
		if i == a.idx {
			start = a.off
		}
		for off := start; off < gap+len(lines) && len(rows) < s.height; off++ {
			if off < gap {
				rows = append(rows, "")
				continue
			}
			rows = append(rows, s.row(i, off-gap, lines[off-gap]))
		}
	}
	return rows
}

// bottomRows is the pane's rows when it shows the end, found from the end
// up: of the entry at the top of the pane only the lines the pane shows are
// rendered (a long answer renders the chunks at its end), so that a new
// width or theme costs what the page shows rather than whole entries.
func (s *state) bottomRows() []string {
	need := s.page()
	var parts [][]string // each position's rows, the last position first
	for i := s.count() - 1; i >= 0 && need > 0; i-- {
		lines, whole := s.lastLines(i, need)
		if len(lines) == 0 {
			continue
		}
		gap := 0
		if whole {
			gap = min(s.gap(i), need-len(lines))
		}
		rows := make([]string, gap, gap+len(lines))
		for j, l := range lines {
			k := j // the line's number in its entry; not the first when not whole
			if !whole {
				k++
			}
			rows = append(rows, s.row(i, k, l))
		}
		parts = append(parts, rows)
		need -= len(rows)
	}
	out := make([]string, 0, s.page())
	for k := len(parts) - 1; k >= 0; k-- {
		out = append(out, parts[k]...)
	}
	return out
}

// row is line k of position i as the pane draws it.
func (s *state) row(i, k int, line string) string {
	if line == "" && i != s.focus {
		return ""
	}
	return s.gutter(i, k) + line
}

// lastLines returns the last need lines of position i (all of them when it
// has fewer), and whether they are all of them. Only a long finished
// answer is rendered in part for it (the answer in flight renders whole,
// so that the lines it adds can be counted).
func (s *state) lastLines(i, need int) ([]string, bool) {
	if i < len(s.items) {
		if it := s.items[i]; it.gen != s.gen && it.kind == KindAssistant && !it.interrupted && it != s.answer {
			if lines, whole := it.doc.lastLines(s.gen, s.contentWidth(), s.md, need); !whole {
				return lines, false
			}
		}
	}
	lines := s.lines(i)
	return lines[max(len(lines)-need, 0):], len(lines) <= need
}

// noteEnd remembers where the transcript ends in the frame being drawn,
// for appended.
func (s *state) noteEnd() {
	s.endValid = false
	for i := s.count() - 1; i >= 0; i-- {
		n, ok := s.knownSpan(i)
		if !ok {
			return
		}
		if n > 0 {
			s.endIdx, s.endSpan, s.endGen, s.endValid = i, n, s.gen, true
			return
		}
	}
}

// appended is how many lines were added at the end of the transcript
// since the frame before (0 when that cannot be told without rendering).
func (s *state) appended() int {
	if !s.endValid || s.endGen != s.gen || s.endIdx >= s.count() {
		return 0
	}
	n, ok := s.knownSpan(s.endIdx)
	if !ok {
		return 0
	}
	n -= s.endSpan
	for i := s.endIdx + 1; i < s.count() && n < s.page(); i++ {
		m, ok := s.knownSpan(i)
		if !ok {
			return 0
		}
		n += m
	}
	if n <= 0 || n >= s.page() {
		return 0
	}
	return n
}

// knownSpan is span(i) when it needs no rendering.
func (s *state) knownSpan(i int) (int, bool) {
	if i < len(s.items) && s.items[i].gen != s.gen {
		return 0, false
	}
	return s.span(i), true
}

// gutter is what precedes line k of position i: the focus bar when the
// entry is focused, the entry's marker on its first line.
func (s *state) gutter(i, k int) string {
	g := &s.gutters
	if i == len(s.items) {
		return g.blank
	}
	focused := i == s.focus
	if k > 0 {
		if focused {
			return g.bar
		}
		return g.blank
	}
	mark := g.markers[s.marker(s.items[i])]
	if focused {
		return g.barMark[s.marker(s.items[i])]
	}
	return mark
}

// indicator is the line that says output arrived below the view.
func (s *state) indicator() string {
	text := "↓ new output"
	if k := s.keys.Bottom.Help().Key; k != "" {
		text += " (" + k + ")"
	}
	text = ansi.Truncate(text, s.width, "…")
	pad := max((s.width-ansi.StringWidth(text))/2, 0)
	return strings.Repeat(" ", pad) + s.styles.Accent.Render(text)
}
