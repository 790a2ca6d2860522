package themes

import (
	"image/color"
	"math"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

func TestContrastRatio(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"#000000", "#ffffff", 21},
		{"#ffffff", "#000000", 21},
		{"#777777", "#777777", 1},
		{"#767676", "#ffffff", 4.54}, // the usual AA threshold grey
	}
	for _, tt := range tests {
		a, _ := ParseColor(tt.a)
		b, _ := ParseColor(tt.b)
		if got := ContrastRatio(a, b); math.Abs(got-tt.want) > 0.01 {
			t.Errorf("ContrastRatio(%s, %s) = %.2f, want %.2f", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestBuiltinContrast checks that each built-in theme's text can be read on
// the background it is drawn on. Body text must reach WCAG AAA (7:1), text
// on its own background AA (4.5:1), and secondary colours the 3:1 that
// large or bold text needs; reasoning is deliberately dimmed, but not lost.
func TestBuiltinContrast(t *testing.T) {
	for _, th := range Builtin() {
		t.Run(th.Name, func(t *testing.T) {
			p := th.Palette
			pairs := []struct {
				what   string
				fg, bg color.Color
				min    float64
			}{
				{"foreground", p.Foreground, p.Background, 7},
				{"selection", p.SelectionFg, p.Selection, 4.5},
				{"status line", p.StatusFg, p.StatusBg, 4.5},
				{"inline code", p.Code, p.CodeBg, 4.5},
				{"added line", p.DiffAdded, p.DiffAddedBg, 4.5},
				{"removed line", p.DiffRemoved, p.DiffRemovedBg, 4.5},
				{"diff context", p.DiffContext, p.Background, 4.5},
				{"heading on accent", p.Background, p.Accent, 4.5},
				{"muted", p.Muted, p.Background, 3},
				{"accent", p.Accent, p.Background, 3},
				{"user", p.User, p.Background, 3},
				{"assistant", p.Assistant, p.Background, 3},
				{"link", p.Link, p.Background, 3},
				{"success", p.Success, p.Background, 3},
				{"error", p.Error, p.Background, 3},
				{"warning", p.Warning, p.Background, 3},
				{"danger", p.Danger, p.Background, 3},
				{"reasoning", p.Reasoning, p.Background, 2.5},
			}
			for _, pr := range pairs {
				if got := ContrastRatio(pr.fg, pr.bg); got < pr.min {
					t.Errorf("%s: %s on %s has contrast %.2f, want at least %.1f",
						pr.what, ColorString(pr.fg), ColorString(pr.bg), got, pr.min)
				}
			}
		})
	}
}

// TestChromaStyleMatchesBackground checks that code is highlighted with a
// style made for the same kind of background as the theme's, so code
// blocks and diffs stay readable.
func TestChromaStyleMatchesBackground(t *testing.T) {
	for _, th := range Builtin() {
		t.Run(th.Name, func(t *testing.T) {
			style, ok := chromastyles.Registry[th.ChromaStyle]
			if !ok {
				t.Fatalf("chroma style %q is not registered", th.ChromaStyle)
			}
			bg := style.Get(chroma.Background).Background
			if !bg.IsSet() {
				t.Fatalf("chroma style %q has no background colour", th.ChromaStyle)
			}
			styleDark := bg.Brightness() < 0.5
			if styleDark != th.Dark {
				t.Errorf("chroma style %q is for a dark=%v background, the theme is dark=%v", th.ChromaStyle, styleDark, th.Dark)
			}
		})
	}
}
