// Package cells measures and cuts plain text in terminal cells, for the
// panes that draw lists (the tree, the completion popup), where most text
// is ASCII and must not drive the terminal.
package cells

import (
	"strings"

	"pincer/internal/safetext"

	"github.com/charmbracelet/x/ansi"
)

// Width is the number of cells plain s takes, quickly for ASCII, which
// needs no grapheme segmentation.
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// Truncate cuts plain s to w cells, ending in "…" when it was cut.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Spaces returns n spaces (none for n <= 0).
func Spaces(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(" ", n)
}

// Sanitize makes foreign text safe for one line of a list under pincer's
// one policy (package safetext): control characters, escape sequences,
// bidirectional and zero-width characters are shown, not obeyed.
func Sanitize(s string) string { return safetext.LineOf(s) }
