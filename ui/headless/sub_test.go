package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"pincer/agent"
	"pincer/safety"
	"pincer/tools"
)

func subEvents() []agent.Event {
	wrap := func(ev agent.Event) agent.Event {
		return agent.SubEvent{Call: "pincer-call-1", ID: "call_1", Agent: "scout", Event: ev}
	}
	return []agent.Event{
		agent.ToolStarted{Call: "pincer-call-1", ID: "call_1", Name: "task", Summary: "task find it"},
		wrap(agent.TextDelta{Text: "looking"}),
		wrap(agent.ToolStarted{ID: "r1", Name: "read_file", Summary: "read_file a.go"}),
		wrap(agent.ToolResult{ID: "r1", Name: "read_file", Content: "package a\x1b[2J"}),
		wrap(agent.Usage{PromptTokens: 300, CompletionTokens: 40, TotalTokens: 340}),
		wrap(agent.Usage{PromptTokens: 200, CompletionTokens: 10, TotalTokens: 210}),
		agent.ToolResult{Call: "pincer-call-1", ID: "call_1", Name: "task", Content: "REPORT"},
		agent.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120},
	}
}

// TestJSONSubLines: a sub-agent's events are "sub" lines with the task
// call's id and the agent's name, the event's own line nested; its tokens
// are summed apart in the result line.
func TestJSONSubLines(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, &bytes.Buffer{}, true)
	for _, ev := range subEvents() {
		p.Event(ev)
	}
	p.Finish(agent.Result{Text: "done", StopReason: "answer", Usage: agent.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}}, nil)
	var types []string
	var subs []map[string]any
	var result map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %q", l)
		}
		types = append(types, m["type"].(string))
		switch m["type"] {
		case "sub":
			subs = append(subs, m)
		case "result":
			result = m
		}
	}
	if got := strings.Join(types, " "); got != "tool_start sub sub sub sub sub tool_result usage result" {
		t.Fatalf("line types %q", got)
	}
	for _, s := range subs {
		if s["parent"] != "call_1" || s["agent"] != "scout" {
			t.Errorf("sub line %v lacks the parent call id or the agent", s)
		}
	}
	if ev := subs[2]["event"].(map[string]any); ev["type"] != "tool_result" || ev["name"] != "read_file" || ev["content"] != "package a\x1b[2J" {
		t.Errorf("nested event %v", ev)
	}
	sub := result["sub_usage"].(map[string]any)
	if sub["prompt_tokens"] != 500.0 || sub["completion_tokens"] != 50.0 {
		t.Errorf("sub_usage %v, want 500/50", sub)
	}
	if u := result["usage"].(map[string]any); u["prompt_tokens"] != 100.0 {
		t.Errorf("usage %v mixes in the sub-agent's", u)
	}
}

// TestTextSubSteps: in text mode a sub-agent's steps go to errOut,
// indented under the task and sanitised; its text never reaches the
// answer.
func TestTextSubSteps(t *testing.T) {
	var out, errOut bytes.Buffer
	p := NewPrinter(&out, &errOut, false)
	for _, ev := range subEvents() {
		p.Event(ev)
	}
	if strings.Contains(out.String(), "looking") {
		t.Errorf("the sub-agent's text reached the answer: %q", out.String())
	}
	want := "▸ task find it\n  ▸ read_file a.go\n    ✓ package a"
	if !strings.Contains(errOut.String(), want) {
		t.Errorf("activity %q lacks %q", errOut.String(), want)
	}
	if strings.Contains(errOut.String(), "\x1b") {
		t.Errorf("an escape reached the terminal: %q", errOut.String())
	}
}

// TestRefusalNamesTheSubAgent: a refusal note says which sub-agent asked.
func TestRefusalNamesTheSubAgent(t *testing.T) {
	var errOut bytes.Buffer
	_, _ = Policy{}.Approver(&errOut).Approve(context.Background(), agent.Approval{
		Kind: agent.ApproveEdit, Step: 1, Tier: safety.Confirm, Change: &tools.Change{Rel: "a.go"}, Agent: "sub-agent scout (fix it)"})
	if !strings.Contains(errOut.String(), "edit of a.go asked by sub-agent scout (fix it)") {
		t.Errorf("note %q does not name the sub-agent", errOut.String())
	}
}
