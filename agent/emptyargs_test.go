package agent

import (
	"context"
	"testing"

	"pincer/agent/agenttest"
	"pincer/agent/llm"
)

// TestEmptyArgumentsMeanEmptyObject: a call to a tool without parameters
// whose arguments arrive as "" is "{}" in the assistant event, in the stored
// history and in the request that sends the history back.
func TestEmptyArgumentsMeanEmptyObject(t *testing.T) {
	h := newHarness(t, 5,
		agenttest.Tools("", agenttest.Call{ID: "call_tree", Name: "tree_view", Arguments: ""}),
		agenttest.Text("done", 4))
	if _, err := h.run("show the tree"); err != nil {
		t.Fatal(err)
	}
	var events []AssistantMessage
	for _, ev := range h.events {
		if a, ok := ev.(AssistantMessage); ok {
			events = append(events, a)
		}
	}
	if len(events) == 0 || len(events[0].Message.ToolCalls) != 1 {
		t.Fatalf("assistant events %+v, want a first one with one call", events)
	}
	if got := events[0].Message.ToolCalls[0].Arguments; got != "{}" {
		t.Errorf("assistant event arguments %q, want {}", got)
	}
	for _, m := range h.records {
		for _, c := range m.ToolCalls {
			if c.Arguments != "{}" {
				t.Errorf("stored call %s has arguments %q, want {}", c.Name, c.Arguments)
			}
		}
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	sent := 0
	for _, m := range reqs[1].Body["messages"].([]any) {
		calls, _ := m.(map[string]any)["tool_calls"].([]any)
		for _, c := range calls {
			sent++
			if got := c.(map[string]any)["function"].(map[string]any)["arguments"]; got != "{}" {
				t.Errorf("sent back arguments %q, want {}", got)
			}
		}
	}
	if sent != 1 {
		t.Errorf("%d calls sent back, want 1", sent)
	}
	h.checkStrict()
}

// emptyArgsModel answers once with a call whose arguments are "", as a
// Model other than Client may.
type emptyArgsModel struct{ n int }

func (m *emptyArgsModel) Complete(context.Context, llm.Request, func(Event)) (llm.Reply, error) {
	m.n++
	if m.n == 1 {
		return llm.Reply{ToolCalls: []ToolCall{{ID: "c1", Name: "tree_view", Arguments: " "}}}, nil
	}
	return llm.Reply{Content: "done"}, nil
}

func TestEmptyArgumentsFromAnyModel(t *testing.T) {
	h := newHarness(t, 5)
	h.agent.opts.Model = &emptyArgsModel{}
	if _, err := h.run("show the tree"); err != nil {
		t.Fatal(err)
	}
	if len(h.records) < 2 || len(h.records[1].ToolCalls) != 1 || h.records[1].ToolCalls[0].Arguments != "{}" {
		t.Fatalf("stored messages %+v, want the assistant call with arguments {}", h.records)
	}
}
