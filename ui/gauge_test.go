package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/agent"
	"pincer/session"
	"pincer/themes"
)

// gauge reads the context gauge's percentage off the status line, or -1
// when there is none.
func gauge(a *App) int {
	status := ansi.Strip(a.statusLine())
	i := strings.Index(status, "ctx ")
	if i < 0 {
		return -1
	}
	pct := -1
	fmt.Sscanf(status[i+4:], "%d%%", &pct)
	return pct
}

// TestGaugeShownBeforeTheFirstRequest: a resumed session, and a session
// reloaded after /undo, /redo or /rewind (which reload it the same way),
// show the context gauge at once, estimated from the history, rather than
// nothing until the next request; a session with no history shows none.
func TestGaugeShownBeforeTheFirstRequest(t *testing.T) {
	var hist []agent.Message
	for i := range 6 {
		hist = append(hist, agent.Message{Role: agent.RoleUser, Content: fmt.Sprintf("question %d %s", i, strings.Repeat("words ", 300))},
			agent.Message{Role: agent.RoleAssistant, Content: strings.Repeat("answer ", 300)})
	}
	a := newTestApp(t, 120, 30)
	a.agent.Restore(hist, "", 0)
	want := a.agent.NextRequestTokens() * 100 / a.agent.ContextWindow()
	if want < 5 {
		t.Fatalf("the test history is too small to show: %d%%", want)
	}

	resumed := New(Options{Agent: a.agent, Root: a.opts.Root, Theme: themes.Dark(), Model: "m", Session: "s", History: hist})
	resumed.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if got := gauge(resumed); got != want {
		t.Errorf("a resumed session's gauge reads %d%%, want %d%% (%q)", got, want, ansi.Strip(resumed.statusLine()))
	}

	a.Update(sessionOpenedMsg{sess: session.Session{ID: "01ABC", Name: "s"}, history: hist[:8], after: "Rewound to #5."})
	if got, want := gauge(a), a.agent.NextRequestTokens()*100/a.agent.ContextWindow(); got != want || got <= 0 {
		t.Errorf("after a rewind the gauge reads %d%%, want %d%% (%q)", got, want, ansi.Strip(a.statusLine()))
	}

	a.Update(sessionOpenedMsg{sess: session.Session{ID: "01ABD", Name: "new"}})
	if got := gauge(a); got != -1 {
		t.Errorf("an empty session shows a gauge of %d%%", got)
	}
}
