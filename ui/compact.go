package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// compact summarises older messages now, like an automatic compression.
func (a *App) compact(focus string) tea.Cmd {
	if a.busy {
		a.transcript.AddError("/compact is not possible while the agent works; wait for it or press Esc first.")
		return nil
	}
	a.transcript.AddNotice("Compressing older messages…")
	return a.startWork(func(ctx context.Context) tea.Msg {
		return compactDoneMsg{err: a.agent.Compact(ctx, focus, a.bridge.event)}
	})
}
