package main

import (
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
	s := newSandbox(t, srv.BaseURL())
	ts := newTmuxScreen(t, s, 110, 34)
	ts.waitFor("the screen to open", "Ask pincer")
	s.write(".pincer/commands/standup.md", "---\ndescription: summarise yesterday\n---\nSummarise what changed since yesterday.\n")
	ts.keys("/stand")
	ts.waitFor("the new command in the list", "standup", "summarise yesterday")
	ts.keys("Enter")
	ts.waitFor("the answer", "answered", "idle")
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.Contains(requestText(reqs[0]), "Summarise what changed since yesterday.") {
		t.Errorf("the command's prompt did not reach the model: %d requests", len(reqs))
	}
}
