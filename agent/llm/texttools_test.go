package llm

import (
	"strings"
	"testing"

	"pincer/chat"
)

// TestAsTextTools: a conversation with calls is rewritten for a server
// that takes no tools: the tools described in the first system message,
// calls as <tool_call> blocks, the results of one answer in one user
// message, and never two user messages in a row.
func TestAsTextTools(t *testing.T) {
	t.Parallel()
	msgs := []chat.Message{
		{Role: chat.RoleSystem, Content: "sys"},
		{Role: chat.RoleUser, Content: "read both"},
		{Role: chat.RoleAssistant, Content: "Reading.", ToolCalls: []chat.ToolCall{
			{ID: "1", Name: "read_file", Arguments: `{"path":"a"}`},
			{ID: "2", Name: "read_file", Arguments: `{'path': 'b'}`},
		}},
		{Role: chat.RoleTool, ToolCallID: "1", ToolName: "read_file", Content: "A"},
		{Role: chat.RoleTool, ToolCallID: "2", ToolName: "read_file", Content: "B"},
		{Role: chat.RoleUser, Content: "stopped; go on"},
	}
	got := asTextTools(msgs, offeredTools())
	roles := make([]string, len(got))
	for i, m := range got {
		roles[i] = string(m.Role)
		if len(m.ToolCalls) > 0 || m.Role == chat.RoleTool {
			t.Errorf("message %d keeps the server's own tool shape: %+v", i, m)
		}
	}
	if strings.Join(roles, ",") != "system,user,assistant,user" {
		t.Fatalf("roles %v, want system,user,assistant,user", roles)
	}
	if !strings.Contains(got[0].Content, "sys") || !strings.Contains(got[0].Content, "run_command") || !strings.Contains(got[0].Content, "<tool_call>") {
		t.Errorf("system message %q does not describe the tools", got[0].Content)
	}
	want := "Reading.\n<tool_call>\n{\"name\":\"read_file\",\"arguments\":{\"path\":\"a\"}}\n</tool_call>\n<tool_call>\n{\"name\":\"read_file\",\"arguments\":{}}\n</tool_call>"
	if got[2].Content != want {
		t.Errorf("assistant message\n%s\nwant\n%s", got[2].Content, want)
	}
	if c := got[3].Content; !strings.Contains(c, "<tool_response>\nA\n</tool_response>\n<tool_response>\nB\n</tool_response>") || !strings.HasSuffix(c, "stopped; go on") {
		t.Errorf("user message %q, want both results and the question", c)
	}
	if len(msgs) != 6 || msgs[2].ToolCalls == nil || msgs[0].Content != "sys" {
		t.Error("the caller's messages were changed")
	}
}
