package session

import (
	"time"

	"pincer/chat"
)

// Session describes one conversation: where it ran, with which model, and
// what it has cost so far. The messages themselves are read with
// Store.Messages.
type Session struct {
	// ID is a ULID: unique and sortable by creation time.
	ID string `json:"id"`
	// Name is optional and unique across the store when set.
	Name string `json:"name,omitempty"`
	// Dir is the working directory the session belongs to.
	Dir     string    `json:"dir"`
	Model   string    `json:"model,omitempty"`
	Created time.Time `json:"created"`
	// Updated is the time of the last message or summary.
	Updated time.Time `json:"updated"`
	// Usage is the sum of the usage of every message appended.
	Usage chat.Usage `json:"usage"`
	// Summary is the compressed history of messages 1..SummaryThrough. List
	// leaves it empty to stay fast; Get, Latest and Fork fill it in.
	Summary string `json:"summary,omitempty"`
	// SummaryThrough is the sequence number of the last message the summary
	// covers; 0 means there is no summary.
	SummaryThrough uint64 `json:"summary_through,omitempty"`
	// Title is the first line of the first user message, shortened, for
	// lists and pickers.
	Title        string `json:"title,omitempty"`
	MessageCount int    `json:"message_count"`
	// ForkOf is the id of the session this one was forked from, if any.
	ForkOf string `json:"fork_of,omitempty"`
	// Headless marks the session of a `pincer run` nobody asked to keep by
	// name: it is kept (so --continue picks it up) but List leaves it out,
	// so one-off runs do not bury the sessions a person works in. Naming,
	// forking or opening it on the screen clears the mark.
	Headless bool `json:"headless,omitempty"`
	// Private marks a session that is never indexed, so neither search nor
	// automatic recall ever brings its messages into another conversation.
	Private bool `json:"private,omitempty"`
	// Forgotten marks a session taken out of search and recall without
	// being deleted (pincer memory forget); its messages are not indexed
	// until it is remembered again.
	Forgotten bool `json:"forgotten,omitempty"`
}

// Label is how a person names the session: its name, or the start of its
// id (twelve characters: when it was created and a little of its random
// part, enough to tell sessions apart and accepted by Get as a prefix).
func (s Session) Label() string {
	if s.Name != "" {
		return s.Name
	}
	if len(s.ID) > 12 {
		return s.ID[:12]
	}
	return s.ID
}
