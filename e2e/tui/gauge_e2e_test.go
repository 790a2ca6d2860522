package tui

import (
	"pincer/e2e/e2etest"
	"regexp"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// ctxGauge matches the context gauge on the status line.
var ctxGauge = regexp.MustCompile(`ctx \d+%`)

// TestTUIGaugeStaysAfterResumeUndoRedo: with the binary in tmux, a
// resumed session shows the context gauge before any request, and it
// stays after /undo and /redo instead of vanishing until the next answer.
func TestTUIGaugeStaysAfterResumeUndoRedo(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("An answer of a few words.", 8))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	for _, prompt := range []string{"first question", "second question"} {
		if r := s.Run("", "run", "-s", "gauge", prompt); r.Code != 0 {
			t.Fatal(r.Stderr)
		}
	}
	ts := e2etest.NewTmuxScreen(t, s, 110, 30, "-s", "gauge")
	screen := ts.WaitFor("the resumed session", "second question", "idle")
	if !ctxGauge.MatchString(screen) {
		t.Errorf("the resumed session shows no context gauge:\n%s", screen)
	}
	ts.Keys("/undo", "Enter")
	ts.WaitFor("the preview", "Rewind to #2", "y rewind")
	time.Sleep(400 * time.Millisecond) // a new dialog ignores keys at first
	ts.Keys("y")
	screen = ts.WaitFor("the rewind", "Rewound to #2", "idle")
	if !ctxGauge.MatchString(screen) {
		t.Errorf("after /undo the context gauge is gone:\n%s", screen)
	}
	ts.Keys("C-u", "/redo", "Enter")
	screen = ts.WaitFor("the redo", "Redone", "idle")
	if !ctxGauge.MatchString(screen) {
		t.Errorf("after /redo the context gauge is gone:\n%s", screen)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests; the screen sent one, so the gauge was not from an answer", n)
	}
}
