package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapKeepsHyphenatedNamesWhole: a line is wrapped at spaces; a name
// with hyphens (an MCP tool in /mcp, a file name) moves to the next line
// whole, and only a word longer than the line is broken.
func TestWrapKeepsHyphenatedNamesWhole(t *testing.T) {
	line := "  tools: create_issue, get_issue, list_issues, search_repositories, get-file-contents, create-pull-request-review"
	for _, width := range []int{30, 40, 60} {
		got := wrapPlain(line, width)
		joined := strings.Join(got, "\n")
		for _, name := range []string{"get-file-contents,", "create-pull-request-review"} {
			if !strings.Contains(joined, name) {
				t.Errorf("width %d: %s was cut:\n%s", width, name, joined)
			}
		}
		for _, l := range got {
			if w := ansi.StringWidth(l); w > width {
				t.Errorf("width %d: a line is %d wide: %q", width, w, l)
			}
		}
		if strings.Join(strings.Fields(joined), " ") != strings.Join(strings.Fields(line), " ") {
			t.Errorf("width %d: the text changed:\n%s", width, joined)
		}
	}
	long := strings.Repeat("very-long-name-", 6)
	for _, l := range wrapPlain(long, 20) {
		if ansi.StringWidth(l) > 20 {
			t.Errorf("a word longer than the line is not broken: %q", l)
		}
	}
}
