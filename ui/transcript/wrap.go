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
	for _, l := range strings.Split(wrapKeepingHyphens(line, width), "\n") {
		out = append(out, strings.TrimRight(l, " "))
	}
	return out
}

// keptHyphen stands in for "-" while a line is wrapped: ansi.Wrap breaks
// after every hyphen, which cut names such as get-file-contents (an MCP
// tool in /mcp) in two. A private-use character is one cell wide too.
const keptHyphen = "\ue000"

// wrapKeepingHyphens wraps line at spaces only; a word longer than the
// width is still broken.
func wrapKeepingHyphens(line string, width int) string {
	if !strings.Contains(line, "-") || strings.Contains(line, keptHyphen) {
		return ansi.Wrap(line, width, "")
	}
	wrapped := ansi.Wrap(strings.ReplaceAll(line, "-", keptHyphen), width, "")
	return strings.ReplaceAll(wrapped, keptHyphen, "-")
}
