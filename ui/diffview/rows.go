package diffview

import "fmt"

// contextLines is how many unchanged lines are shown around each hunk.
const contextLines = 3

// rowKind says what a row of the diff shows.
type rowKind uint8

const (
	rowHeader  rowKind = iota // the title line of a hunk
	rowContext                // an unchanged line
	rowChange                 // a removed line, an added line, or side by side both
	rowGap                    // unchanged lines left out between two hunks
	rowNoEOL                  // the line above has no line break at the end of the file
	rowNote                   // a message in place of lines: binary content, no changes
)

// row is one logical line of the diff; drawn, it takes one screen line or
// more when its text wraps. Rows do not depend on the width or the theme.
type row struct {
	kind rowKind
	hunk int // the hunk the row belongs to, -1 for none
	old  int // line index in the old version, -1 for none
	new  int // line index in the new version, -1 for none
	// hidden is the number of lines a rowGap stands for.
	hidden int
	// oldEOL and newEOL say on which side a rowNoEOL stands.
	oldEOL, newEOL bool
}

// rowSet is the diff laid out as rows in one of the two arrangements.
type rowSet struct {
	rows []row
	// first and end bound the rows of each hunk: rows[first[i]] is its
	// header and rows[end[i]-1] its last line of context.
	first, end []int
}

// hunkRanges are the "@@ -a,b +c,d @@" titles of the hunks, counting the
// context that is shown, as a unified diff does.
func hunkRanges(d *doc) []string {
	out := make([]string, len(d.hunks))
	for i, h := range d.hunks {
		lo, hi := d.contextBounds(i)
		oldN := hi - lo
		newN := oldN - h.removed() + h.added()
		newLo := lo + h.newStart - h.oldStart
		out[i] = fmt.Sprintf("@@ %s %s @@", rangeText('-', lo, oldN), rangeText('+', newLo, newN))
	}
	return out
}

// rangeText writes one side of a hunk title the way diff -u does.
func rangeText(sign byte, start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%c%d,0", sign, start)
	}
	if n == 1 {
		return fmt.Sprintf("%c%d", sign, start+1)
	}
	return fmt.Sprintf("%c%d,%d", sign, start+1, n)
}

// contextBounds returns the old lines [lo, hi) hunk i shows: its removed
// lines and up to contextLines unchanged lines on each side, less where the
// hunk before shows them already. A single line between two hunks is shown
// rather than replaced by a gap row of the same height.
func (d *doc) contextBounds(i int) (lo, hi int) {
	return d.bounds[i][0], d.bounds[i][1]
}

// computeBounds fills d.bounds; see contextBounds.
func (d *doc) computeBounds() {
	d.bounds = make([][2]int, len(d.hunks))
	prevHi := 0
	for i, h := range d.hunks {
		lo := max(h.oldStart-contextLines, prevHi)
		hi := min(h.oldEnd+contextLines, len(d.old.lines))
		if i+1 < len(d.hunks) {
			next := d.hunks[i+1].oldStart
			hi = min(hi, next)
			if next-contextLines-hi == 1 {
				hi++
			}
		}
		d.bounds[i] = [2]int{lo, hi}
		prevHi = hi
	}
}

// buildRows lays the diff out as rows, unified or side by side.
func buildRows(d *doc, split bool) *rowSet {
	rs := &rowSet{first: make([]int, len(d.hunks)), end: make([]int, len(d.hunks))}
	add := func(r row) { rs.rows = append(rs.rows, r) }
	switch {
	case d.binary && len(d.hunks) == 1:
		rs.first[0] = 0
		add(row{kind: rowHeader, hunk: 0, old: -1, new: -1})
		add(row{kind: rowNote, hunk: 0, old: -1, new: -1})
		rs.end[0] = len(rs.rows)
		return rs
	case d.binary, len(d.hunks) == 0:
		add(row{kind: rowNote, hunk: -1, old: -1, new: -1})
		return rs
	}
	prevEnd := 0 // old line after the last one shown
	for i, h := range d.hunks {
		lo, _ := d.contextBounds(i)
		if i > 0 && lo > prevEnd {
			add(row{kind: rowGap, hunk: -1, old: -1, new: -1, hidden: lo - prevEnd})
		}
		rs.first[i] = len(rs.rows)
		add(row{kind: rowHeader, hunk: i, old: -1, new: -1})
		shift := h.newStart - h.oldStart
		for o := lo; o < h.oldStart; o++ {
			d.addContext(add, i, o, o+shift)
		}
		if split {
			d.addSplitChange(add, i, h)
		} else {
			d.addUnifiedChange(add, i, h)
		}
		shift = h.newEnd - h.oldEnd
		_, prevEnd = d.contextBounds(i)
		for o := h.oldEnd; o < prevEnd; o++ {
			d.addContext(add, i, o, o+shift)
		}
		rs.end[i] = len(rs.rows)
	}
	return rs
}

// addContext adds the unchanged line o (n in the new version), and the mark
// of a missing final line break after it.
func (d *doc) addContext(add func(row), i, o, n int) {
	add(row{kind: rowContext, hunk: i, old: o, new: n})
	if o == len(d.old.lines)-1 && d.old.noEOL {
		add(row{kind: rowNoEOL, hunk: i, old: -1, new: -1, oldEOL: true, newEOL: true})
	}
}

// addUnifiedChange adds the removed lines of h, then the added ones.
func (d *doc) addUnifiedChange(add func(row), i int, h hunk) {
	for o := h.oldStart; o < h.oldEnd; o++ {
		add(row{kind: rowChange, hunk: i, old: o, new: -1})
	}
	if lastWithoutEOL(d.old, h.oldStart, h.oldEnd) {
		add(row{kind: rowNoEOL, hunk: i, old: -1, new: -1, oldEOL: true})
	}
	for n := h.newStart; n < h.newEnd; n++ {
		add(row{kind: rowChange, hunk: i, old: -1, new: n})
	}
	if lastWithoutEOL(d.new, h.newStart, h.newEnd) {
		add(row{kind: rowNoEOL, hunk: i, old: -1, new: -1, newEOL: true})
	}
}

// addSplitChange adds the removed and added lines of h side by side.
func (d *doc) addSplitChange(add func(row), i int, h hunk) {
	for k := 0; k < max(h.removed(), h.added()); k++ {
		r := row{kind: rowChange, hunk: i, old: -1, new: -1}
		if k < h.removed() {
			r.old = h.oldStart + k
		}
		if k < h.added() {
			r.new = h.newStart + k
		}
		add(r)
	}
	oldEOL := lastWithoutEOL(d.old, h.oldStart, h.oldEnd)
	newEOL := lastWithoutEOL(d.new, h.newStart, h.newEnd)
	if oldEOL || newEOL {
		add(row{kind: rowNoEOL, hunk: i, old: -1, new: -1, oldEOL: oldEOL, newEOL: newEOL})
	}
}

// lastWithoutEOL reports whether lines [start, end) of s include its last
// line and that line has no line break.
func lastWithoutEOL(s *side, start, end int) bool {
	return s.noEOL && start < end && end == len(s.lines)
}
