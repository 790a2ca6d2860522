// Package themes holds pincer's colour themes: a palette per theme and the
// lipgloss styles, glamour markdown style and code-highlighting style derived
// from it, so that every part of the screen agrees on its colours.
//
// Themes are plain values built by functions; nothing here is mutable
// package state. A user theme is a JSON file read with Load.
package themes

import "image/color"

// Theme is one coherent look for the whole screen.
type Theme struct {
	// Name is how the theme is chosen in config and with /theme.
	Name string
	// Dark says the theme is meant for a dark terminal background.
	Dark bool
	// Palette is every colour the screen uses.
	Palette Palette
	// ChromaStyle names the chroma style used to highlight code, in
	// markdown code blocks and diffs alike.
	ChromaStyle string
	// DefaultText draws body text in the terminal's own text colour, with
	// no colour code: OnTerminal sets it where that colour stands for the
	// palette's Foreground. A run of body text then costs the terminal no
	// colour change, and markdown renders faster (glamour pads every line
	// to the width, each blank in the text colour).
	DefaultText bool
}

// Palette is the set of colours a theme defines. Every field must be set;
// Fields lists them with the names a theme file uses.
type Palette struct {
	Foreground color.Color // body text
	Muted      color.Color // secondary text: notices, hints, previews
	Border     color.Color // rules, separators, table lines
	Background color.Color // the background the theme expects; not painted by default

	Accent    color.Color // headings, markers, the focused entry
	User      color.Color // the person's messages
	Assistant color.Color // the assistant's marker
	Reasoning color.Color // the model's reasoning, shown dimmed

	ToolBorder color.Color // the rule on the left of a tool card
	Success    color.Color // a tool call that worked
	Error      color.Color // errors
	Warning    color.Color // retries and cautions
	Danger     color.Color // dangerous commands; stronger than Error

	Link          color.Color // links in markdown
	Code          color.Color // inline code
	CodeBg        color.Color // inline code background
	DiffAdded     color.Color // added lines
	DiffAddedBg   color.Color // background of added lines
	DiffRemoved   color.Color // removed lines
	DiffRemovedBg color.Color // background of removed lines
	DiffContext   color.Color // unchanged context lines
	Selection     color.Color // background of the selected item in lists and pickers
	SelectionFg   color.Color // text of the selected item
	StatusFg      color.Color // status line text
	StatusBg      color.Color // status line background
}

// NamedColor is one palette field with the name a theme file gives it.
type NamedColor struct {
	Name  string
	Color *color.Color
}

// Fields lists every palette colour with its theme-file name, in a fixed
// order. It is the one place that ties names to fields, used to load theme
// files and to check that a palette is complete.
func (p *Palette) Fields() []NamedColor {
	return []NamedColor{
		{"foreground", &p.Foreground},
		{"muted", &p.Muted},
		{"border", &p.Border},
		{"background", &p.Background},
		{"accent", &p.Accent},
		{"user", &p.User},
		{"assistant", &p.Assistant},
		{"reasoning", &p.Reasoning},
		{"tool_border", &p.ToolBorder},
		{"success", &p.Success},
		{"error", &p.Error},
		{"warning", &p.Warning},
		{"danger", &p.Danger},
		{"link", &p.Link},
		{"code", &p.Code},
		{"code_background", &p.CodeBg},
		{"diff_added", &p.DiffAdded},
		{"diff_added_background", &p.DiffAddedBg},
		{"diff_removed", &p.DiffRemoved},
		{"diff_removed_background", &p.DiffRemovedBg},
		{"diff_context", &p.DiffContext},
		{"selection", &p.Selection},
		{"selection_foreground", &p.SelectionFg},
		{"status_foreground", &p.StatusFg},
		{"status_background", &p.StatusBg},
	}
}
