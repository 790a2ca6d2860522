package diffview

import "charm.land/bubbles/v2/key"

// KeyMap is the diff view's key bindings. It implements help.KeyMap so the
// dialog can list them in its footer. The defaults leave y, n, c, f, enter
// and esc free for the dialog around the view.
type KeyMap struct {
	NextHunk, PrevHunk   key.Binding // make the next or previous hunk current and scroll to it
	Toggle               key.Binding // accept or reject the current hunk
	AcceptAll, RejectAll key.Binding
	Up, Down             key.Binding // scroll one line
	PageUp, PageDown     key.Binding
	Top, Bottom          key.Binding
	Layout               key.Binding // unified or side by side
	Wrap                 key.Binding // wrap long lines or cut them
}

// DefaultKeyMap returns the bindings: j/k and ]/[ between hunks, space to
// toggle one, a and r for all, arrows, PgUp/PgDn, Home/End and g/G to
// scroll, v for the layout and w for wrapping.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		NextHunk:  key.NewBinding(key.WithKeys("j", "]"), key.WithHelp("j/]", "next hunk")),
		PrevHunk:  key.NewBinding(key.WithKeys("k", "["), key.WithHelp("k/[", "previous hunk")),
		Toggle:    key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "accept/reject hunk")),
		AcceptAll: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "accept all hunks")),
		RejectAll: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reject all hunks")),
		Up:        key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "scroll up")),
		Down:      key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "scroll down")),
		PageUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Top:       key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/g", "top")),
		Bottom:    key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "bottom")),
		Layout:    key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "unified/side by side")),
		Wrap:      key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "wrap long lines")),
	}
}

// ShortHelp returns the bindings for a one-line footer.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.NextHunk, k.PrevHunk, k.Toggle, k.AcceptAll, k.RejectAll}
}

// FullHelp returns every binding, grouped for the help screen.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.NextHunk, k.PrevHunk, k.Toggle, k.AcceptAll, k.RejectAll},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Layout, k.Wrap},
	}
}
