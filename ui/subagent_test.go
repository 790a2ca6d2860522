package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"pincer/agent"
	"pincer/chat"
	"pincer/safety"
	"pincer/tools"
)

// TestSubAgentOnTheScreen: a task's sub-agent shows inside the task's
// card, its tokens count apart ("sub …") from the main agent's, and the
// files it reads are marked in the tree.
func TestSubAgentOnTheScreen(t *testing.T) {
	a := newTestApp(t, 120, 30)
	a.busy = true
	sub := func(ev agent.Event) agent.Event {
		return agent.SubEvent{Call: "pincer-call-1", ID: "call_1", Event: ev}
	}
	read := agent.ToolCall{ID: "r1", Name: "read_file", Arguments: `{"path":"internal/a.go"}`}
	a.Update(eventsMsg{
		agent.ToolCallDelta{Index: 0, Call: "pincer-call-1", ID: "call_1", Name: "task", ArgsSoFar: `{"description":"survey the code","prompt":"p"}`},
		agent.AssistantMessage{Message: agent.Message{ToolCalls: []agent.ToolCall{{ID: "call_1", Name: "task", Arguments: `{"description":"survey the code","prompt":"p"}`}}}, Calls: []string{"pincer-call-1"}},
		agent.Usage{PromptTokens: 900, CompletionTokens: 30},
		agent.ToolStarted{Call: "pincer-call-1", ID: "call_1", Name: "task", Summary: "task survey the code"},
		sub(agent.AssistantMessage{Message: agent.Message{ToolCalls: []agent.ToolCall{read}}, Calls: []string{"pincer-call-1"}}),
		sub(agent.ToolStarted{Call: "pincer-call-1", ID: "r1", Name: "read_file", Summary: "read_file internal/a.go"}),
		sub(agent.ToolResult{Call: "pincer-call-1", ID: "r1", Name: "read_file", Content: "package internal", Touched: []chat.Touch{{Path: "internal/a.go", Kind: chat.TouchRead}}}),
		sub(agent.Usage{PromptTokens: 12000, CompletionTokens: 300}),
	})
	got := screen(a)
	for _, want := range []string{"task · survey the code", "✓ read_file internal/a.go", "↑900 ↓30", "sub 12.3k"} {
		if !strings.Contains(got, want) {
			t.Errorf("screen lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "package internal") {
		t.Error("the sub-agent's tool output is shown in the main transcript")
	}
	if a.usage.PromptTokens != 900 {
		t.Errorf("main usage %+v counts the sub-agent's tokens", a.usage)
	}
	a.Update(eventsMsg{agent.ToolResult{Call: "pincer-call-1", ID: "call_1", Name: "task", Content: "Report: one file."}})
	if got := screen(a); !strings.Contains(got, "1 step · Report: one file.") || strings.Contains(got, "✓ read_file internal/a.go") {
		t.Errorf("the finished task is not collapsed to one line:\n%s", got)
	}
}

// TestSubAgentApprovalSaysWhoAsks: a sub-agent's question names it in
// the dialog's title, for commands and edits alike.
func TestSubAgentApprovalSaysWhoAsks(t *testing.T) {
	for _, q := range []agent.Approval{
		{Kind: agent.ApproveCommand, Step: 1, Tool: "run_command", Summary: "run_command make", Command: "make", Tier: safety.Confirm},
		{Kind: agent.ApprovePath, Step: 1, Tool: "read_file", Summary: "read_file /etc/hosts", Paths: []string{"/etc/hosts"}, Tier: safety.Confirm},
		{Kind: agent.ApproveEdit, Step: 1, Tool: "write_file", Summary: "write_file NOTE.md", Tier: safety.Confirm,
			Change: &tools.Change{Path: "/p/NOTE.md", Rel: "NOTE.md", After: []byte("hi\n"), Created: true}},
	} {
		a := newTestApp(t, 120, 30)
		q.Agent = "sub-agent scout (find \x1b[31mit)"
		a.Update(eventsMsg{question{q: q, reply: make(chan agent.Decision, 1)}})
		raw := a.render()
		if got := ansi.Strip(raw); !strings.Contains(got, "asked by sub-agent scout (find ␛[31mit)") {
			t.Errorf("%s dialog does not name the sub-agent, sanitised:\n%s", q.Kind, got)
		}
	}
}

// TestResumedSessionSplitsSubAgentTokens: the session's total includes
// what sub-agents spent (stored with each task's result); the resumed
// status line shows it apart again.
func TestResumedSessionSplitsSubAgentTokens(t *testing.T) {
	a := newTestApp(t, 120, 30)
	a.usage = agent.Usage{PromptTokens: 13000, CompletionTokens: 400}
	a.loadHistory([]agent.Message{
		{Role: agent.RoleUser, Content: "survey"},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "call_1", Name: "task", Arguments: `{"description":"survey","prompt":"p"}`}}},
		{Role: agent.RoleTool, ToolCallID: "call_1", ToolName: "task", Content: "Report.", Usage: &agent.Usage{PromptTokens: 12000, CompletionTokens: 300},
			Steps: []agent.SubStep{{Tool: "read_file", Summary: "read_file a.go"}}},
	})
	got := screen(a)
	for _, want := range []string{"↑1.0k ↓100", "sub 12.3k", "task · survey", "1 step · Report."} {
		if !strings.Contains(got, want) {
			t.Errorf("resumed screen lacks %q:\n%s", want, got)
		}
	}
}
