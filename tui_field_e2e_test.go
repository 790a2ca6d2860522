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

// TestSessionsShowOnce: `pincer sessions show` gives the details once,
// then the transcript, then how to resume.
func TestSessionsShowOnce(t *testing.T) {
	srv := agenttest.New(agenttest.Text("hello there", 5))
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	if r := s.run("", "run", "-s", "alpha", "hi"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := s.run("", "sessions", "show", "alpha")
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	for _, once := range []string{s.dir, "test-model", "hello there"} {
		if n := strings.Count(r.stdout, once); n != 1 {
			t.Errorf("%q appears %d times, want once:\n%s", once, n, r.stdout)
		}
	}
	if !strings.HasSuffix(r.stdout, "Resume it with: pincer -s alpha\n") {
		t.Errorf("the output does not end with the resume hint:\n%s", r.stdout)
	}
}
