package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"pincer/tools/mcp"
)

// openElicit shows a server's question on a w×h screen, past the time a
// new dialog ignores keys.
func openElicit(t *testing.T, w, h int, q mcp.Elicitation, open func(string) error) (*App, elicitQuestion) {
	t.Helper()
	a := newTestApp(t, w, h)
	a.opts.OpenURL = open
	qq := elicitQuestion{q: q, reply: make(chan mcp.Answer, 1)}
	a.Update(eventsMsg{qq})
	d, ok := a.topDialog().(*elicitDialog)
	if !ok {
		t.Fatalf("the question opened %T", a.topDialog())
	}
	d.opened = time.Now().Add(-time.Second)
	return a, qq
}

func serverForm() mcp.Elicitation {
	return mcp.Elicitation{Server: "corp\x1b[2J", Message: "Pick a \x1b]52;c;eA==\x07plan", Fields: []mcp.Field{
		{Name: "name", Title: "Your name", Kind: mcp.KindString, Required: true},
		{Name: "plan", Title: "Plan", Kind: mcp.KindChoice, Options: []string{"free", "pro"}, OptionTitles: []string{"Free", "Pro\u202e"}, Default: "free"},
		{Name: "seats", Title: "Seats", Kind: mcp.KindInteger, Default: 2.0},
	}}
}

func TestElicitDialogFillsAndSendsTheForm(t *testing.T) {
	tests := []struct {
		name    string
		keys    func(a *App)
		action  mcp.Action
		content string
	}{
		{"filled in", func(a *App) {
			typeText(a, "Ada")
			press(a, "enter")
			press(a, "backspace", "backspace", "backspace", "backspace")
			typeText(a, "2")
			press(a, "enter", "enter")
		}, mcp.Accept, `{"name":"Ada","plan":"pro","seats":2}`},
		{"required field stops the send", func(a *App) {
			press(a, "enter", "enter", "enter") // on the last field: send, refused, back to the name
			typeText(a, "Bo")
			press(a, "down", "down", "enter")
		}, mcp.Accept, `{"name":"Bo","plan":"free","seats":2}`},
		{"esc declines", func(a *App) { typeText(a, "x"); press(a, "esc") }, mcp.Decline, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, q := openElicit(t, 100, 30, serverForm(), nil)
			tt.keys(a)
			select {
			case got := <-q.reply:
				content, _ := json.Marshal(got.Content)
				if got.Action != tt.action || string(content) != tt.content {
					t.Errorf("got %s %s, want %s %s", got.Action, content, tt.action, tt.content)
				}
			default:
				t.Fatalf("no answer; the screen:\n%s", screen(a))
			}
			if a.topDialog() != nil {
				t.Error("the dialog is still open")
			}
		})
	}
}

func TestElicitDialogNamesTheServerAndSanitises(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {60, 14}, {40, 10}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			a, _ := openElicit(t, size[0], size[1], serverForm(), nil)
			checkShape(t, a)
			got := screen(a)
			raw := a.render()
			if strings.Contains(raw, "\x1b]52") || strings.Contains(raw, "\x1b[2J") || strings.Contains(raw, "\u202e") {
				t.Errorf("the server's escapes reached the terminal")
			}
			if !strings.Contains(got, "esc") {
				t.Errorf("the keys are not on screen:\n%s", got)
			}
			if size[0] >= 60 && !strings.Contains(got, "The MCP server corp␛[2J asks") {
				t.Errorf("the server is not named in the title:\n%s", got)
			}
		})
	}
}

func TestElicitDialogOpensAPageOnlyWhenAsked(t *testing.T) {
	q := mcp.Elicitation{Server: "corp", Message: "Connect your account", URL: "https://auth.example/connect"}
	var opened []string
	open := func(p string) error { opened = append(opened, p); return nil }

	a, qq := openElicit(t, 100, 30, q, open)
	if !strings.Contains(screen(a), "https://auth.example/connect") || len(opened) != 0 {
		t.Fatalf("the page must be shown, not opened, until asked:\n%s", screen(a))
	}
	press(a, "o")
	if got := <-qq.reply; got.Action != mcp.Accept || len(opened) != 1 {
		t.Errorf("o: %s, opened %v", got.Action, opened)
	}

	a, qq = openElicit(t, 100, 30, q, open)
	press(a, "n")
	if got := <-qq.reply; got.Action != mcp.Decline || len(opened) != 1 {
		t.Errorf("n: %s, opened %v", got.Action, opened)
	}

	a, qq = openElicit(t, 100, 30, q, func(string) error { return errors.New("no browser") })
	press(a, "o")
	if !strings.Contains(screen(a), "open the page yourself") {
		t.Fatalf("a failed open must say so:\n%s", screen(a))
	}
	press(a, "y")
	if got := <-qq.reply; got.Action != mcp.Accept {
		t.Errorf("y after opening it by hand: %s", got.Action)
	}
}
