// Package safetexttest holds hostile strings and a check of rendered
// frames, so every view of pincer can be tested against the same attacks
// on the terminal.
package safetexttest

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Case is a hostile string and the visible form a view must show of it
// (a part of the sanitised text that survives wrapping and styling).
type Case struct {
	Name    string
	Raw     string
	Visible string
}

// Cases are the kinds of foreign text that could drive a terminal or hide
// from the reader, each inside ordinary text.
func Cases() []Case {
	return []Case{
		{"csi clear", "x\x1b[2Jy", "x␛[2Jy"},
		{"osc 52 clipboard", "x\x1b]52;c;ZWNobw==\x07y", "x␛]52;c;ZWNobw==␇y"},
		{"osc 8 link", "x\x1b]8;;http://e.vil/\x1b\\y", "x␛]8;;http://e.vil/␛\\y"},
		{"dcs", "x\x1bP1$r\x1b\\y", "x␛P1$r␛\\y"},
		{"apc", "x\x1b_Ga=T\x1b\\y", "x␛_Ga=T␛\\y"},
		{"c1 csi", "x\u009b2Jy", "x⟨U+009B⟩2Jy"},
		{"c1 csi byte", "x\x9b2Jy", "x⟨0x9B⟩2Jy"},
		{"carriage return", "touch x\rls y", "touch x␍ls y"},
		{"bell", "x\ay", "x␇y"},
		{"backspace", "x\by", "x␈y"},
		{"bidi override", "x\u202ey", "x⟨U+202E⟩y"},
		{"bidi isolate", "x\u2066y", "x⟨U+2066⟩y"},
		{"zero width", "x\u200by", "x⟨U+200B⟩y"},
	}
}

// Check returns an error when frame, a rendered screen or output, could
// drive the terminal or hide text: any escape sequence other than pincer's
// own styling, any other C0 control but newline, any C1 control, invalid
// UTF-8, or an invisible format character (bidi controls, zero-width
// characters). pincer's styling is SGR (ESC [ params m) and the OSC 8
// hyperlinks markdown links are drawn with, whose parameters and address
// must be printable text (the link's address is also shown beside it).
func Check(frame string) error {
	for i := 0; i < len(frame); {
		c := frame[i]
		switch {
		case c == 0x1b:
			n := sgrLen(frame[i:])
			if n == 0 {
				n = hyperlinkLen(frame[i:])
			}
			if n == 0 {
				end := min(i+12, len(frame))
				return fmt.Errorf("escape sequence other than SGR at byte %d: %q", i, frame[i:end])
			}
			i += n
			continue
		case c == '\n':
		case c < 0x20 || c == 0x7f:
			return fmt.Errorf("control character %q at byte %d", c, i)
		}
		r, size := utf8.DecodeRuneInString(frame[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return fmt.Errorf("invalid UTF-8 byte %#x at byte %d", frame[i], i)
		case r >= 0x80 && r < 0xa0:
			return fmt.Errorf("C1 control %U at byte %d", r, i)
		case r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r):
			return fmt.Errorf("invisible format character %U at byte %d", r, i)
		}
		i += size
	}
	return nil
}

// sgrLen is the length of the SGR sequence s starts with, or 0.
func sgrLen(s string) int {
	if len(s) < 3 || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// hyperlinkLen is the length of the hyperlink sequence s starts with, in
// the two forms pincer's markdown renderer writes — the end of a link,
// ESC ] 8 ; ; BEL, and its start, ESC ] 8 ; id=N ; address BEL, with a
// printable address — or 0.
func hyperlinkLen(s string) int {
	const end, start = "\x1b]8;;\a", "\x1b]8;id="
	if strings.HasPrefix(s, end) {
		return len(end)
	}
	if !strings.HasPrefix(s, start) {
		return 0
	}
	i := len(start)
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == len(start) || i == len(s) || s[i] != ';' {
		return 0
	}
	for i++; i < len(s); {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] < 0x20 || s[i] == 0x7f:
			return 0
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r >= 0x80 && r < 0xa0 || unicode.Is(unicode.Cf, r) {
			return 0
		}
		i += size
	}
	return 0
}
