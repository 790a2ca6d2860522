package ui

// estimateContext sets the context gauge from the restored history, for
// the time before a request reports what the server counted: after a
// resume, /undo, /redo or /rewind the gauge shows what the next request
// will carry instead of vanishing.
func (a *App) estimateContext() {
	if a.agent != nil {
		a.lastContext = a.agent.NextRequestTokens()
	}
}
