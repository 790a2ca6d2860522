package cli

import (
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// TestAHugePromptIsRefused pipes 5 MB into pincer run: it is refused in
// one sentence with the sizes and the fix, and nothing is sent.
func TestAHugePromptIsRefused(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("never", 5))
	s := newSandbox(t, srv.BaseURL())
	r := s.run(strings.Repeat("a", 5<<20), "run", "-s", "big")
	want := "pincer: your message is about 1.31M tokens; the model's window is 30k — shorten it or raise context_window\n"
	if r.code != 1 || r.stderr != want {
		t.Errorf("exit %d, stderr %q; want 1 and %q", r.code, r.stderr, want)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests were sent", n)
	}
	if got := len(exported(t, s, "big").Messages); got != 0 {
		t.Errorf("%d messages were saved", got)
	}
}

// TestCutHistoryIsSaid: when older messages must be left out to fit the
// window (here because the summary request fails, so nothing is
// compressed), pincer run says so on stderr (and in --json as a notice).
func TestCutHistoryIsSaid(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("ok", 5))
	srv.SetResponder(func(r agenttest.Request) (agenttest.Reply, bool) {
		msgs, _ := r.Body["messages"].([]any)
		c, _ := msgs[0].(map[string]any)["content"].(string)
		return agenttest.Error(400, "no summaries today"), strings.HasPrefix(c, "You are compressing")
	})
	s := newSandbox(t, srv.BaseURL())
	for i := 0; i < 2; i++ {
		if r := s.run(strings.Repeat("word ", 2000), "run", "-s", "long", "remember"); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	r := s.run("", "run", "-s", "long", "--context-window", "6000", "and now?")
	if r.code != 0 || !strings.Contains(r.stderr, "Could not compress") || !strings.Contains(r.stderr, "note: Left out the 4 oldest messages") {
		t.Errorf("exit %d, stderr %q; want a note saying what was left out", r.code, r.stderr)
	}
	r = s.run("", "run", "-s", "long", "--context-window", "6000", "--json", "and again?")
	if r.code != 0 || !strings.Contains(r.stdout, `"type":"notice"`) || !strings.Contains(r.stdout, "oldest messages") {
		t.Errorf("--json: exit %d, stdout %q", r.code, r.stdout)
	}
}
