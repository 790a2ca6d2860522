package transcript

import "strings"

// Focused returns the index of the focused entry, or -1.
func (m Model) Focused() int { return m.s.focus }

// Blur drops the focus.
func (m *Model) Blur() { m.s.setFocus(-1) }

// FocusedText returns the text of the focused entry as it was written (the
// markdown of an answer, the full result of a tool call), for copying.
func (m Model) FocusedText() (string, bool) {
	s := m.s
	if s.focus < 0 || s.focus >= len(s.items) {
		return "", false
	}
	it := s.items[s.focus]
	switch it.kind {
	case KindAssistant:
		return it.doc.text(), true
	case KindReasoning:
		return it.body.String(), true
	case KindTool:
		if it.tool.done {
			return it.tool.result, true
		}
		return it.tool.args, true
	}
	return it.text, true
}

// FocusedCode returns the contents of the fenced code blocks in the focused
// answer, in order, for copying one of them; nil when there are none.
func (m Model) FocusedCode() []string {
	s := m.s
	if s.focus < 0 || s.focus >= len(s.items) || s.items[s.focus].kind != KindAssistant {
		return nil
	}
	return codeBlocks(s.items[s.focus].doc.text())
}

// codeBlocks extracts the contents of fenced code blocks.
func codeBlocks(src string) []string {
	var out []string
	var b strings.Builder
	var sc blockScanner
	open := false
	for pos := 0; pos < len(src); {
		line, _, start := nextLine(src, &pos)
		switch sc.scan(line, true) {
		case lineFenceOpen:
			open = true
			b.Reset()
		case lineFenceClose:
			out = append(out, b.String())
			open = false
		case lineInFence:
			b.WriteString(src[start:pos])
		case lineLost:
			return out
		}
	}
	if open && b.Len() > 0 {
		out = append(out, b.String()) // an answer cut off inside a block
	}
	return out
}

// moveFocus moves the focus to the previous (-1) or next (+1) entry. With
// no focus, both start from the last entry.
func (s *state) moveFocus(dir int) {
	n := len(s.items)
	if n == 0 {
		return
	}
	i := s.focus
	switch {
	case i < 0:
		i = n - 1
	default:
		i = min(max(i+dir, 0), n-1)
	}
	s.setFocus(i)
	s.reveal(i, dir)
}

// setFocus focuses entry i (-1 for none).
func (s *state) setFocus(i int) {
	if i != s.focus {
		s.focus = i
		s.changed()
	}
}

// toggle expands or collapses the focused entry.
func (s *state) toggle() {
	if s.focus < 0 || s.focus >= len(s.items) {
		return
	}
	it := s.items[s.focus]
	if !it.collapsible() {
		return
	}
	it.expanded = !it.expanded
	it.touched = true
	it.invalidate()
	s.clampTop()
	if !s.follow {
		s.reveal(s.focus, -1)
	}
	s.changed()
}

// reveal scrolls so that entry i is in view: an entry above the view comes
// in at the top; one below comes in at the bottom, or at the top when it is
// taller than the pane or the focus moved up (dir < 0).
func (s *state) reveal(i, dir int) {
	span := s.span(i)
	if span == 0 {
		return
	}
	h := s.page()
	gap := s.gap(i)
	start := anchor{i, gap}
	top := s.viewTop()
	d := s.distance(top, start, h)
	if d < 0 && (i < top.idx || i == top.idx) {
		s.top, s.follow = start, false // above the view
	} else if d < 0 || d+span-gap > h {
		if span-gap >= h || dir < 0 {
			s.top = start
		} else {
			s.top = s.up(anchor{i, span - 1}, h-1)
		}
		s.follow = false
	}
	s.settle()
	s.changed()
}

// distance counts the lines from a to b when b is at most limit lines
// below a; otherwise it returns -1.
func (s *state) distance(a, b anchor, limit int) int {
	if b.idx < a.idx || (b.idx == a.idx && b.off < a.off) {
		return -1
	}
	if b.idx == a.idx {
		return b.off - a.off
	}
	n := s.span(a.idx) - a.off
	for i := a.idx + 1; i < b.idx; i++ {
		if n > limit {
			return -1
		}
		n += s.span(i)
	}
	if n > limit {
		return -1
	}
	return n + b.off
}

// entryAtRow returns the entry drawn on row y of the pane, or -1.
func (s *state) entryAtRow(y int) int {
	if y < 0 || y >= s.height {
		return -1
	}
	a := s.viewTop()
	row := 0
	for i := a.idx; i < len(s.items); i++ {
		span := s.span(i)
		if span == 0 {
			continue
		}
		start := 0
		if i == a.idx {
			start = a.off
		}
		gap := s.gap(i)
		for off := start; off < span; off++ {
			if row == y {
				if off < gap {
					return -1
				}
				return i
			}
			row++
		}
	}
	return -1
}
