package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunShell: a custom command's "!" line is judged and approved like
// the model's run_command, and nothing of it joins the conversation.
func TestRunShell(t *testing.T) {
	for _, tc := range []struct {
		name      string
		command   string
		allow     bool
		wantAsked int
		wantErr   error  // errors.Is target, or nil
		wantText  string // in the output or the error
		wantFile  string // a file the command makes, when it runs
	}{
		{name: "safe runs unasked", command: "echo hello-shell", wantText: "hello-shell"},
		{name: "confirm asks and runs", command: "touch made", allow: true, wantAsked: 1, wantText: "exit code 0", wantFile: "made"},
		{name: "confirm refused", command: "touch refused", wantAsked: 1, wantErr: ErrRefused, wantText: "was refused"},
		{name: "dangerous asks twice", command: "rm -rf nothing-here", allow: true, wantAsked: 2, wantText: "exit code"},
		{name: "deny rule", command: "shutdown now", wantText: "deny rule"},
		{name: "failure is output", command: "exit 3", wantText: "exit code 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 5)
			h.answer = func(Approval) Decision { return Decision{Allow: tc.allow} }
			out, err := h.agent.RunShell(context.Background(), tc.command, h.sink)
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("error %v, want %v", err, tc.wantErr)
			}
			text := out
			if err != nil {
				text = err.Error()
			}
			if !strings.Contains(text, tc.wantText) {
				t.Errorf("got %q (err %v), want it to contain %q", out, err, tc.wantText)
			}
			if len(h.asked) != tc.wantAsked {
				t.Errorf("asked %d times, want %d", len(h.asked), tc.wantAsked)
			}
			if tc.wantFile != "" {
				if _, err := os.Stat(filepath.Join(h.root, tc.wantFile)); err != nil {
					t.Errorf("the command did not run: %v", err)
				}
			}
			if _, err := os.Stat(filepath.Join(h.root, "refused")); err == nil {
				t.Error("a refused command ran")
			}
			if len(h.agent.History()) != 0 || len(h.records) != 0 {
				t.Errorf("the command joined the conversation: %v", h.agent.History())
			}
			for _, ev := range h.events {
				if _, ok := ev.(ToolStarted); ok {
					t.Error("a tool card was started for a command's line")
				}
			}
		})
	}
}
