package session

import (
	"encoding/json"
	"strings"
	"testing"

	"pincer/chat"
)

// TestExportWithRedactsSecrets: an export meant to leave the machine
// carries no secret-looking text from any part of the session (a .env a
// tool read, a key in the arguments, in the reasoning, in a sub-agent's
// step, in the summary), says how many pieces it replaced, and keeps the
// rest; a plain Export keeps everything.
func TestExportWithRedactsSecrets(t *testing.T) {
	const (
		openai = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx"
		github = "ghp_abcdefghijklmnopqrstuvwxyz0123"
		pass   = "hunter2hunter2"
		token  = "Zq8mP2xL9vR4tY7uW1sN6bK3dF5gH0jC"
	)
	s := newTestStore(t)
	sess := mustCreate(t, s, "leaky", "/work/app")
	for _, m := range []chat.Message{
		{Role: chat.RoleUser, Content: "read .env please"},
		{Role: chat.RoleAssistant, Reasoning: "the key " + openai + " is in it",
			ToolCalls: []chat.ToolCall{{ID: "c1", Name: "run_command", Arguments: `{"command":"curl -H 'Authorization: Bearer ` + token + `' x"}`}}},
		{Role: chat.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "OPENAI_API_KEY=" + openai + "\nDB_PASSWORD=" + pass + "\nPORT=5432\n"},
		{Role: chat.RoleTool, ToolCallID: "c2", ToolName: "task", Content: "done", Steps: []chat.Step{{Tool: "read_file", Summary: "read " + github}}},
		{Role: chat.RoleAssistant, Content: "The port is 5432."},
	} {
		mustAppend(t, s, sess.ID, m)
	}
	if err := s.SetSummary(sess.ID, "The token "+github+" was found.", 2); err != nil {
		t.Fatal(err)
	}
	secrets := []string{openai, github, pass, token}
	for _, format := range []string{FormatMarkdown, FormatJSON} {
		var out strings.Builder
		stats, err := s.ExportWith(&out, sess.ID, ExportOptions{Format: format, Redact: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, sec := range secrets {
			if strings.Contains(out.String(), sec) {
				t.Errorf("%s: the export still holds %q", format, sec)
			}
		}
		for _, kept := range []string{"PORT=5432", "The port is 5432.", RedactMark} {
			if !strings.Contains(out.String(), kept) {
				t.Errorf("%s: the export lost %q", format, kept)
			}
		}
		// The key and password in .env, the key in the reasoning, the
		// bearer token, the step, the summary: each counted once.
		if stats.Redacted != 6 {
			t.Errorf("%s: %d pieces redacted, want 6:\n%s", format, stats.Redacted, out.String())
		}
		if format == FormatJSON {
			var doc Document
			if err := json.Unmarshal([]byte(out.String()), &doc); err != nil {
				t.Errorf("the redacted JSON does not parse: %v", err)
			}
		}
	}
	var plain strings.Builder
	if err := s.Export(&plain, sess.ID, FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plain.String(), openai) {
		t.Error("a plain Export redacted")
	}
}

// TestRedactSecretsCountsEachPieceOnce: a key inside an assignment is one
// piece, not a key and then an assignment of the mark.
func TestRedactSecretsCountsEachPieceOnce(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"api_key = sk-proj-AbCdEfGhIjKlMnOpQrStUvWx", 1},
		{"nothing to see here, PORT=5432", 0},
		{"a\x00;\x00b", 0},
	}
	for _, c := range cases {
		out, n := RedactSecrets(c.in)
		if n != c.want {
			t.Errorf("RedactSecrets(%q) counted %d, want %d (%q)", c.in, n, c.want, out)
		}
		if c.want == 0 && out != c.in {
			t.Errorf("RedactSecrets(%q) changed it to %q", c.in, out)
		}
	}
}
