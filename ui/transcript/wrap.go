package transcript

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// wrapPlain wraps plain text to width: words move to the next line, words
// longer than a line are broken. Each source line starts a new line.
func wrapPlain(s string, width int) []string {
	s = sanitize(s)
	width = max(width, 1)
	var out []string
	for _, line := range strings.Split(s, "\n") {
		out = appendWrapped(out, line, width)
	}
	return out
}

// appendWrapped appends one source line, wrapped to width.
func appendWrapped(out []string, line string, width int) []string {
	if len(line) <= width && isPlain(line) {
		return append(out, strings.TrimRight(line, " "))
	}
	if ansi.StringWidth(line) <= width {
		return append(out, strings.TrimRight(line, " "))
	}
	for _, l := range strings.Split(ansi.Wrap(line, width, ""), "\n") {
		out = append(out, strings.TrimRight(l, " "))
	}
	return out
}
