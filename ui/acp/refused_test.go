package acp

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"pincer/agent"
)

// TestRefusedCallTitledWithSummary: a call refused before it started (a
// botched call recovered from text, a no of the user) ends titled with
// the agent's summary, as the screen's card and `pincer run` show it; a
// call that ran keeps the title it started with.
func TestRefusedCallTitledWithSummary(t *testing.T) {
	call := agent.ToolCall{ID: "c1", Name: "read_file", Arguments: `{"path":"main.go"}`}
	summary := "read main.go (recovered from text)"
	for _, tc := range []struct {
		name      string
		events    []agent.Event
		wantTitle string // of the last update; "" when it sets none
	}{
		{"refused", []agent.Event{
			agent.AssistantMessage{Message: agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{call}}, Calls: []string{"k1"}},
			agent.ToolResult{Call: "k1", ID: "c1", Name: "read_file", Summary: summary, Content: "Not run: its arguments were not JSON", IsError: true},
		}, summary},
		{"ran", []agent.Event{
			agent.AssistantMessage{Message: agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{call}}, Calls: []string{"k1"}},
			agent.ToolStarted{Call: "k1", ID: "c1", Name: "read_file", Summary: summary},
			agent.ToolResult{Call: "k1", ID: "c1", Name: "read_file", Summary: summary, Content: "package main"},
		}, ""},
		{"sub-agent's refused", []agent.Event{
			agent.SubEvent{Call: "t1", Event: agent.AssistantMessage{Message: agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{call}}, Calls: []string{"k1"}}},
			agent.SubEvent{Call: "t1", Event: agent.ToolResult{ID: "c1", Name: "read_file", Summary: summary, Content: "Not run", IsError: true}},
		}, "sub-agent: " + summary},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			srv := &server{o: Options{Log: io.Discard}, sessions: map[string]*session{}}
			srv.conn = newConn(strings.NewReader(""), &out, srv, func(string, ...any) {})
			s := newSession(srv)
			s.id, s.conv = "01M8W1AB3KNY1MCMWTZR6QPVX4", &Conversation{Root: t.TempDir()}
			for _, ev := range tc.events {
				s.event(ev)
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			var last struct {
				Params struct {
					Update struct {
						Title  string `json:"title"`
						Status string `json:"status"`
					} `json:"update"`
				} `json:"params"`
			}
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
				t.Fatalf("%v: %s", err, out.String())
			}
			if got := last.Params.Update.Title; got != tc.wantTitle {
				t.Errorf("the last update's title = %q, want %q\n%s", got, tc.wantTitle, out.String())
			}
		})
	}
}
