package session

import (
	"encoding/json"
	"strings"
	"testing"

	"pincer/chat"
)

// TestExportSubAgentSteps: a task's result is exported with its
// sub-agent's steps, fenced in Markdown (they are foreign text) and as
// "steps" in JSON.
func TestExportSubAgentSteps(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "sub", "/work/app")
	for _, m := range []chat.Message{
		{Role: chat.RoleUser, Content: "Where is auth?"},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "call_8", Name: "task", Arguments: `{"description":"find auth","prompt":"p"}`}}},
		{Role: chat.RoleTool, ToolCallID: "call_8", ToolName: "task", Content: "auth lives in login/auth.go", Steps: []chat.Step{
			{Tool: "glob", Summary: "glob **/auth*.go\n```"}, {Tool: "run_command", Args: `{"command":"rm x"}`, IsError: true}}},
	} {
		mustAppend(t, s, sess.ID, m)
	}
	var md strings.Builder
	if err := s.Export(&md, "sub", FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	want := "**Sub-agent steps**\n\n````text\n✓ glob **/auth*.go ```\n✗ run_command {\"command\":\"rm x\"}\n````"
	if !strings.Contains(md.String(), want) {
		t.Errorf("markdown lacks %q:\n%s", want, md.String())
	}
	var js strings.Builder
	if err := s.Export(&js, "sub", FormatJSON); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Messages []chat.Message `json:"messages"`
	}
	if err := json.Unmarshal([]byte(js.String()), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Messages[2].Steps; len(got) != 2 || got[1].Tool != "run_command" || !got[1].IsError {
		t.Errorf("JSON steps %+v", got)
	}
}
