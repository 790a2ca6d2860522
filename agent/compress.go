package agent

import "context"

// Budget configures context compression.
type Budget struct {
	ContextWindow int     // tokens the model accepts; 0 turns compression off
	CompressAt    float64 // fraction of the window that triggers compression
	KeepRecent    int     // messages kept verbatim
}

// summaryState is the summary of older messages: the text and how many
// messages of the history it covers.
type summaryState struct {
	text    string
	through int
}

const summaryPreamble = "Summary of the earlier part of this conversation (older messages were compressed):\n\n"

// compressIfNeeded compresses older messages when the next request would
// pass the budget.
func (a *Agent) compressIfNeeded(ctx context.Context, sink func(Event)) error {
	return nil
}
