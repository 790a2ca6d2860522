package themes

import "image/color"

// PaintsOn reports whether the theme sets the terminal's colours while
// pincer runs on a terminal whose own background is bg (nil when the
// terminal did not say: tmux and some terminals never do). It does when
// the background is unknown or of the other kind than the theme's, so
// that a dark theme on a light terminal, or the light theme on a dark
// one, never leaves pale text on white or dark on black.
func (t Theme) PaintsOn(bg color.Color) bool {
	return bg == nil || IsDark(bg) != t.Dark
}

// OnTerminal is t as drawn on a terminal whose own background is bg (nil
// when unknown), with DefaultText set where the terminal's default text
// colour stands for the palette's Foreground:
//   - where the theme paints the terminal's colours (PaintsOn), the
//     default text colour is the Foreground itself;
//   - on a background of the theme's kind, a neutral Foreground (a grey,
//     no hue of its own, readable on bg) means "ordinary text", which is
//     what the terminal's own text colour is: its owner chose it to be
//     read on that background. A tinted Foreground is part of the look
//     and stays.
func (t Theme) OnTerminal(bg color.Color) Theme {
	fg := t.Palette.Foreground
	t.DefaultText = fg != nil && (t.PaintsOn(bg) || neutral(fg) && ContrastRatio(fg, bg) >= 4.5)
	return t
}

// neutralSpread is the largest difference between a colour's channels
// (0–255) for it to read as a grey rather than a tint.
const neutralSpread = 16

// neutral reports whether c is a grey: its channels differ by little.
func neutral(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	hi := max(r, g, b) >> 8
	lo := min(r, g, b) >> 8
	return hi-lo <= neutralSpread
}
