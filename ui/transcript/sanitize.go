package transcript

import "pincer/internal/safetext"

// tabWidth is the distance between tab stops when tabs are expanded.
const tabWidth = safetext.TabWidth

// sanitize makes text from the model, a tool or a paste safe to draw under
// pincer's one policy (package safetext): escape sequences and control
// characters are shown, not obeyed, line endings become "\n" and tabs
// become spaces, so widths can be measured.
func sanitize(s string) string { return safetext.Sanitize(s, safetext.Text) }

// isPlain reports whether s is printable ASCII, spaces and newlines only,
// whose width is its length.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || (c < 0x20 && c != '\n') {
			return false
		}
	}
	return true
}

// sanitizeLine is sanitize for text drawn on one line, such as a tool's
// name: a newline is shown as ␊ instead of breaking the line.
func sanitizeLine(s string) string { return safetext.Sanitize(s, safetext.Line) }
