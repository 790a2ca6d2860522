package themes

import (
	"image/color"
	"reflect"
	"strings"
	"testing"

	"charm.land/glamour/v2"
	"charm.land/lipgloss/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

func TestBuiltinThemesAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, th := range Builtin() {
		t.Run(th.Name, func(t *testing.T) {
			if th.Name == "" || seen[th.Name] {
				t.Fatalf("name %q is empty or repeated", th.Name)
			}
			seen[th.Name] = true
			for _, f := range th.Palette.Fields() {
				c := *f.Color
				if c == nil {
					t.Errorf("colour %s is not set", f.Name)
					continue
				}
				if _, ok := c.(lipgloss.NoColor); ok {
					t.Errorf("colour %s did not parse", f.Name)
				}
			}
			if _, ok := chromastyles.Registry[th.ChromaStyle]; !ok {
				t.Errorf("chroma style %q is not registered", th.ChromaStyle)
			}
			if got := IsDark(th.Palette.Background); got != th.Dark {
				t.Errorf("Dark = %v but the background is dark=%v", th.Dark, got)
			}
			// Text must stand out from the background the theme expects.
			if IsDark(th.Palette.Foreground) == th.Dark {
				t.Errorf("foreground is as dark as the background")
			}
		})
	}
}

func TestFieldsNamesAreUnique(t *testing.T) {
	var p Palette
	fields := p.Fields()
	names := map[string]bool{}
	ptrs := map[*color.Color]bool{}
	for _, f := range fields {
		if names[f.Name] || ptrs[f.Color] {
			t.Errorf("field %s is listed twice", f.Name)
		}
		names[f.Name], ptrs[f.Color] = true, true
	}
	// Every field of Palette is listed: setting all through Fields leaves
	// none nil.
	for _, f := range fields {
		*f.Color = lipgloss.Color("#010203")
	}
	v := reflect.ValueOf(p)
	for i := 0; i < v.NumField(); i++ {
		if v.Field(i).IsNil() {
			t.Errorf("Fields does not list Palette.%s", v.Type().Field(i).Name)
		}
	}
	if len(fields) != v.NumField() {
		t.Errorf("Fields lists %d colours, Palette has %d", len(fields), v.NumField())
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name string
		want string
		ok   bool
	}{
		{"dark", "dark", true},
		{"light", "light", true},
		{" Light ", "light", true},
		{"DARK", "dark", true},
		{"dracula", "dracula", true},
		{"Dracula", "dracula", true},
		{"tokyo-night", "tokyo-night", true},
		{" Tokyo-Night", "tokyo-night", true},
		{"tokyo night", "", false},
		{"tokyonight-night", "", false},
		{"solarized", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := Lookup(tt.name)
		if ok != tt.ok || got.Name != tt.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tt.name, got.Name, ok, tt.want, tt.ok)
		}
	}
	if Builtin()[0].Name != DefaultName {
		t.Errorf("the default theme %q is not first", DefaultName)
	}
}

// TestBuiltinThemesDiffer guards against a palette pasted from another
// theme: every pair of built-in themes differs in most colours, and there
// is a theme for light backgrounds as well as dark ones.
func TestBuiltinThemesDiffer(t *testing.T) {
	all := Builtin()
	light := 0
	for i, a := range all {
		if !a.Dark {
			light++
		}
		for _, b := range all[i+1:] {
			af, bf := a.Palette.Fields(), b.Palette.Fields()
			same := 0
			for k := range af {
				if ColorString(*af[k].Color) == ColorString(*bf[k].Color) {
					same++
				}
			}
			if same > len(af)/4 {
				t.Errorf("%s and %s share %d of %d colours", a.Name, b.Name, same, len(af))
			}
			if a.ChromaStyle == b.ChromaStyle {
				t.Errorf("%s and %s highlight code with the same style %q", a.Name, b.Name, a.ChromaStyle)
			}
		}
	}
	if light == 0 || light == len(all) {
		t.Errorf("%d of %d built-in themes are light; want both kinds", light, len(all))
	}
}

func TestForBackground(t *testing.T) {
	if !ForBackground(true).Dark || ForBackground(false).Dark {
		t.Fatal("ForBackground picks a theme for the wrong background")
	}
}

func TestGlamourUsesThePalette(t *testing.T) {
	for _, th := range Builtin() {
		t.Run(th.Name, func(t *testing.T) {
			g := th.Glamour()
			p := th.Palette
			checks := []struct {
				what string
				got  *string
				want color.Color
			}{
				{"document", g.Document.Color, p.Foreground},
				{"heading", g.Heading.Color, p.Accent},
				{"h1 background", g.H1.BackgroundColor, p.Accent},
				{"link", g.Link.Color, p.Link},
				{"inline code", g.Code.Color, p.Code},
				{"inline code background", g.Code.BackgroundColor, p.CodeBg},
				{"block quote", g.BlockQuote.Color, p.Muted},
				{"rule", g.HorizontalRule.Color, p.Border},
			}
			for _, c := range checks {
				if c.got == nil || *c.got != ColorString(c.want) {
					t.Errorf("%s colour = %v, want %s", c.what, deref(c.got), ColorString(c.want))
				}
			}
			if strings.TrimPrefix(g.CodeBlock.Theme, plainPrefix) != th.ChromaStyle {
				t.Errorf("code blocks use %q, want the theme's %q (or its plain copy)", g.CodeBlock.Theme, th.ChromaStyle)
			}
			if g.CodeBlock.Chroma != nil {
				t.Error("code blocks set a chroma palette, which glamour registers once for all themes")
			}

			r, err := glamour.NewTermRenderer(glamour.WithStyles(g), glamour.WithWordWrap(60))
			if err != nil {
				t.Fatal(err)
			}
			out, err := r.Render("# Title\n\nText with a [link](https://example.com) and `code`.\n\n```go\nfunc main() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
			if err != nil {
				t.Fatal(err)
			}
			// The foreground colour reaches the terminal as a 24-bit SGR.
			if want := sgrRGB(p.Foreground); !strings.Contains(out, want) {
				t.Errorf("rendered markdown lacks the foreground colour %q", want)
			}
			if strings.HasPrefix(out, "\n") {
				t.Error("the document starts with a blank line; the transcript places blocks itself")
			}
		})
	}
}

func TestStylesUseThePalette(t *testing.T) {
	th := Dark()
	st := th.Styles()
	checks := []struct {
		what string
		got  color.Color
		want color.Color
	}{
		{"error", st.Error.GetForeground(), th.Palette.Error},
		{"danger", st.Danger.GetForeground(), th.Palette.Danger},
		{"ok", st.OK.GetForeground(), th.Palette.Success},
		{"diff added background", st.DiffAdded.GetBackground(), th.Palette.DiffAddedBg},
		{"diff removed", st.DiffRemoved.GetForeground(), th.Palette.DiffRemoved},
		{"status bar background", st.StatusBar.GetBackground(), th.Palette.StatusBg},
		{"selected", st.Selected.GetBackground(), th.Palette.Selection},
		{"reasoning", st.Reasoning.GetForeground(), th.Palette.Reasoning},
	}
	for _, c := range checks {
		if ColorString(c.got) != ColorString(c.want) {
			t.Errorf("%s = %s, want %s", c.what, ColorString(c.got), ColorString(c.want))
		}
	}
}

func sgrRGB(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return "38;2;" + itoa(r>>8) + ";" + itoa(g>>8) + ";" + itoa(b>>8)
}

func itoa(v uint32) string {
	if v == 0 {
		return "0"
	}
	var s []byte
	for v > 0 {
		s = append([]byte{byte('0' + v%10)}, s...)
		v /= 10
	}
	return string(s)
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
