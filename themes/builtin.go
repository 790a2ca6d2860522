package themes

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// DefaultName is the theme pincer uses when the config names none.
const DefaultName = "dark"

// Dark is the default theme: soft light text on a dark terminal, blue
// accents, and a dark code-highlighting style.
func Dark() Theme {
	c := lipgloss.Color
	return Theme{
		Name:        "dark",
		Dark:        true,
		ChromaStyle: "github-dark",
		Palette: Palette{
			Foreground:    c("#d4d4d8"),
			Muted:         c("#8b8b96"),
			Border:        c("#4a4a55"),
			Background:    c("#18181b"),
			Accent:        c("#6cb6ff"),
			User:          c("#b4a7ff"),
			Assistant:     c("#6cb6ff"),
			Reasoning:     c("#7d7d88"),
			ToolBorder:    c("#5a5a66"),
			Success:       c("#5fd787"),
			Error:         c("#ff6b6b"),
			Warning:       c("#e5c07b"),
			Danger:        c("#ff3b47"),
			Link:          c("#5fafd7"),
			Code:          c("#f0a36b"),
			CodeBg:        c("#2a2a30"),
			DiffAdded:     c("#8fd694"),
			DiffAddedBg:   c("#1d3324"),
			DiffRemoved:   c("#f28b82"),
			DiffRemovedBg: c("#3d1f23"),
			DiffContext:   c("#a1a1aa"),
			Selection:     c("#33334a"),
			SelectionFg:   c("#f4f4f5"),
			StatusFg:      c("#c8c8d0"),
			StatusBg:      c("#26262c"),
		},
	}
}

// Light is the theme for light terminal backgrounds: dark text, deep blue
// accents, and a light code-highlighting style.
func Light() Theme {
	c := lipgloss.Color
	return Theme{
		Name:        "light",
		Dark:        false,
		ChromaStyle: "github",
		Palette: Palette{
			Foreground:    c("#27272a"),
			Muted:         c("#6e6e78"),
			Border:        c("#c9c9d1"),
			Background:    c("#fafafa"),
			Accent:        c("#1d5fd6"),
			User:          c("#6d28d9"),
			Assistant:     c("#1d5fd6"),
			Reasoning:     c("#85858f"),
			ToolBorder:    c("#b8b8c2"),
			Success:       c("#15803d"),
			Error:         c("#c62828"),
			Warning:       c("#a16207"),
			Danger:        c("#b00020"),
			Link:          c("#0369a1"),
			Code:          c("#b4460a"),
			CodeBg:        c("#eeeef2"),
			DiffAdded:     c("#166534"),
			DiffAddedBg:   c("#dcfce7"),
			DiffRemoved:   c("#991b1b"),
			DiffRemovedBg: c("#fee2e2"),
			DiffContext:   c("#52525b"),
			Selection:     c("#dde3f5"),
			SelectionFg:   c("#18181b"),
			StatusFg:      c("#27272a"),
			StatusBg:      c("#e4e4e7"),
		},
	}
}

// Builtin returns every built-in theme, the default first, then the light
// one, then the popular palettes.
func Builtin() []Theme {
	return []Theme{Dark(), Light(), Dracula(), TokyoNight()}
}

// Lookup finds a built-in theme by name, ignoring case and surrounding
// spaces.
func Lookup(name string) (Theme, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, t := range Builtin() {
		if t.Name == name {
			return t, true
		}
	}
	return Theme{}, false
}

// ForBackground returns the built-in theme that suits a terminal with a dark
// or a light background, for when the config names no theme.
func ForBackground(dark bool) Theme {
	if dark {
		return Dark()
	}
	return Light()
}
