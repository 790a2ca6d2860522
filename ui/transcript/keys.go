package transcript

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// wheelLines is how far one notch of the mouse wheel scrolls.
const wheelLines = 3

// KeyMap is the transcript's key bindings. The root model decides which
// keys reach the pane (for example PgUp/PgDn always, the rest while the
// pane has focus).
type KeyMap struct {
	LineUp    key.Binding
	LineDown  key.Binding
	PageUp    key.Binding
	PageDown  key.Binding
	Top       key.Binding
	Bottom    key.Binding
	PrevEntry key.Binding
	NextEntry key.Binding
	Toggle    key.Binding
	Unfocus   key.Binding
}

// DefaultKeyMap returns the usual bindings: arrows and PgUp/PgDn scroll,
// Home/End jump, Ctrl+↑/↓ or [ and ] move the focus between entries, Enter
// or Space expands or collapses the focused entry, Esc drops the focus.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		LineUp:    key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "scroll one line up")),
		LineDown:  key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "scroll one line down")),
		PageUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll a page up")),
		PageDown:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll a page down")),
		Top:       key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "the first message")),
		Bottom:    key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "the latest output")),
		PrevEntry: key.NewBinding(key.WithKeys("ctrl+up", "["), key.WithHelp("ctrl+↑/[", "focus the previous entry")),
		NextEntry: key.NewBinding(key.WithKeys("ctrl+down", "]"), key.WithHelp("ctrl+↓/]", "focus the next entry")),
		Toggle:    key.NewBinding(key.WithKeys("enter", "space"), key.WithHelp("enter", "expand or collapse the entry")),
		Unfocus:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave the entry")),
	}
}

// ShortHelp lists the main bindings, for bubbles' help view.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.PageUp, k.PageDown, k.PrevEntry, k.Toggle}
}

// FullHelp lists every binding, for bubbles' help view.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.LineUp, k.LineDown, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.PrevEntry, k.NextEntry, k.Toggle, k.Unfocus},
	}
}

// Update handles the keys of KeyMap and mouse messages: the wheel scrolls,
// a click focuses an entry and a click on the focused entry expands or
// collapses it. Mouse positions are screen cells; see SetOrigin. It never
// returns a command: the pane has no timers.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	s := m.s
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		k := s.keys
		switch {
		case key.Matches(msg, k.LineUp):
			s.scrollUp(1)
		case key.Matches(msg, k.LineDown):
			s.scrollDown(1)
		case key.Matches(msg, k.PageUp):
			s.scrollUp(max(s.height-1, 1))
		case key.Matches(msg, k.PageDown):
			s.scrollDown(max(s.height-1, 1))
		case key.Matches(msg, k.Top):
			s.toTop()
		case key.Matches(msg, k.Bottom):
			s.toBottom()
		case key.Matches(msg, k.PrevEntry):
			s.moveFocus(-1)
		case key.Matches(msg, k.NextEntry):
			s.moveFocus(+1)
		case key.Matches(msg, k.Toggle):
			s.toggle()
		case key.Matches(msg, k.Unfocus):
			s.setFocus(-1)
		}
	case tea.MouseWheelMsg:
		if !s.inside(msg.X, msg.Y) {
			break
		}
		switch msg.Button {
		case tea.MouseWheelUp:
			s.scrollUp(wheelLines)
		case tea.MouseWheelDown:
			s.scrollDown(wheelLines)
		}
	case tea.MouseClickMsg:
		if msg.Button != tea.MouseLeft || !s.inside(msg.X, msg.Y) {
			break
		}
		if i := s.entryAtRow(msg.Y - s.originY); i >= 0 {
			if i == s.focus {
				s.toggle()
			} else {
				s.setFocus(i)
			}
		}
	}
	return m, nil
}

// inside reports whether a screen cell is in the pane.
func (s *state) inside(x, y int) bool {
	return x >= s.originX && x < s.originX+s.width && y >= s.originY && y < s.originY+s.height
}
