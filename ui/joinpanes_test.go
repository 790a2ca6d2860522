package ui

import (
	"strings"
	"testing"
)

// TestJoinPanesAllocatesOnce: the screen joins the tree and the transcript
// on every frame; the joined rows are written into one allocation, however
// many rows the panes have, and the lines below them (the rule, the
// input, the status line) go into the same allocation.
func TestJoinPanesAllocatesOnce(t *testing.T) {
	for _, c := range []struct {
		name        string
		left, right string
		tail        string
		want        string
	}{
		{"two rows", "a\nb", "1\n2", "", "a│1\nb│2"},
		{"left longer", "a\nb\nc", "1", "", "a│1\nb│\nc│"},
		{"with the lines below", "a\nb", "1\n2", "\nrule\ninput", "a│1\nb│2\nrule\ninput"},
		{"a screen", strings.Repeat("tree row\n", 44) + "tree row", strings.Repeat("text row\n", 44) + "text row", "\n" + strings.Repeat("─", 160) + "\ninput\nstatus", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := joinPanes(c.left, "│", c.right, c.tail)
			if c.want != "" && got != c.want {
				t.Errorf("joinPanes = %q, want %q", got, c.want)
			}
			if n := testing.AllocsPerRun(20, func() { joinPanes(c.left, "│", c.right, c.tail) }); n != 1 {
				t.Errorf("joinPanes allocated %v times, want 1", n)
			}
		})
	}
}
