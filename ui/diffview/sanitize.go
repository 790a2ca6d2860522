package diffview

import (
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// tabWidth is the distance between tab stops when a line is drawn.
const tabWidth = 4

// appendDisplay appends s to b as it is drawn: tabs expanded to the next
// stop, control characters shown as their Unicode control pictures (so a
// file cannot move the cursor or recolour the screen), bidirectional
// overrides and invalid bytes as U+FFFD. col is the column s starts at; the
// column after it is returned, so a line can be converted token by token
// with the same result as converting it whole.
func appendDisplay(b []byte, s string, col int) ([]byte, int) {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			b = append(b, c)
			col++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\t':
			n := tabWidth - col%tabWidth
			b = append(b, "    "[:n]...)
			col += n
		case r < 0x20:
			b = utf8.AppendRune(b, 0x2400+r) // ␀ … ␟
			col++
		case r == 0x7f:
			b = utf8.AppendRune(b, '␡')
			col++
		case r == utf8.RuneError && size == 1, r >= 0x80 && r < 0xa0, isBidiControl(r):
			b = utf8.AppendRune(b, utf8.RuneError)
			col++
		default:
			b = utf8.AppendRune(b, r)
			col += displaywidth.Rune(r)
		}
	}
	return b, col
}

// isBidiControl reports whether r reorders the text around it, which could
// make a line look different from what it does.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// lineContent is a line without its line break ("\n" or "\r\n").
func lineContent(line string) string {
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
		if n > 0 && line[n-1] == '\r' {
			n--
		}
	}
	return line[:n]
}
