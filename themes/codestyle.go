package themes

import (
	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

// plainPrefix names the copies RegisterCodeStyles makes.
const plainPrefix = "pincer-plain-"

// RegisterCodeStyles adds to chroma's style registry, for each chroma
// style the themes name, a copy in which code's plain text (the style's
// default colour, and every token drawn in it) has no colour of its own:
// it then shows in the transcript's text colour, and a line of code costs
// the terminal a colour change only where a token really is coloured —
// over a slow link that is a quarter of what a code-heavy answer writes.
//
// chroma's registry is shared and not safe to change while code is
// highlighted, so this runs once, at start, before anything is drawn; a
// theme loaded later whose style has no copy keeps the original (see
// codeStyle).
func RegisterCodeStyles(ts []Theme) {
	for _, t := range ts {
		name := t.ChromaStyle
		if name == "" {
			continue
		}
		if _, done := chromastyles.Registry[plainPrefix+name]; done {
			continue
		}
		base, ok := chromastyles.Registry[name]
		if !ok {
			continue
		}
		if plain, err := plainCode(base); err == nil {
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
