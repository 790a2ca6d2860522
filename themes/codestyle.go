package themes

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

// plainPrefix names the copies RegisterCodeStyles makes.
const plainPrefix = "pincer-plain-"

// RegisterCodeStyles adds to chroma's style registry, for every style it
// holds, a copy in which code's plain text (the style's default colour,
// and every token drawn in it) has no colour of its own: it then shows in
// the transcript's text colour, and a line of code costs the terminal a
// colour change only where a token really is coloured — over a slow link
// that is a quarter of what a code-heavy answer writes. Every style gets
// one (about 2 ms for all), so a theme chosen later with /theme, or read
// from a file, finds its copy too.
//
// chroma's registry is shared and not safe to change while code is
// highlighted, so this runs once, when the screen starts, before anything
// is drawn.
func RegisterCodeStyles() {
	for _, name := range chromastyles.Names() {
		if strings.HasPrefix(name, plainPrefix) {
			continue
		}
		if _, done := chromastyles.Registry[plainPrefix+name]; done {
			continue
		}
		if plain, err := plainCode(chromastyles.Registry[name]); err == nil {
			chromastyles.Register(plain)
		}
	}
}

// plainCode is style with its default text colour taken out, from the
// background entry and from every entry that repeats it.
func plainCode(style *chroma.Style) (*chroma.Style, error) {
	b := style.Builder()
	bg := b.Get(chroma.Background)
	text, back := bg.Colour, bg.Background
	bg.Colour = 0
	b.AddEntry(chroma.Background, bg)
	for _, tt := range style.Types() {
		if tt == chroma.Background {
			continue
		}
		e := b.Get(tt)
		if e.Colour.IsSet() && e.Colour == text {
			e.Colour = 0
			if e.Background == back {
				e.Background = 0 // drawn on the code's own background anyway
			}
			// An entry left empty would fall back to the original's.
			e.NoInherit = true
			b.AddEntry(tt, e)
		}
	}
	plain, err := b.Build()
	if err != nil {
		return nil, err
	}
	plain.Name = plainPrefix + style.Name
	return plain, nil
}

// codeStyle is the chroma style code is highlighted with for t: the
// plain copy when RegisterCodeStyles made one, else the theme's own.
func codeStyle(t Theme) string {
	if _, ok := chromastyles.Registry[plainPrefix+t.ChromaStyle]; ok {
		return plainPrefix + t.ChromaStyle
	}
	return t.ChromaStyle
}
