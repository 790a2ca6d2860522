package memory

import (
	"pincer/e2e/e2etest"
	"regexp"
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
	s := e2etest.NewSandbox(t, srv.BaseURL())
	r := s.Run(strings.Repeat("a", 5<<20), "run", "-s", "big")
	want := "pincer: your message is about 1.31M tokens; the model's window is 30k — shorten it or raise context_window\n"
	if r.Code != 1 || r.Stderr != want {
		t.Errorf("exit %d, stderr %q; want 1 and %q", r.Code, r.Stderr, want)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests were sent", n)
	}
	if got := len(s.Exported("big").Messages); got != 0 {
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
	s := e2etest.NewSandbox(t, srv.BaseURL())
	for i := 0; i < 2; i++ {
		if r := s.Run(strings.Repeat("word ", 2000), "run", "-s", "long", "remember"); r.Code != 0 {
			t.Fatal(r.Stderr)
		}
	}
	r := s.Run("", "run", "-s", "long", "--context-window", "6000", "and now?")
	// How many depends on the weight of the instructions and tools.
	if r.Code != 0 || !strings.Contains(r.Stderr, "Could not compress") || !regexp.MustCompile(`note: Left out the \d+ oldest messages`).MatchString(r.Stderr) {
		t.Errorf("exit %d, stderr %q; want a note saying what was left out", r.Code, r.Stderr)
	}
	r = s.Run("", "run", "-s", "long", "--context-window", "6000", "--json", "and again?")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"type":"notice"`) || !strings.Contains(r.Stdout, "oldest messages") {
		t.Errorf("--json: exit %d, stdout %q", r.Code, r.Stdout)
	}
}
