package themes

import (
	"image/color"
	"strings"
	"testing"

	"charm.land/glamour/v2"
	"charm.land/lipgloss/v2"
)

// TestOnTerminal: body text takes the terminal's own colour where that
// stands for the theme's text colour, and keeps its own otherwise.
func TestOnTerminal(t *testing.T) {
	c := lipgloss.Color
	amber := Dark()
	amber.Name, amber.Palette.Foreground = "amber", c("#ffb000")
	for _, tc := range []struct {
		name  string
		theme Theme
		bg    color.Color
		want  bool
	}{
		{"dark on a dark terminal", Dark(), c("#101010"), true},
		{"light on a light terminal", Light(), c("#ffffff"), true},
		{"dracula on a dark terminal", Dracula(), c("#282a36"), true},
		{"tinted text on a dark terminal keeps its tint", TokyoNight(), c("#1a1b26"), false},
		{"amber text keeps its colour", amber, c("#000000"), false},
		{"a silent terminal is painted: its default is the theme's", Dark(), nil, true},
		{"dark on a light terminal is painted", Dark(), c("#ffffff"), true},
		{"tinted text on a painted terminal", TokyoNight(), c("#ffffff"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			th := tc.theme.OnTerminal(tc.bg)
			if th.DefaultText != tc.want {
				t.Fatalf("DefaultText = %v, want %v", th.DefaultText, tc.want)
			}
			// The same theme again (a theme already set up) gets the same.
			if again := th.OnTerminal(tc.bg); again.DefaultText != tc.want {
				t.Errorf("applied twice: DefaultText = %v", again.DefaultText)
			}
		})
	}
}

// TestDefaultTextHasNoColourCode: with DefaultText, body text in the
// styles and in rendered markdown carries no foreground colour; without
// it, the theme's.
func TestDefaultTextHasNoColourCode(t *testing.T) {
	fg := "38;2;212;212;216" // Dark's foreground
	for _, plain := range []bool{true, false} {
		th := Dark()
		th.DefaultText = plain
		styled := th.Styles().Text.Render("words")
		r, err := glamour.NewTermRenderer(glamour.WithStyles(th.Glamour()), glamour.WithWordWrap(60))
		if err != nil {
			t.Fatal(err)
		}
		md, err := r.Render("Some plain words in a paragraph.\n\n- an item\n")
		if err != nil {
			t.Fatal(err)
		}
		for what, out := range map[string]string{"the text style": styled, "markdown": md} {
			if got := strings.Contains(out, fg); got == plain {
				t.Errorf("DefaultText %v: %s has the foreground code: %v (%q)", plain, what, got, out)
			}
		}
	}
}
