package tui

import (
	"pincer/e2e/e2etest"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// TestTUICommandAddedWhileRunning: a command file written while pincer
// runs is in the / list and runs, without a restart.
func TestTUICommandAddedWhileRunning(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("answered", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	ts := e2etest.NewTmuxScreen(t, s, 110, 34)
	ts.WaitFor("the screen to open", "Ask pincer")
	s.Write(".pincer/commands/standup.md", "---\ndescription: summarise yesterday\n---\nSummarise what changed since yesterday.\n")
	ts.Keys("/stand")
	ts.WaitFor("the new command in the list", "standup", "summarise yesterday")
	ts.Keys("Enter")
	ts.WaitFor("the answer", "answered", "idle")
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.Contains(e2etest.RequestText(reqs[0]), "Summarise what changed since yesterday.") {
		t.Errorf("the command's prompt did not reach the model: %d requests", len(reqs))
	}
}

// TestHelpPipedHasNoPadding: help written to a pipe has no spaces at the
// ends of its lines, and config --help keeps every word of the provider
// list whole.
func TestHelpPipedHasNoPadding(t *testing.T) {
	s := e2etest.NewSandbox(t, "")
	for _, args := range [][]string{{"--help"}, {"config", "--help"}, {"run", "--help"}, {"sessions", "--help"}} {
		r := s.Run("", args...)
		if r.Code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.Code, r.Stderr)
		}
		for i, l := range strings.Split(r.Stdout, "\n") {
			if strings.HasSuffix(l, " ") {
				t.Errorf("%v: line %d ends in spaces: %q", args, i+1, l)
				break
			}
		}
		if args[0] == "config" {
			for _, word := range []string{"llama-3.3-70b-versatile", "mimo-v2.5-pro", "`lms server start`", "qwen3-coder-plus"} {
				if !strings.Contains(r.Stdout, word) {
					t.Errorf("config --help breaks %q:\n%s", word, r.Stdout)
				}
			}
		}
	}
}

// TestMemoryAddWarnsOfASecret: pincer memory add of a note with a token
// in it saves it and warns on stderr that the token will never be
// recalled; a plain note gets no warning.
func TestMemoryAddWarnsOfASecret(t *testing.T) {
	s := e2etest.NewSandbox(t, "")
	r := s.Run("", "memory", "add", "deploy token: ghp_abcdefghijklmnopqrstuvwxyz0123")
	if r.Code != 0 || !strings.Contains(r.Stdout, "Remembered as note") {
		t.Fatalf("exit %d: %s %s", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "looks like it holds a secret") || !strings.Contains(r.Stderr, "never be recalled") {
		t.Errorf("no warning: %q", r.Stderr)
	}
	if r := s.Run("", "memory", "add", "the build needs Go 1.25"); r.Stderr != "" {
		t.Errorf("a plain note warned: %q", r.Stderr)
	}
}
