package diffview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"pincer/internal/safetext"
)

// maxNoteLines bounds the warning above the diff.
const maxNoteLines = 3

// currentMark is drawn left of every line of the current hunk.
const currentMark = "▌"

// View draws the status line, the note if there is one, and the part of the
// diff in view: exactly the height set with SetSize, every line exactly the
// width. Rows already drawn for this width and theme are reused, so a view
// after scrolling draws only the rows that came into view.
func (m Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	l := m.layout()
	out := make([]string, 0, m.height)
	out = append(out, m.headLines(l)...)

	rows := l.rs.rows
	top := m.topLine(l)
	mark := m.c.pal.st.Focus.Render(currentMark)
	for r, sub := l.rowAt(top), top-l.tops[l.rowAt(top)]; r < len(rows) && len(out) < m.height; r, sub = r+1, 0 {
		lines := m.rowLines(l, r)
		left := " "
		if rows[r].hunk == m.current && rows[r].hunk >= 0 {
			left = mark
		}
		for _, line := range lines[min(sub, len(lines)):] {
			if len(out) == m.height {
				break
			}
			out = append(out, left+line)
		}
	}
	for len(out) < m.height {
		out = append(out, spaces(m.width))
	}
	if m.width < markerW+signW+minCodeWidth {
		// Too narrow for the columns: cut what overflows.
		for i, line := range out {
			out[i] = ansi.Truncate(line, m.width, "")
		}
	}
	return strings.Join(out, "\n")
}

// rowLines returns the drawn lines of row r, from the cache when it has
// them.
func (m Model) rowLines(l *layout, r int) []string {
	row := l.rs.rows[r]
	k := lineKey{row: r, rejected: row.hunk >= 0 && !m.Accepted(row.hunk)}
	if row.kind == rowHeader {
		k.current = row.hunk == m.current
		if lines, ok := m.c.lines[k]; ok {
			return lines
		}
		lines := []string{m.title(l, row.hunk)}
		m.c.lines[k] = lines
		return lines
	}
	if lines, ok := m.c.lines[k]; ok {
		return lines
	}
	m.d.highlightSync()
	lines := m.c.pal.renderRow(m.d, l, row, k.rejected)
	m.c.lines[k] = lines
	return lines
}

// title draws the title of hunk i: where it is, its number and size, and
// whether it is accepted; the current hunk's title is highlighted.
func (m Model) title(l *layout, i int) string {
	st := m.c.pal.st
	label, labelStyle := "✓ accepted ", st.OK
	if !m.Accepted(i) {
		label, labelStyle = "✗ rejected ", st.Error.Bold(true)
	}
	base := st.Muted
	if i == m.current {
		base = st.Selected.Bold(true)
		labelStyle = labelStyle.Background(m.theme.Palette.Selection)
	}
	labelW := ansi.StringWidth(label)
	if m.d.preview || l.rowW < labelW+8 {
		return base.Render(fitString(" "+m.d.titles[i], l.rowW)) + spaces(l.rowW-min(ansi.StringWidth(" "+m.d.titles[i]), l.rowW))
	}
	text := fitString(" "+m.d.titles[i], l.rowW-labelW-1)
	pad := l.rowW - ansi.StringWidth(text) - labelW
	return base.Render(text+spaces(pad)) + labelStyle.Render(label)
}

// headLines are the lines above the diff: the status line and the note,
// fewer when the height leaves no room for the diff.
func (m Model) headLines(l *layout) []string {
	n := m.headCount()
	if n == 0 {
		return nil
	}
	st := m.c.pal.st
	out := []string{m.statusLine(l)}
	for _, line := range m.noteLines()[:n-1] {
		out = append(out, st.Warning.Render(line)+spaces(m.width-ansi.StringWidth(line)))
	}
	return out
}

// statusLine shows the file, what the change does, and where the view is.
func (m Model) statusLine(l *layout) string {
	st := m.c.pal.st
	right := ""
	if n := len(m.d.hunks); n > 0 {
		right = fmt.Sprintf("hunk %d/%d", m.current+1, n)
	}
	if body := m.bodyHeight(); l.total() > body {
		pct := 100
		if max := l.total() - body; max > 0 {
			pct = 100 * m.topLine(l) / max
		}
		right += fmt.Sprintf(" · %d%%", pct)
	}
	right = strings.TrimPrefix(right, " · ") + " "
	info := append([]string{m.Summary()}, m.d.notes...)
	left := st.Accent.Render(" "+safetext.LineOf(m.d.name)) + st.Text.Render(" · "+strings.Join(info, " · "))
	rightW := ansi.StringWidth(right)
	if rightW+8 > m.width {
		right, rightW = "", 0
	}
	if ansi.StringWidth(left) > m.width-rightW-1 {
		left = ansi.Truncate(left, m.width-rightW-1, "…")
	}
	return left + spaces(m.width-ansi.StringWidth(left)-rightW) + st.Muted.Render(right)
}

// cutNote warns that added lines are drawn cut short, so a review never
// passes what it did not show: what follows the "…" of such a line would
// be written unseen.
func (m Model) cutNote() string {
	if m.d.binary {
		return ""
	}
	l := m.layout()
	switch {
	case l.cut == 0:
		return ""
	case l.wrap:
		return fmt.Sprintf("%s too long to show whole: what follows its … is not shown, and would be written.", map[bool]string{true: "1 added line is", false: fmt.Sprintf("%d added lines are", l.cut)}[l.cut == 1])
	}
	return fmt.Sprintf("%s past the edge: press w to wrap.", map[bool]string{true: "1 added line goes", false: fmt.Sprintf("%d added lines go", l.cut)}[l.cut == 1])
}

// noteLines is the note wrapped to the width, each line starting with the
// warning sign or the indent under it, at most maxNoteLines.
func (m Model) noteLines() []string {
	key := noteKey{note: m.note, width: m.width, lay: m.layout()}
	if c := m.c; c.notesFor == nil || *c.notesFor != key {
		c.notes, c.notesFor = m.wrapNote(), &key
	}
	return m.c.notes
}

// wrapNote is noteLines worked out.
func (m Model) wrapNote() []string {
	note := strings.TrimSpace(m.note)
	if cut := m.cutNote(); cut != "" {
		note = strings.TrimSpace(note + " " + cut)
	}
	if note == "" || m.width < 4 {
		return nil
	}
	wrapped := strings.Split(ansi.Wrap(safetext.LineOf(note), m.width-3, ""), "\n")
	out := make([]string, 0, min(len(wrapped), maxNoteLines))
	for i, line := range wrapped {
		prefix := "   "
		if i == 0 {
			prefix = " ⚠ "
		}
		line = prefix + line
		if i == maxNoteLines-1 && len(wrapped) > maxNoteLines {
			line = ansi.Truncate(line+" "+strings.Join(wrapped[i+1:], " "), m.width-1, "…")
		}
		out = append(out, fitString(line, m.width))
		if len(out) == maxNoteLines {
			break
		}
	}
	return out
}

// headCount is how many lines the status line and the note take: all of
// them while the diff keeps at least one line, fewer below that.
func (m Model) headCount() int {
	if m.height < 2 {
		return 0
	}
	return min(1+len(m.noteLines()), m.height-1)
}

// bodyHeight is the number of lines the diff itself gets.
func (m Model) bodyHeight() int { return max(m.height-m.headCount(), 0) }
