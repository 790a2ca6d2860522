package themes

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// ParseColor reads a colour as a theme file writes it: "#rrggbb", "#rgb",
// or an ANSI palette number from "0" to "255" (the numbers follow the
// terminal's own palette, so "1" is whatever red the terminal shows).
func ParseColor(s string) (color.Color, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "#") {
		hex := s[1:]
		if len(hex) != 3 && len(hex) != 6 {
			return nil, fmt.Errorf("%q is not a colour; write it as \"#rrggbb\", \"#rgb\" or an ANSI number 0-255", s)
		}
		if _, err := strconv.ParseUint(hex, 16, 32); err != nil {
			return nil, fmt.Errorf("%q is not a colour; write it as \"#rrggbb\", \"#rgb\" or an ANSI number 0-255", s)
		}
		return lipgloss.Color(s), nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 255 {
		return nil, fmt.Errorf("%q is not a colour; write it as \"#rrggbb\", \"#rgb\" or an ANSI number 0-255", s)
	}
	return lipgloss.Color(s), nil
}

// ColorString writes c the way lipgloss.Color and glamour read it: ANSI
// palette colours as their number, so they keep following the terminal's
// palette, and everything else as "#rrggbb". A nil colour gives "".
func ColorString(c color.Color) string {
	switch v := c.(type) {
	case nil:
		return ""
	case ansi.BasicColor:
		return strconv.Itoa(int(v))
	case ansi.IndexedColor:
		return strconv.Itoa(int(v))
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// IsDark reports whether c is a dark colour, by its perceived lightness:
// the one rule for "dark" that themes and the screen share.
func IsDark(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	// Rec. 601 luma on 16-bit channels.
	luma := (299*float64(r) + 587*float64(g) + 114*float64(b)) / 1000 / 0xffff
	return luma < 0.5
}

// ContrastRatio is the WCAG 2 contrast ratio of two colours, from 1 (the
// same) to 21 (black on white): body text needs at least 4.5.
func ContrastRatio(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is the WCAG relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}
