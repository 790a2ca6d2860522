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
	if s.frameValid {
		return s.frame
	}
	s.frame = s.draw()
	s.frameValid = true
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
	a := s.viewTop()
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
			k := off - gap
			if lines[k] == "" && i != s.focus {
				rows = append(rows, "")
				continue
			}
			rows = append(rows, s.gutter(i, k)+lines[k])
		}
	}
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
