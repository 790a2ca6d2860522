package llm

import (
	"context"
	"strings"
	"testing"

	"pincer/agent/agenttest"
	"pincer/chat"
)

// TestStrictOracleSeesWhatTheClientSends feeds broken histories through the
// real client and server: the Strict verdict the loop and end-to-end tests
// rely on must flag each, so a passing oracle there means something.
func TestStrictOracleSeesWhatTheClientSends(t *testing.T) {
	t.Parallel()
	call := chat.ToolCall{ID: "c1", Name: "read_file", Arguments: `{"path":"a"}`}
	tests := []struct {
		name string
		msgs []chat.Message
		want string
	}{
		{"a tool result that answers no call", []chat.Message{
			{Role: chat.RoleUser, Content: "hi"},
			{Role: chat.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "x"},
		}, "answers no open call"},
		{"a call left unanswered", []chat.Message{
			{Role: chat.RoleUser, Content: "hi"},
			{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call}},
			{Role: chat.RoleUser, Content: "and?"},
		}, "were not answered"},
		{"one id for two calls", []chat.Message{
			{Role: chat.RoleUser, Content: "hi"},
			{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call}},
			{Role: chat.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "x"},
			{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call}},
			{Role: chat.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "x"},
		}, "reused id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := agenttest.New(agenttest.Text("ok", 2))
			defer srv.Close()
			c := newTestClient(t, srv.BaseURL(), "")
			_, _ = c.Complete(context.Background(), Request{Messages: tt.msgs}, nil)
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			if reqs[0].Strict == nil || !strings.Contains(reqs[0].Strict.Error(), tt.want) {
				t.Errorf("Strict = %v, want a violation mentioning %q in\n%s", reqs[0].Strict, tt.want, reqs[0].Raw)
			}
		})
	}
}
