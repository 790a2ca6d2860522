package themes

import "charm.land/lipgloss/v2"

// Styles are the lipgloss styles the screen is drawn with, derived from a
// theme's palette so that components need not pick colours themselves.
type Styles struct {
	Text      lipgloss.Style // body text
	Muted     lipgloss.Style // secondary text
	Faint     lipgloss.Style // rules and separators
	Accent    lipgloss.Style // emphasis in chrome: titles, keys in help
	User      lipgloss.Style // the person's messages
	UserMark  lipgloss.Style // the marker in front of the person's messages
	AgentMark lipgloss.Style // the marker in front of the assistant's answers
	Reasoning lipgloss.Style // the model's reasoning
	Focus     lipgloss.Style // the bar beside the focused entry

	ToolName   lipgloss.Style // a tool's name on its card
	ToolArg    lipgloss.Style // a tool's key argument on its card
	ToolBorder lipgloss.Style // the rule on the left of a tool card
	OK         lipgloss.Style // the mark of something that worked
	Error      lipgloss.Style // errors
	Warning    lipgloss.Style // retries and cautions
	Danger     lipgloss.Style // dangerous commands and their warnings

	DiffAdded   lipgloss.Style // an added line
	DiffRemoved lipgloss.Style // a removed line
	DiffContext lipgloss.Style // an unchanged line

	Selected  lipgloss.Style // the selected item in lists and pickers
	StatusBar lipgloss.Style // the status line
}

// Styles builds the lipgloss styles for the theme.
func (t Theme) Styles() Styles {
	p := t.Palette
	s := lipgloss.NewStyle
	text := s().Foreground(p.Foreground)
	if t.DefaultText {
		text = s()
	}
	return Styles{
		Text:      text,
		Muted:     s().Foreground(p.Muted),
		Faint:     s().Foreground(p.Border),
		Accent:    s().Foreground(p.Accent).Bold(true),
		User:      s().Foreground(p.User),
		UserMark:  s().Foreground(p.User).Bold(true),
		AgentMark: s().Foreground(p.Assistant).Bold(true),
		Reasoning: s().Foreground(p.Reasoning).Italic(true),
		Focus:     s().Foreground(p.Accent),

		ToolName:   s().Foreground(p.Accent).Bold(true),
		ToolArg:    text,
		ToolBorder: s().Foreground(p.ToolBorder),
		OK:         s().Foreground(p.Success).Bold(true),
		Error:      s().Foreground(p.Error),
		Warning:    s().Foreground(p.Warning),
		Danger:     s().Foreground(p.Danger).Bold(true),

		DiffAdded:   s().Foreground(p.DiffAdded).Background(p.DiffAddedBg),
		DiffRemoved: s().Foreground(p.DiffRemoved).Background(p.DiffRemovedBg),
		DiffContext: s().Foreground(p.DiffContext),

		Selected:  s().Foreground(p.SelectionFg).Background(p.Selection),
		StatusBar: s().Foreground(p.StatusFg).Background(p.StatusBg),
	}
}
