package diffview

import (
	"image/color"

	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/x/ansi"

	"pincer/themes"
)

// variant is how a line of code is coloured.
type variant uint8

const (
	vContext    variant = iota // unchanged
	vAdded                     // added by an accepted hunk
	vRemoved                   // removed by an accepted hunk
	vRejAdded                  // added by a rejected hunk: it will not land
	vRejRemoved                // removed by a rejected hunk: it stays
)

// lineVariant is the variant of a changed line of a hunk in its state.
func lineVariant(added, rejected bool) variant {
	switch {
	case added && rejected:
		return vRejAdded
	case added:
		return vAdded
	case rejected:
		return vRejRemoved
	}
	return vRemoved
}

// palette turns a theme into the SGR sequences the diff is written with.
// Code is coloured by syntax where the chroma style gives a token its own
// colour, and in the theme's diff colours otherwise, over the diff
// backgrounds; rejected hunks lose both and are drawn muted.
type palette struct {
	th     themes.Theme
	st     themes.Styles
	syntax *chroma.Style
	plain  chroma.Colour // the syntax style's text colour, which yields to the diff colours
	sgr    map[sgrKey]string
	number string // SGR of line numbers
}

// signToken stands for the "+"/"-" column in the SGR cache.
const signToken = markToken + 1

type sgrKey struct {
	tok chroma.TokenType
	v   variant
}

func newPalette(th themes.Theme) *palette {
	syntax := chromastyles.Get(th.ChromaStyle)
	return &palette{
		th:     th,
		st:     th.Styles(),
		syntax: syntax,
		plain:  syntax.Get(chroma.Text).Colour,
		sgr:    make(map[sgrKey]string),
		number: ansi.NewStyle().Reset().ForegroundColor(th.Palette.Muted).String(),
	}
}

// code is the SGR sequence for a token of a line in variant v; it resets
// whatever came before.
func (p *palette) code(tok chroma.TokenType, v variant) string {
	k := sgrKey{tok, v}
	if s, ok := p.sgr[k]; ok {
		return s
	}
	st := ansi.NewStyle().Reset()
	fg := p.fg(v)
	switch {
	case tok == markToken:
		fg = p.th.Palette.Muted
	case tok == signToken:
		st = st.Bold()
	case v <= vRemoved && tok != chroma.Text:
		e := p.syntax.Get(tok)
		if e.Colour.IsSet() && e.Colour != p.plain {
			fg = color.RGBA{R: e.Colour.Red(), G: e.Colour.Green(), B: e.Colour.Blue(), A: 0xff}
		}
		if e.Bold == chroma.Yes {
			st = st.Bold()
		}
		if e.Italic == chroma.Yes {
			st = st.Italic(true)
		}
	}
	st = st.ForegroundColor(fg)
	if bg := p.bg(v); bg != nil {
		st = st.BackgroundColor(bg)
	}
	if v == vRejAdded && tok != markToken && tok != signToken {
		st = st.Strikethrough(true)
	}
	s := st.String()
	p.sgr[k] = s
	return s
}

// sign is the SGR sequence of the "+"/"-" column in variant v.
func (p *palette) sign(v variant) string {
	return p.code(signToken, v)
}

// fill is the SGR sequence of the padding after a line in variant v: its
// background without strikethrough.
func (p *palette) fill(v variant) string {
	return p.code(markToken, v)
}

func (p *palette) fg(v variant) color.Color {
	switch v {
	case vContext:
		return p.th.Palette.DiffContext
	case vAdded:
		return p.th.Palette.DiffAdded
	case vRemoved:
		return p.th.Palette.DiffRemoved
	}
	return p.th.Palette.Muted
}

func (p *palette) bg(v variant) color.Color {
	switch v {
	case vAdded:
		return p.th.Palette.DiffAddedBg
	case vRemoved:
		return p.th.Palette.DiffRemovedBg
	}
	return nil
}
