package ui

import tea "charm.land/bubbletea/v2"

// NoticeCommand is a slash command that shows what text returns as a
// notice in the transcript, such as /mcp's list of servers. text runs on
// the event loop, so it must answer at once; what it returns is shown as
// it is, so foreign parts must already be sanitised.
func NoticeCommand(name, help string, text func() string) Command {
	return Command{Name: name, Help: help, Run: func(a *App, _ string) tea.Cmd {
		a.transcript.AddNotice(text())
		return nil
	}}
}

// alertMsg is one notice from Options.Alerts.
type alertMsg string

// waitAlert waits for the next notice on ch; a closed channel ends the
// waiting.
func waitAlert(ch <-chan string) tea.Cmd {
	return func() tea.Msg {
		text, ok := <-ch
		if !ok {
			return nil
		}
		return alertMsg(text)
	}
}
