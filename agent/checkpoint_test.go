package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// fakeCheckpoints records what the agent tells it, and what the project
// looked like when the agent waited for the checkpoint.
type fakeCheckpoints struct {
	root    string
	log     []string
	failing bool
}

func (f *fakeCheckpoints) TurnStarted(_ context.Context, seq uint64) func() (string, error) {
	f.log = append(f.log, "started")
	return func() (string, error) {
		_, err := os.Stat(filepath.Join(f.root, "made.txt"))
		f.log = append(f.log, "wait (made.txt exists: "+boolWord(err == nil)+")")
		if f.failing {
			return "", errors.New("disk full")
		}
		return "Not recorded for /rewind: big.iso (larger than 5 MiB).", nil
	}
}

func (f *fakeCheckpoints) TurnEnded(seq uint64) { f.log = append(f.log, "ended") }

func boolWord(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// TestCheckpointsAroundATurn: the checkpoint is waited for once, before
// the first tool that changes anything runs (reads do not wait), and the
// turn's end is reported; a failed checkpoint is said, and the turn goes on.
func TestCheckpointsAroundATurn(t *testing.T) {
	for _, tc := range []struct {
		name    string
		failing bool
		calls   []agenttest.Call
		want    string
	}{
		{"write then write", false, []agenttest.Call{
			{ID: "c0", Name: "tree_view", Arguments: `{}`},
			{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "touch made.txt"})},
			{ID: "c2", Name: "write_file", Arguments: args(map[string]any{"path": "b.txt", "content": "b"})},
		}, "started|wait (made.txt exists: no)|ended"},
		{"reads only", false, []agenttest.Call{{ID: "c0", Name: "tree_view", Arguments: `{}`}}, "started|ended"},
		{"checkpoint fails", true, []agenttest.Call{
			{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "touch made.txt"})},
		}, "started|wait (made.txt exists: no)|ended"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 30, agenttest.Tools("", tc.calls...), agenttest.Text("done", 10))
			f := &fakeCheckpoints{root: h.root, failing: tc.failing}
			h.agent.opts.Checkpoints = f
			if _, err := h.run("go"); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(f.log, "|"); got != tc.want {
				t.Errorf("checkpoint calls = %s, want %s", got, tc.want)
			}
			said, noted := false, false
			for _, ev := range h.events {
				if n, ok := ev.(Notice); ok && strings.Contains(n.Text, "cannot be rewound") {
					said = true
				}
				if n, ok := ev.(Notice); ok && strings.Contains(n.Text, "big.iso") {
					noted = true
				}
			}
			if said != tc.failing {
				t.Errorf("notice about the failed checkpoint shown: %v, want %v", said, tc.failing)
			}
			if waited := strings.Contains(tc.want, "wait"); noted != (waited && !tc.failing) {
				t.Errorf("the checkpoint's note shown: %v", noted)
			}
			if _, err := os.Stat(filepath.Join(h.root, "made.txt")); len(tc.calls) > 1 && err != nil {
				t.Errorf("the command did not run: %v", err)
			}
		})
	}
}
