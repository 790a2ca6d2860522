package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

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
