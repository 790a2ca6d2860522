package themes

import (
	"regexp"
	"strings"
	"testing"

	"charm.land/glamour/v2"
	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

// TestPlainCode: the copy leaves code's plain text (the style's default
// colour, and tokens drawn in it) without a colour of its own, and keeps
// every other token's colour and weight.
func TestPlainCode(t *testing.T) {
	for _, th := range Builtin() {
		base := chromastyles.Registry[th.ChromaStyle]
		plain, err := plainCode(base)
		if err != nil {
			t.Fatalf("%s: %v", th.Name, err)
		}
		text := base.Get(chroma.Background).Colour
		for _, tt := range []chroma.TokenType{chroma.Background, chroma.Text, chroma.Punctuation, chroma.Name, chroma.NameOther, chroma.Keyword, chroma.NameFunction, chroma.LiteralString, chroma.Comment} {
			was, now := base.Get(tt), plain.Get(tt)
			switch {
			case was.Colour == text && now.Colour.IsSet():
				t.Errorf("%s/%s: %v keeps the plain text colour (was %v)", th.Name, tt, now, was)
			case was.Colour != text && now.Colour != was.Colour:
				t.Errorf("%s/%s: colour %v became %v", th.Name, tt, was.Colour, now.Colour)
			}
			if now.Bold != was.Bold || now.Italic != was.Italic {
				t.Errorf("%s/%s: weight or slant changed: %v → %v", th.Name, tt, was, now)
			}
		}
	}
}

// TestCodeIsHighlightedWithThePlainCopy: once registered, the themes'
// Markdown highlights code with the copy: identifiers carry no colour
// code, keywords still do. Both renders name their style, so the test
// does not depend on what an earlier test registered.
func TestCodeIsHighlightedWithThePlainCopy(t *testing.T) {
	th := Dark()
	code := "```go\nfunc evict(c *cache) {\n\tfor len(c.items) > 0 {\n\t}\n}\n```\n"
	render := func(style string) string {
		cfg := th.Glamour()
		cfg.CodeBlock.Theme = style
		r, err := glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(80))
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.Render(code)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	RegisterCodeStyles()
	if got := codeStyle(th); got != plainPrefix+th.ChromaStyle {
		t.Fatalf("codeStyle after registering = %q", got)
	}
	colour := regexp.MustCompile(`\x1b\[[0-9;]*38;[0-9;]*m`)
	before, after := render(th.ChromaStyle), render(codeStyle(th))
	if n, m := len(colour.FindAllString(before, -1)), len(colour.FindAllString(after, -1)); m >= n {
		t.Errorf("%d colour codes with the copy, %d without; want fewer", m, n)
	}
	if !regexp.MustCompile(`\x1b\[[0-9;]*38;[0-9;]*m(\x1b\[[0-9;]*m)*func`).MatchString(after) {
		t.Errorf("the keyword lost its colour:\n%q", after)
	}
	if i := strings.Index(after, "items"); i < 0 || colour.MatchString(after[max(0, i-12):i]) {
		t.Errorf("an identifier is still coloured:\n%q", after)
	}
	for _, name := range chromastyles.Names() {
		if _, ok := chromastyles.Registry[plainPrefix+name]; !ok && !strings.HasPrefix(name, plainPrefix) {
			t.Errorf("style %q has no plain copy; a theme naming it would miss it", name)
		}
	}
}
