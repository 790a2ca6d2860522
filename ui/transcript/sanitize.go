package transcript

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// tabWidth is the distance between tab stops when tabs are expanded; it is
// also CommonMark's, so expanding keeps markdown's meaning.
const tabWidth = 4

// sanitize makes text from the model, a tool or a paste safe to draw: escape
// sequences are removed (they would move the cursor or recolour the screen),
// line endings become "\n", tabs become spaces (so widths can be measured) and
// other control characters are dropped.
func sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	if strings.IndexByte(s, 0x1b) >= 0 || strings.ContainsRune(s, 0x9b) {
		s = ansi.Strip(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	col := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\n':
			b.WriteByte('\n')
			col = 0
		case r == '\t':
			n := tabWidth - col%tabWidth
			b.WriteString("    "[:n])
			col += n
		case r == '\r', r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
			// dropped: carriage returns, other C0 and C1 controls
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			col++
		default:
			b.WriteRune(r)
			col++ // only tab stops need the column, and they follow ASCII indentation
		}
	}
	return b.String()
}

// isPlain reports whether s needs no sanitising: printable ASCII, spaces and
// newlines only. It is the fast path for most text.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x7f || (c < 0x20 && c != '\n') {
			return false
		}
	}
	return true
}
