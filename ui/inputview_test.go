package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"pincer/agent"
	"pincer/themes"
)

// TestEmptyInputViewFollowsChanges: the kept drawing of the empty input
// box is drawn again whenever something it shows changes, so a frame
// never shows a stale input.
func TestEmptyInputViewFollowsChanges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(a *App)
	}{
		{"nothing", func(*App) {}},
		{"width", func(a *App) { a.Update(tea.WindowSizeMsg{Width: 90, Height: 30}) }},
		{"focus", func(a *App) { a.input.Blur() }},
		{"placeholder", func(a *App) { a.input.Placeholder = "another placeholder" }},
		{"theme", func(a *App) { a.applyTheme(themes.Light()) }},
		{"text typed", func(a *App) { a.input.SetValue("hello") }},
		{"text typed and cleared", func(a *App) { a.input.SetValue("hello"); a.inputView(); a.input.Reset() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 120, 30)
			a.inputView() // kept
			tc.change(a)
			if got, want := a.inputView(), a.input.View(); got != want {
				t.Errorf("the input box shows\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// TestRuleFollowsChanges: the kept line above the input is drawn again for
// a new width or theme.
func TestRuleFollowsChanges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(a *App)
	}{
		{"nothing", func(*App) {}},
		{"width", func(a *App) { a.Update(tea.WindowSizeMsg{Width: 90, Height: 30}) }},
		{"theme", func(a *App) { a.applyTheme(themes.Light()) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 120, 30)
			a.ruleView() // kept
			tc.change(a)
			if got, want := a.ruleView(), a.styles.Faint.Render(strings.Repeat("─", a.width)); got != want {
				t.Errorf("the rule is\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// TestStatusLineFollowsChanges: the kept status line is drawn again
// whenever something it shows changes, so a frame never shows a stale
// spinner, clock, mode or count.
func TestStatusLineFollowsChanges(t *testing.T) {
	for _, tc := range []struct {
		name    string
		change  func(a *App)
		differs bool // the line must look different afterwards
	}{
		{"nothing", func(*App) {}, false},
		{"width", func(a *App) { a.Update(tea.WindowSizeMsg{Width: 90, Height: 30}) }, true},
		{"theme", func(a *App) { a.applyTheme(themes.Light()) }, true},
		{"busy", func(a *App) { a.busy = true }, true},
		{"spinner", func(a *App) { a.busy = true; a.statusLine(); a.spin++ }, true},
		{"clock", func(a *App) { a.busy = true; a.statusLine(); a.now = a.turnStart.Add(61 * time.Second) }, true},
		{"streaming", func(a *App) { a.busy = true; a.statusLine(); a.state = stateStreaming }, true},
		{"notice", func(a *App) { a.notice = "copied" }, true},
		{"mode", func(a *App) { a.setMode(agent.ModePlan, false) }, true},
		{"session", func(a *App) { a.opts.Session = "renamed" }, true},
		{"tokens", func(a *App) { a.usage.PromptTokens = 12345 }, true},
		{"errors", func(a *App) { a.diagSeen, a.diagErrors = true, 3 }, true},
		{"queued", func(a *App) { a.queue = append(a.queue, queued{}) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 120, 30)
			before := a.statusLine() // kept
			tc.change(a)
			got := a.statusLine()
			a.status = statusCache{}
			if want := a.statusLine(); got != want {
				t.Errorf("the status line shows\n%q\nwant\n%q", got, want)
			}
			if tc.differs && got == before {
				t.Errorf("the status line did not change: %q", got)
			}
		})
	}
}
