package tree

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// KeyMap is the pane's key bindings; it implements help.KeyMap so the help
// screen lists them.
type KeyMap struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Top, Bottom      key.Binding
	Collapse, Expand key.Binding // Collapse on an entry that is not an open directory goes to its parent
	Open             key.Binding // a directory opens or closes; a file is put into the input
}

// DefaultKeyMap returns the bindings people know from file trees and less:
// arrows and hjkl, PgUp/PgDn, Home/End and g/G, Enter.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "move up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "move down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "a page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "a page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/g", "the first entry")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "the last entry")),
		Collapse: key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "close a directory / go to its parent")),
		Expand:   key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "open a directory / go into it")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "toggle a directory, or mention a file")),
	}
}

// ShortHelp returns the bindings for the one-line help.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Expand, k.Collapse, k.Open}
}

// FullHelp returns every binding, grouped for the help screen.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Expand, k.Collapse, k.Open},
	}
}

// handleKey moves the selection or acts on the selected entry.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Up):
		m.moveTo(m.cursor - 1)
	case key.Matches(msg, m.keys.Down):
		m.moveTo(m.cursor + 1)
	case key.Matches(msg, m.keys.PageUp):
		m.moveTo(m.cursor - m.pageStep())
	case key.Matches(msg, m.keys.PageDown):
		m.moveTo(m.cursor + m.pageStep())
	case key.Matches(msg, m.keys.Top):
		m.moveTo(0)
	case key.Matches(msg, m.keys.Bottom):
		m.moveTo(len(m.rows) - 1)
	case key.Matches(msg, m.keys.Collapse):
		m.collapseOrParent()
	case key.Matches(msg, m.keys.Expand):
		return m.expandOrEnter()
	case key.Matches(msg, m.keys.Open):
		return m.open()
	}
	return nil
}

// Click acts on a mouse click at line (0 is the title line, as in View):
// it selects the entry there and opens or closes it when it is a directory.
// The root app turns the terminal's coordinates into line.
func (m *Model) Click(line int) tea.Cmd {
	i := m.offset + line - 1
	if line < 1 || line >= m.height || i >= len(m.rows) {
		return nil
	}
	m.moveTo(i)
	if n := m.rows[i].n; n != nil && n.isDir {
		return m.toggle(n)
	}
	return nil
}

// Scroll moves the view by delta lines (negative is up) without moving the
// selection, for the mouse wheel.
func (m *Model) Scroll(delta int) {
	m.offset += delta
	m.clampScroll()
	m.changed()
}

func (m *Model) collapseOrParent() {
	if m.cursor >= len(m.rows) {
		return
	}
	if n := m.rows[m.cursor].n; n != nil && n.isDir && n.expanded {
		m.collapse(n)
		return
	}
	if p := m.parentRow(m.cursor); p >= 0 {
		m.moveTo(p)
	}
}

func (m *Model) expandOrEnter() tea.Cmd {
	if m.cursor >= len(m.rows) {
		return nil
	}
	n := m.rows[m.cursor].n
	if n == nil || !n.isDir {
		return nil
	}
	if !n.expanded {
		return m.expand(n)
	}
	if next := m.cursor + 1; next < len(m.rows) && m.rows[next].depth > m.rows[m.cursor].depth {
		m.moveTo(next)
	}
	return nil
}

func (m *Model) open() tea.Cmd {
	if m.cursor >= len(m.rows) {
		return nil
	}
	n := m.rows[m.cursor].n
	switch {
	case n == nil:
		return nil
	case n.isDir:
		return m.toggle(n)
	}
	msg := SelectMsg{Path: n.rel}
	return func() tea.Msg { return msg }
}

// moveTo selects row i (clamped) and scrolls just enough to show it.
func (m *Model) moveTo(i int) {
	m.cursor = i
	m.clampCursor()
	body := m.bodyHeight()
	switch {
	case body <= 0:
	case m.cursor < m.offset:
		m.offset = m.cursor
	case m.cursor >= m.offset+body:
		m.offset = m.cursor - body + 1
	}
	m.clampScroll()
	m.changed()
}

func (m *Model) pageStep() int { return max(m.bodyHeight()-1, 1) }

// bodyHeight is the number of entry lines: the pane less its title.
func (m *Model) bodyHeight() int { return max(m.height-1, 0) }

func (m *Model) clampCursor() {
	m.cursor = max(min(m.cursor, len(m.rows)-1), 0)
}

func (m *Model) clampScroll() {
	m.offset = max(min(m.offset, len(m.rows)-m.bodyHeight()), 0)
}
