package session

import (
	"encoding/json"
	"strings"
	"testing"

	"pincer/chat"
)

// exportFixture builds a session with a summary, a system prompt, a tool
// call, a failing tool result that itself contains a code fence, and a
// compression marker.
func exportFixture(t *testing.T) (*Store, Session) {
	t.Helper()
	s := newTestStore(t)
	sess := mustCreate(t, s, "fix-login", "/work/app")
	for _, m := range []chat.Message{
		{Role: chat.RoleSystem, Content: "You are pincer."},
		{Role: chat.RoleUser, Content: "Why does login fail?"},
		{Role: chat.RoleAssistant, Content: "Let me read it.", Reasoning: "check auth.go first",
			ToolCalls: []chat.ToolCall{{ID: "call_7", Name: "read_file", Arguments: `{"path":"auth.go"}`}},
			Usage:     &chat.Usage{PromptTokens: 321, CompletionTokens: 12}},
		{Role: chat.RoleTool, ToolCallID: "call_7", ToolName: "read_file", IsError: true, Content: "open auth.go: no such file\n```\nstray fence\n```"},
		{Role: chat.RoleSystem, Kind: chat.KindSummary, Content: "The user wants login fixed."},
		{Role: chat.RoleUser, Content: "Try again"},
	} {
		mustAppend(t, s, sess.ID, m)
	}
	if err := s.SetSummary(sess.ID, "The user wants login fixed; auth.go is missing.", 4); err != nil {
		t.Fatal(err)
	}
	return s, sess
}

func TestExportMarkdown(t *testing.T) {
	s, sess := exportFixture(t)
	var out strings.Builder
	if err := s.Export(&out, "fix-login", FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	md := out.String()
	inOrder := []string{
		"# fix-login\n",
		"- **Session:** `" + sess.ID + "`",
		"- **Directory:** `/work/app`",
		"- **Model:** test-model",
		"- **Messages:** 6",
		"- **Tokens:** 321 prompt, 12 completion",
		"## Summary\n\n_Covers messages 1–4._\n\nThe user wants login fixed; auth.go is missing.\n",
		"## Before the first prompt",
		"### System\n",
		"```text\nYou are pincer.\n```",
		"## Turn 1",
		"### User\n\n_#2 · ",
		"Why does login fail?",
		"### Assistant\n",
		"321 prompt + 12 completion tokens",
		"**Reasoning**\n\n```text\ncheck auth.go first\n```",
		"Let me read it.",
		"**Tool call** `read_file` (`call_7`)\n\n```json\n{\"path\":\"auth.go\"}\n```",
		"### Tool result: `read_file` (`call_7`) — error",
		"````text\nopen auth.go: no such file\n```\nstray fence\n```\n````",
		"### System — summary\n",
		"The user wants login fixed.\n",
		"## Turn 2",
		"Try again",
	}
	rest := md
	for _, want := range inOrder {
		i := strings.Index(rest, want)
		if i < 0 {
			t.Fatalf("markdown lacks %q (in order) in:\n%s", want, md)
		}
		rest = rest[i+len(want):]
	}
}

func TestExportJSON(t *testing.T) {
	s, sess := exportFixture(t)
	var out strings.Builder
	if err := s.Export(&out, sess.ID, FormatJSON); err != nil {
		t.Fatal(err)
	}
	// Decode into plain maps so the test pins the field names, not the Go
	// types.
	var doc map[string]any
	if err := json.Unmarshal([]byte(out.String()), &doc); err != nil {
		t.Fatalf("export is not JSON: %v\n%s", err, out.String())
	}
	if doc["format"] != "pincer-session" || doc["version"] != 1.0 {
		t.Errorf("format/version = %v/%v", doc["format"], doc["version"])
	}
	session := doc["session"].(map[string]any)
	for key, want := range map[string]any{
		"id": sess.ID, "name": "fix-login", "dir": "/work/app", "model": "test-model",
		"summary": "The user wants login fixed; auth.go is missing.", "summary_through": 4.0,
		"title": "Why does login fail?", "message_count": 6.0,
	} {
		if session[key] != want {
			t.Errorf("session[%q] = %v, want %v", key, session[key], want)
		}
	}
	if usage := session["usage"].(map[string]any); usage["prompt_tokens"] != 321.0 || usage["completion_tokens"] != 12.0 {
		t.Errorf("session usage = %v", usage)
	}
	for _, key := range []string{"created", "updated"} {
		if _, ok := session[key].(string); !ok {
			t.Errorf("session[%q] missing", key)
		}
	}
	msgs := doc["messages"].([]any)
	if len(msgs) != 6 {
		t.Fatalf("exported %d messages, want 6", len(msgs))
	}
	assistant := msgs[2].(map[string]any)
	call := assistant["tool_calls"].([]any)[0].(map[string]any)
	if assistant["seq"] != 3.0 || assistant["role"] != "assistant" || assistant["reasoning"] != "check auth.go first" ||
		call["id"] != "call_7" || call["name"] != "read_file" || call["arguments"] != `{"path":"auth.go"}` {
		t.Errorf("assistant message = %v", assistant)
	}
	tool := msgs[3].(map[string]any)
	if tool["tool_call_id"] != "call_7" || tool["tool_name"] != "read_file" || tool["is_error"] != true {
		t.Errorf("tool message = %v", tool)
	}
	if msgs[4].(map[string]any)["kind"] != "summary" {
		t.Errorf("summary marker lost its kind: %v", msgs[4])
	}
}

func TestExportOfAnEmptySessionHasAnEmptyList(t *testing.T) {
	s := newTestStore(t)
	mustCreate(t, s, "empty", "/w")
	var out strings.Builder
	if err := s.Export(&out, "empty", FormatJSON); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"messages": []`) {
		t.Errorf("empty session export = %s, want an empty messages list", out.String())
	}
}

func TestExportRefusesUnknownFormats(t *testing.T) {
	s, _ := exportFixture(t)
	for _, format := range []string{"", "html", "Markdown", "yaml"} {
		var out strings.Builder
		err := s.Export(&out, "fix-login", format)
		if err == nil || !strings.Contains(err.Error(), "markdown") || !strings.Contains(err.Error(), "json") {
			t.Errorf("Export(%q) = %v, want an error listing markdown and json", format, err)
		}
		if out.Len() != 0 {
			t.Errorf("Export(%q) wrote %q before failing", format, out.String())
		}
	}
}

func TestFencesClosed(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"plain text", true},
		{"```go\nx := 1\n```\n", true},
		{"```go\nx := 1\n", false},
		{"````\n```\ninner\n```\n````", true},
		{"````\n```\n", false},
		{"use `a` and ``b``", true},
		{"  ```\n  indented\n  ```", true},
	}
	for _, tt := range tests {
		if got := fencesClosed(tt.text); got != tt.want {
			t.Errorf("fencesClosed(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestExportMarkdownContainsAnUnclosedFence(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "cut", "/w")
	mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleAssistant, Content: "here:\n```go\nfunc main() {"})
	mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleUser, Content: "next"})
	var out strings.Builder
	if err := s.Export(&out, "cut", FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	want := "````text\nhere:\n```go\nfunc main() {\n````\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("an answer cut inside a code block was not fenced:\n%s", out.String())
	}
}
