package headless

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"pincer/tools/mcp"
)

func form() mcp.Elicitation {
	return mcp.Elicitation{Server: "corp\x1b[31m", Message: "Who\x1b]0;pwned\x07 are you?", Fields: []mcp.Field{
		{Name: "name", Title: "Name", Kind: mcp.KindString, Required: true},
		{Name: "color", Kind: mcp.KindChoice, Options: []string{"r", "g"}, OptionTitles: []string{"Red", "Green"}, Default: "g"},
		{Name: "age", Kind: mcp.KindInteger},
	}}
}

func TestElicitorOnATerminal(t *testing.T) {
	tests := []struct {
		name    string
		typed   string
		action  mcp.Action
		content string
	}{
		{"answered", "Ada\n1\n36\n\n", mcp.Accept, `{"age":36,"color":"r","name":"Ada"}`},
		{"defaults and blanks", "Ada\n\n\ny\n", mcp.Accept, `{"color":"g","name":"Ada"}`},
		{"a wrong answer is asked again", "\nAda\n9\n\nx\n7\n\n", mcp.Accept, `{"age":7,"color":"g","name":"Ada"}`},
		{"declined", "Ada\n\n\nn\n", mcp.Decline, `null`},
		{"cancelled", "Ada\n\n\nc\n", mcp.Cancel, `null`},
		{"three wrong answers decline", "\n\n\n", mcp.Decline, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			ask := Elicitor(strings.NewReader(tt.typed), &out, false, nil)
			a, err := ask(context.Background(), form())
			if err != nil {
				t.Fatal(err)
			}
			content, _ := json.Marshal(a.Content)
			if a.Action != tt.action || string(content) != tt.content {
				t.Errorf("got %s %s, want %s %s\n%s", a.Action, content, tt.action, tt.content, out.String())
			}
			if strings.ContainsAny(out.String(), "\x1b\x07") {
				t.Errorf("the server's text reached the terminal unsanitised: %q", out.String())
			}
			if !strings.Contains(out.String(), "The MCP server corp") {
				t.Errorf("the server is not named:\n%s", out.String())
			}
		})
	}
}

func TestElicitorWithoutATerminal(t *testing.T) {
	allDefaults := mcp.Elicitation{Server: "corp", Message: "ok?", Fields: []mcp.Field{{Name: "n", Kind: mcp.KindString, Default: "x"}}}
	tests := []struct {
		name   string
		yes    bool
		q      mcp.Elicitation
		action mcp.Action
		note   string
	}{
		{"declined", false, allDefaults, mcp.Decline, "no terminal to ask"},
		{"--yes takes the defaults", true, allDefaults, mcp.Accept, "accepted with its defaults (--yes)"},
		{"--yes does not invent answers", true, form(), mcp.Decline, "--yes accepts only a form whose every field has a default"},
		{"--yes opens no page", true, mcp.Elicitation{Server: "corp", URL: "https://a.example/"}, mcp.Decline, "no terminal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			opened := false
			a, err := Elicitor(nil, &out, tt.yes, func(string) error { opened = true; return nil })(context.Background(), tt.q)
			if err != nil || a.Action != tt.action || !strings.Contains(out.String(), tt.note) || opened {
				t.Errorf("got %s %v (opened %v), want %s; said %q", a.Action, err, opened, tt.action, out.String())
			}
		})
	}
}

func TestElicitorOpensAPageOnlyAfterYes(t *testing.T) {
	q := mcp.Elicitation{Server: "corp", Message: "Connect your account", URL: "https://auth.example/connect"}
	for _, tt := range []struct {
		typed  string
		opened bool
		action mcp.Action
	}{{"y\n", true, mcp.Accept}, {"\n", false, mcp.Decline}, {"no\n", false, mcp.Decline}} {
		var out strings.Builder
		var opened string
		a, err := Elicitor(strings.NewReader(tt.typed), &out, false, func(p string) error { opened = p; return nil })(context.Background(), q)
		if err != nil || a.Action != tt.action || (opened != "") != tt.opened {
			t.Errorf("typed %q: %s, opened %q, %v", tt.typed, a.Action, opened, err)
		}
	}
	var out strings.Builder
	a, _ := Elicitor(strings.NewReader("y\n"), &out, false, func(string) error { return errors.New("no browser") })(context.Background(), q)
	if a.Action != mcp.Accept || !strings.Contains(out.String(), "open the page yourself") {
		t.Errorf("without a browser: %s %q", a.Action, out.String())
	}
}
