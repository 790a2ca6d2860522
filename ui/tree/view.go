package tree

import (
	"strings"

	"charm.land/lipgloss/v2"

	"pincer/ui/cells"
)

// Styles is how the pane looks; the root app fills it from the theme.
type Styles struct {
	Title         lipgloss.Style // the project name on the first line
	Dir           lipgloss.Style // directory names
	File          lipgloss.Style // file names
	Note          lipgloss.Style // "loading…" and read errors under a directory
	Cursor        lipgloss.Style // the selected line while the pane has focus
	CursorBlurred lipgloss.Style // the selected line while it does not
	Read          lipgloss.Style // the mark of a file the agent read
	Changed       lipgloss.Style // the mark of a changed file, and of a directory holding one
	Created       lipgloss.Style // the mark of a created file, and of a directory holding one
	Problem       lipgloss.Style // the mark of a file a language server reports errors in, and of a directory holding one
}

// DefaultStyles returns styles in the terminal's own 16 colours, for when no
// theme is set.
func DefaultStyles() Styles {
	return Styles{
		Title:         lipgloss.NewStyle().Bold(true),
		Dir:           lipgloss.NewStyle().Foreground(lipgloss.Blue),
		File:          lipgloss.NewStyle(),
		Note:          lipgloss.NewStyle().Faint(true).Italic(true),
		Cursor:        lipgloss.NewStyle().Reverse(true),
		CursorBlurred: lipgloss.NewStyle().Underline(true),
		Read:          lipgloss.NewStyle().Faint(true),
		Changed:       lipgloss.NewStyle().Foreground(lipgloss.Yellow),
		Created:       lipgloss.NewStyle().Foreground(lipgloss.Green),
		Problem:       lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true),
	}
}

// The glyphs of the pane.
const (
	glyphCollapsed = "▸ "
	glyphExpanded  = "▾ "
	glyphFile      = "  "
	glyphRead      = "·"
	glyphChanged   = "●"
	glyphCreated   = "+"
	glyphBelow     = "•" // a directory holding a changed or created file
	glyphProblem   = "✗" // a file with errors, or a directory holding one
	markWidth      = 2   // a space and the glyph, kept free at the right
	indentWidth    = 2
)

// inline keeps a style from changing the width of what it draws (no
// padding, margins, borders, sizes or transforms), so the pane can lay out
// lines from the plain text and never measure styled strings.
func inline(s lipgloss.Style) lipgloss.Style {
	return s.Inline(true).UnsetWidth().UnsetHeight().UnsetMaxWidth().UnsetMaxHeight().UnsetTransform()
}

// layoutSafe returns s with every style made inline.
func (s Styles) layoutSafe() Styles {
	for _, p := range []*lipgloss.Style{&s.Title, &s.Dir, &s.File, &s.Note, &s.Cursor, &s.CursorBlurred, &s.Read, &s.Changed, &s.Created, &s.Problem} {
		*p = inline(*p)
	}
	return s
}

// View draws the pane: exactly the height set by SetSize in lines, each
// exactly the width in cells (names too long end in "…"). Only the visible
// entries are drawn, and an unchanged pane is not drawn again.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.cache != nil && m.cache.valid && m.cache.version == m.version {
		return m.cache.s
	}
	var b strings.Builder
	b.Grow(m.height * (m.width + 16))
	title := cells.Truncate(cells.Sanitize(m.title), m.width)
	b.WriteString(m.styles.Title.Render(title))
	b.WriteString(cells.Spaces(m.width - cells.Width(title)))
	for i := m.offset; i < m.offset+m.height-1; i++ {
		b.WriteByte('\n')
		if i >= len(m.rows) {
			b.WriteString(cells.Spaces(m.width))
			continue
		}
		m.writeLine(&b, i)
	}
	s := b.String()
	if m.cache != nil {
		*m.cache = viewCache{version: m.version, valid: true, s: s}
	}
	return s
}

// writeLine draws row i, exactly m.width cells wide.
func (m *Model) writeLine(b *strings.Builder, i int) {
	r := m.rows[i]
	indent := r.depth * indentWidth
	if r.n == nil {
		note := cells.Truncate(cells.Spaces(indent)+cells.Sanitize(r.note), m.width)
		style := m.styles.Note
		if i == m.cursor {
			style = m.cursorStyle()
		}
		b.WriteString(style.Render(note))
		b.WriteString(cells.Spaces(m.width - cells.Width(note)))
		return
	}
	n := r.n
	glyph, markStyle := m.markFor(n)
	left := m.width - markWidth
	if m.width <= markWidth {
		left, glyph = m.width, "" // too narrow for marks
	}

	icon, name, nameStyle := glyphFile, cells.Sanitize(n.name), m.styles.File
	if n.isDir {
		icon, name, nameStyle = glyphCollapsed, name+"/", m.styles.Dir
		if n.expanded {
			icon = glyphExpanded
		}
	}
	prefix := cells.Spaces(indent) + icon
	prefixWidth := indent + 2
	if prefixWidth > left {
		prefix = cells.Truncate(prefix, left)
		prefixWidth = cells.Width(prefix)
	}
	name = cells.Truncate(name, left-prefixWidth)
	pad := cells.Spaces(left - prefixWidth - cells.Width(name) + m.width - left)
	if glyph != "" {
		pad = pad[:len(pad)-1] // the glyph takes the last cell
	}

	if i == m.cursor {
		b.WriteString(m.cursorStyle().Render(prefix + name + pad + glyph))
		return
	}
	b.WriteString(prefix)
	b.WriteString(nameStyle.Render(name))
	b.WriteString(pad)
	if glyph != "" {
		b.WriteString(markStyle.Render(glyph))
	}
}

// cursorStyle is the style of the selected line.
func (m *Model) cursorStyle() lipgloss.Style {
	if m.focused {
		return m.styles.Cursor
	}
	return m.styles.CursorBlurred
}

// markFor returns the glyph and style of n's mark, or "" for none. A
// collapsed directory shows the strongest change inside it.
func (m *Model) markFor(n *node) (string, lipgloss.Style) {
	own, below := m.marks[n.rel], MarkNone
	if n.isDir && !n.expanded {
		below = m.dirMarks[n.rel]
	}
	if m.problems[n.rel] > 0 && (!n.isDir || !n.expanded) {
		return glyphProblem, m.styles.Problem
	}
	switch {
	case own == MarkCreated:
		return glyphCreated, m.styles.Created
	case own == MarkChanged:
		return glyphChanged, m.styles.Changed
	case below == MarkCreated:
		return glyphBelow, m.styles.Created
	case below == MarkChanged:
		return glyphBelow, m.styles.Changed
	case own == MarkRead:
		return glyphRead, m.styles.Read
	}
	return "", lipgloss.Style{}
}
