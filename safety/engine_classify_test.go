package safety

import (
	"strings"
	"testing"
)

// TestClassifyTables classifies every case of the three tables — the
// original one, the commands that run programs or evaluate text (execCases)
// and the harm families (harmCases) — and checks the tier and the form of
// the reasons. A command may stand in only one table.
func TestClassifyTables(t *testing.T) {
	c := tableClassifier()
	if len(commandCases) < 300 {
		t.Fatalf("the table has %d commands; keep at least 300", len(commandCases))
	}
	seen := map[string]bool{}
	for _, table := range [][]commandCase{commandCases, execCases, harmCases} {
		for _, tc := range table {
			if seen[tc.cmd] {
				t.Errorf("%q is in the tables twice", tc.cmd)
			}
			seen[tc.cmd] = true
			v := c.classify(tc.cmd)
			if v.Tier != tc.want {
				t.Errorf("%q: got %v, want %v (%s)\n\treasons: %q", tc.cmd, v.Tier, tc.want, tc.why, v.Reasons)
				continue
			}
			if v.Tier > Safe && len(v.Reasons) == 0 {
				t.Errorf("%q: %v without a reason", tc.cmd, v.Tier)
			}
			for _, r := range v.Reasons {
				if !strings.Contains(r, ": ") {
					t.Errorf("%q: reason %q is not of the form '<part>: <why>'", tc.cmd, r)
				}
			}
		}
	}
}
