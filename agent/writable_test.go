package agent

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// TestUnwritableEditIsNotReviewed: an edit that cannot be written fails
// with its cause at once; nobody is asked to review it.
func TestUnwritableEditIsNotReviewed(t *testing.T) {
	h := newHarness(t, 5,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "write_file", Arguments: `{"path":"new.txt","content":"hi\n"}`}),
		agenttest.Text("It is read-only.", 8))
	if err := os.Chmod(h.root, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(h.root, 0o755) })
	if f, err := os.CreateTemp(h.root, "probe"); err == nil { // root ignores modes
		f.Close()
		os.Remove(f.Name())
		if err := exec.Command("chattr", "+i", h.root).Run(); err != nil {
			agenttest.Missing(t, fmt.Sprintf("cannot make a read-only directory here: %v", err))
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", h.root).Run() })
	}
	if _, err := h.run("write new.txt"); err != nil {
		t.Fatal(err)
	}
	if len(h.asked) != 0 {
		t.Errorf("asked %d times to review an edit that cannot be written", len(h.asked))
	}
	tm := h.toolMessages(1)
	if len(tm) != 1 || !strings.HasPrefix(tm[0]["content"].(string), "permission denied: cannot write new.txt") {
		t.Errorf("tool result %v, want the cause first", tm)
	}
}
