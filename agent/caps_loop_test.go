package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/agent/agenttest"
	"pincer/agent/llm"
)

// TestOversizedCallIsRefused: through the whole loop, a call whose
// arguments pass the limit is not run and not stored whole; the model is
// told why and what to do, and the person sees a notice.
func TestOversizedCallIsRefused(t *testing.T) {
	h := newHarness(t, 5, agenttest.Reply{Body: hugeArgsBody(3 << 20)}, agenttest.Text("ok", 5))
	if _, err := h.run("write"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(h.root, "big.txt")); err == nil {
		t.Error("the oversized write ran")
	}
	var result string
	for _, m := range h.records {
		if m.Role == RoleAssistant && len(m.ToolCalls) == 1 {
			if c := m.ToolCalls[0]; c.Arguments != "{}" || c.Oversize < 3<<20 {
				t.Errorf("stored call %+v, want {} and the size", c)
			}
		}
		if m.Role == RoleTool {
			result = m.Content
		}
		if len(m.Content) > 1<<20 {
			t.Errorf("a stored %s message holds %d bytes", m.Role, len(m.Content))
		}
	}
	if !strings.Contains(result, "over pincer's limit of 1 MiB") || !strings.Contains(result, "write a large file in parts") {
		t.Errorf("the model was told %q", result)
	}
	if !strings.Contains(eventsText(h.events), "tool_args_max_kb") {
		t.Error("no notice names the setting")
	}
	// The next request carries the call with empty arguments, not the 3 MB.
	reqs := h.srv.Requests()
	if len(reqs) != 2 || len(reqs[1].Raw) > 1<<20 {
		t.Errorf("%d requests; the second is %d bytes", len(reqs), len(reqs[len(reqs)-1].Raw))
	}
}

// TestTooManyCallsAreRefusedPastTheCap: of one answer's calls, the first
// MaxToolCalls run and the model is told the rest were refused.
func TestTooManyCallsAreRefusedPastTheCap(t *testing.T) {
	h := newHarness(t, 5, manyCalls(llm.MaxToolCalls+36), agenttest.Text("ok", 5))
	h.write("a.txt", "hello\n")
	if _, err := h.run("read"); err != nil {
		t.Fatal(err)
	}
	results, last := 0, ""
	for _, m := range h.records {
		if m.Role == RoleAssistant && len(m.ToolCalls) > 0 && len(m.ToolCalls) != llm.MaxToolCalls {
			t.Errorf("the stored answer holds %d calls, want %d", len(m.ToolCalls), llm.MaxToolCalls)
		}
		if m.Role == RoleTool {
			results++
			last = m.Content
		}
	}
	if results != llm.MaxToolCalls {
		t.Errorf("%d results, want %d", results, llm.MaxToolCalls)
	}
	if !strings.Contains(last, "36 more in the same answer were refused") {
		t.Errorf("the last result does not tell the model: %q", last)
	}
	if !strings.Contains(eventsText(h.events), "36 more tool calls") {
		t.Error("no notice tells the person")
	}
}

// eventsText joins the notices of a run.
func eventsText(events []Event) string {
	var b strings.Builder
	for _, e := range events {
		if n, ok := e.(Notice); ok {
			b.WriteString(n.Text + "\n")
		}
	}
	return b.String()
}
