package telegram

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"pincer/tools/mcp"
)

func TestElicitQuestionButtons(t *testing.T) {
	t.Parallel()
	plan := mcp.Field{Name: "plan", Title: "Plan", Kind: mcp.KindChoice, Options: []string{"free", "pro"}, OptionTitles: []string{"Free", "Pro"}}
	tests := []struct {
		name    string
		q       mcp.Elicitation
		ok      bool
		press   string
		answer  string
		showing string
	}{
		{"defaults", mcp.Elicitation{Server: "corp", Message: "ok?", Fields: []mcp.Field{{Name: "n", Kind: mcp.KindInteger, Default: 3.0}}}, true, elicitAccept, `accept {"n":3}`, "<code>3</code>"},
		{"one choice", mcp.Elicitation{Server: "corp", Message: "which?", Fields: []mcp.Field{plan}}, true, elicitOption + "1", `accept {"plan":"pro"}`, "Plan"},
		{"a forged option", mcp.Elicitation{Server: "corp", Fields: []mcp.Field{plan}}, true, elicitOption + "7", `decline null`, ""},
		{"yes or no", mcp.Elicitation{Server: "corp", Fields: []mcp.Field{{Name: "ok", Kind: mcp.KindBoolean}}}, true, elicitOption + "1", `accept {"ok":false}`, ""},
		{"a page", mcp.Elicitation{Server: "corp", Message: "connect", URL: "https://a.example/x"}, true, elicitDone, `accept null`, "https://a.example/x"},
		{"typing needed", mcp.Elicitation{Server: "corp\x1b[2J", Message: "name?", Fields: []mcp.Field{{Name: "n", Kind: mcp.KindString, Required: true}}}, false, "", "", "needs typing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, choices, ok := elicitQuestion(tt.q)
			if ok != tt.ok || !strings.Contains(text, tt.showing) || strings.Contains(text, "\x1b") {
				t.Fatalf("ok %v, text %q", ok, text)
			}
			if ok {
				if err := checkHTML(text); err != nil {
					t.Errorf("the question is not Telegram HTML: %v", err)
				}
				if !strings.Contains(text, "The MCP server corp asks") {
					t.Errorf("the server is not named: %q", text)
				}
				labels := map[string]bool{}
				for _, c := range choices {
					labels[c.code] = true
				}
				if !labels[elicitDecline] {
					t.Errorf("no Decline among %v", choices)
				}
			}
			if tt.press == "" {
				return
			}
			a := elicitAnswer(tt.q, tt.press)
			content, _ := json.Marshal(a.Content)
			if got := string(a.Action) + " " + string(content); got != tt.answer {
				t.Errorf("pressing %s gave %s, want %s", tt.press, got, tt.answer)
			}
		})
	}
}

func TestElicitorAsksTheBusyChatsOwner(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	r := startBot(t, api, nil, "")
	ask := r.bot.Elicitor()
	q := mcp.Elicitation{Server: "corp", Message: "which?", Fields: []mcp.Field{{Name: "plan", Kind: mcp.KindChoice, Options: []string{"free", "pro"}, OptionTitles: []string{"Free", "Pro"}}}}
	if a, err := ask(context.Background(), q); err != nil || a.Action != mcp.Decline {
		t.Fatalf("with no turn running: %v %v, want a decline", a, err)
	}
	c := r.bot.chat(owner)
	c.begin(owner, func() {})
	defer c.end()
	got := make(chan mcp.Answer, 1)
	go func() {
		a, _ := ask(context.Background(), q)
		got <- a
	}()
	var kb map[string]string
	waitFor(t, "the buttons", func() bool { kb = buttons(api, "Pro"); return kb != nil })
	r.handled(t, api.press(43, kb["Free"])) // not the turn's owner: no answer
	api.press(owner, kb["Pro"])
	if a := <-got; a.Action != mcp.Accept || a.Content["plan"] != "pro" {
		t.Errorf("the owner's press gave %+v", a)
	}
}
