package agent

import (
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// headerless is a tool call whose fragments never carried a header: only
// an index and arguments, no id, no type, no name.
const headerless = `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":null}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"a.txt\"}"}}]}}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

`

// TestANamelessCallDoesNotPoisonTheSession: a call without a name is
// answered with an error in the same turn and goes back to the server
// under a name, so strict servers accept every later request.
func TestANamelessCallDoesNotPoisonTheSession(t *testing.T) {
	tests := []struct {
		name  string
		reply agenttest.Reply
	}{
		{"empty name", agenttest.Tools("", agenttest.Call{ID: "c1", Name: "", Arguments: `{"path":"a.txt"}`})},
		{"blank name", agenttest.Tools("", agenttest.Call{ID: "c1", Name: "  ", Arguments: `{"path":"a.txt"}`})},
		{"fragments without a header", agenttest.Reply{Body: headerless}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 10, tt.reply, agenttest.Text("sorry", 5), agenttest.Text("again", 5))
			h.write("a.txt", "hello")
			if _, err := h.run("read a.txt"); err != nil {
				t.Fatalf("Run: %v", err)
			}
			tools := h.toolMessages(1)
			if len(tools) != 1 || !strings.Contains(tools[0]["content"].(string), "had no name") {
				t.Fatalf("the tool result sent back = %v, want one saying the call had no name", tools)
			}
			for _, m := range h.records {
				for _, c := range m.ToolCalls {
					if strings.TrimSpace(c.Name) == "" {
						t.Errorf("a nameless call was stored: %+v", c)
					}
				}
			}
			// The session goes on: a resumed copy and a later turn both send
			// a history strict servers accept.
			if _, err := h.run("and now?"); err != nil {
				t.Fatalf("second turn: %v", err)
			}
			h.checkStrict()
		})
	}
}

// TestRestoreRepairsAnOldPoisonedHistory loads a history stored before the
// repair, with a nameless call and its result: the next request is
// accepted by a strict server, the person is told, and the caller's
// messages are left as they were.
func TestRestoreRepairsAnOldPoisonedHistory(t *testing.T) {
	h := newHarness(t, 10, agenttest.Text("fine", 5))
	old := []Message{
		{Seq: 1, Role: RoleUser, Content: "read a.txt"},
		{Seq: 2, Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "", Arguments: `{"path":"a.txt"}`}}},
		{Seq: 3, Role: RoleTool, ToolCallID: "c1", Content: "The tool call has no name.", IsError: true},
		{Seq: 4, Role: RoleAssistant, Content: "sorry"},
	}
	h.agent.Restore(old, "", 0)
	if _, err := h.run("go on"); err != nil {
		t.Fatalf("Run: %v", err)
	}
	h.checkStrict()
	if old[1].ToolCalls[0].Name != "" {
		t.Error("Restore changed the caller's messages")
	}
	said := false
	for _, ev := range h.events {
		if n, ok := ev.(Notice); ok && strings.Contains(n.Text, "without a name") {
			said = true
		}
	}
	if !said {
		t.Error("no notice said the history was repaired")
	}
}
