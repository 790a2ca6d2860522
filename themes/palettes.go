package themes

import "charm.land/lipgloss/v2"

// Dracula is the Dracula palette (draculatheme.com): light text on a
// purple-grey background, purple and pink accents, and chroma's dracula
// style for code. The diff backgrounds are the palette's green and red
// mixed into its background, as the palette names none.
func Dracula() Theme {
	c := lipgloss.Color
	return Theme{
		Name:        "dracula",
		Dark:        true,
		ChromaStyle: "dracula",
		Palette: Palette{
			Foreground:    c("#f8f8f2"), // foreground
			Muted:         c("#6272a4"), // comment
			Border:        c("#44475a"), // current line
			Background:    c("#282a36"), // background
			Accent:        c("#bd93f9"), // purple
			User:          c("#ff79c6"), // pink
			Assistant:     c("#bd93f9"), // purple
			Reasoning:     c("#6272a4"), // comment
			ToolBorder:    c("#6272a4"), // comment
			Success:       c("#50fa7b"), // green
			Error:         c("#ff6e6e"), // bright red
			Warning:       c("#ffb86c"), // orange
			Danger:        c("#ff5555"), // red
			Link:          c("#8be9fd"), // cyan
			Code:          c("#50fa7b"), // green, as Dracula shows inline code
			CodeBg:        c("#343746"), // the lighter background of its editor themes
			DiffAdded:     c("#50fa7b"),
			DiffAddedBg:   c("#2f4f42"),
			DiffRemoved:   c("#ff6e6e"), // bright red, to read on the tinted background
			DiffRemovedBg: c("#442d39"),
			DiffContext:   c("#bfbfb9"), // foreground, dimmed
			Selection:     c("#44475a"), // selection
			SelectionFg:   c("#f8f8f2"),
			StatusFg:      c("#f8f8f2"),
			StatusBg:      c("#191a21"), // the darker background of its editor themes
		},
	}
}

// TokyoNight is the "night" style of the Tokyo Night palette: pale
// blue text on a deep navy background, blue and magenta accents, and
// chroma's tokyonight-night style for code.
func TokyoNight() Theme {
	c := lipgloss.Color
	return Theme{
		Name:        "tokyo-night",
		Dark:        true,
		ChromaStyle: "tokyonight-night",
		Palette: Palette{
			Foreground:    c("#c0caf5"), // fg
			Muted:         c("#737aa2"), // dark5
			Border:        c("#414868"), // terminal black
			Background:    c("#1a1b26"), // bg
			Accent:        c("#7aa2f7"), // blue
			User:          c("#bb9af7"), // magenta
			Assistant:     c("#7aa2f7"), // blue
			Reasoning:     c("#565f89"), // comment
			ToolBorder:    c("#545c7e"), // dark3
			Success:       c("#9ece6a"), // green
			Error:         c("#f7768e"), // red
			Warning:       c("#e0af68"), // yellow
			Danger:        c("#db4b4b"), // red1, the palette's error red
			Link:          c("#7dcfff"), // cyan
			Code:          c("#ff9e64"), // orange
			CodeBg:        c("#292e42"), // bg highlight
			DiffAdded:     c("#9ece6a"),
			DiffAddedBg:   c("#20303b"), // diff add
			DiffRemoved:   c("#f7768e"),
			DiffRemovedBg: c("#37222c"), // diff delete
			DiffContext:   c("#a9b1d6"), // fg dark
			Selection:     c("#283457"), // visual selection
			SelectionFg:   c("#c0caf5"),
			StatusFg:      c("#a9b1d6"),
			StatusBg:      c("#16161e"), // status line
		},
	}
}
