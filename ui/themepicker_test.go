package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestPickerNoteWraps: a note under a picker (why a theme file was left
// out) is wrapped to be read whole on a narrow screen, up to its cap.
func TestPickerNoteWraps(t *testing.T) {
	reason := `Not listed: theme file "/home/me/.config/pincer/themes/bad2.json": text: is not a theme field; use name, extends, dark, chroma_style or colors`
	for _, tc := range []struct {
		width, n int
		want     []string // each must be in the result
		lines    int
	}{
		{76, 4, []string{"bad2.json", "use name, extends, dark, chroma_style or colors"}, 2},
		{40, 2, []string{"…"}, 2},
		{200, 4, []string{reason}, 1},
	} {
		got := wrapLines(reason, tc.width, tc.n)
		flat := strings.ReplaceAll(got, "\n", " ")
		for _, w := range tc.want {
			if !strings.Contains(flat, w) && !strings.Contains(got, w) {
				t.Errorf("width %d: %q lacks %q", tc.width, got, w)
			}
		}
		if n := strings.Count(got, "\n") + 1; n != tc.lines {
			t.Errorf("width %d: %d lines, want %d: %q", tc.width, n, tc.lines, got)
		}
		for _, l := range strings.Split(got, "\n") {
			if ansi.StringWidth(l) > tc.width {
				t.Errorf("width %d: line %q is wider", tc.width, l)
			}
		}
	}
}
