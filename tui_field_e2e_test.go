package main

import (
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// TestTUIContinueWithNothingSaysSoAtOnce: pincer -c in a directory without
// sessions says so on the first screen, not after quitting.
func TestTUIContinueWithNothingSaysSoAtOnce(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	ts := newTmuxScreen(t, s, 100, 30, "-c")
	ts.waitFor("the notice on the first screen", "Ask pincer", "no earlier session")
}

// TestTUIRefusedKeyIsAnExplainedError: a 401 shows one sentence naming the
// key's variable, and no "(interrupted)".
func TestTUIRefusedKeyIsAnExplainedError(t *testing.T) {
	srv := agenttest.New(agenttest.Error(401, "Incorrect API key provided"))
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	s.env = append(s.env, "PINCER_API_KEY=sk-wrong")
	ts := newTmuxScreen(t, s, 120, 30)
	ts.waitFor("the screen to open", "Ask pincer")
	ts.keys("hello", "Enter")
	screen := ts.waitFor("the error", "refused the API key", "PINCER_API_KEY")
	if strings.Contains(screen, "interrupted") {
		t.Errorf("a refused key reads as an interruption:\n%s", screen)
	}
}
