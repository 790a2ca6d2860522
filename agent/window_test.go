package agent

import (
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

func TestHumanTokens(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0"}, {850, "850"}, {1000, "1k"}, {1250, "1.25k"}, {9999, "10k"}, {30000, "30k"},
		{128_000, "128k"}, {1_000_000, "1M"}, {1_250_000, "1.25M"}, {1_310_720, "1.31M"},
	}
	for _, tt := range tests {
		if got := humanTokens(tt.n); got != tt.want {
			t.Errorf("humanTokens(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestAPromptTooBigForTheWindowIsRefused: a prompt that cannot fit even
// alone is refused in one sentence, before anything is stored or sent.
func TestAPromptTooBigForTheWindowIsRefused(t *testing.T) {
	h := newHarness(t, 10, agenttest.Text("never", 5))
	h.agent.opts.Budget = Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 10}
	huge := strings.Repeat("x", 5<<20)
	res, err := h.run(huge)
	want := "your message is about 1.31M tokens; the model's window is 30k — shorten it or raise context_window"
	if err == nil || err.Error() != want {
		t.Fatalf("Run = %v, want %q", err, want)
	}
	if res.StopReason != "error" || len(h.srv.Requests()) != 0 || len(h.records) != 0 || len(h.agent.History()) != 0 {
		t.Errorf("stop %q, %d requests, %d saved, %d in history; want nothing sent or kept",
			res.StopReason, len(h.srv.Requests()), len(h.records), len(h.agent.History()))
	}
	// A prompt that fits goes through.
	if _, err := h.run("small"); err != nil {
		t.Fatalf("a small prompt after the refused one: %v", err)
	}
}

// TestARequestStillTooBigIsNotSent: when even the last message cannot fit
// after older ones were left out (a huge tool result, say), the request is
// refused rather than sent over the window.
func TestARequestStillTooBigIsNotSent(t *testing.T) {
	msgs := []Message{
		{Role: RoleSystem, Content: "sys"},
		{Role: RoleUser, Content: strings.Repeat("old ", 400)},
		{Role: RoleAssistant, Content: "ok"},
		{Role: RoleUser, Content: strings.Repeat("y", 4000)},
	}
	out, notes := fitToWindow(msgs, 500, 0)
	if len(notes) == 0 {
		t.Error("no notice said what was left out")
	}
	if err := tooBig(out, 500, 0); err == nil || !strings.Contains(err.Error(), "window is 500") {
		t.Errorf("tooBig = %v", err)
	}
	if err := tooBig(msgs[:3], 5000, 0); err != nil {
		t.Errorf("tooBig of a request that fits = %v", err)
	}
}
