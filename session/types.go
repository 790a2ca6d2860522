package session

import "time"

// The roles a message may have, in the terms of the chat API.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// KindSummary marks a message that holds a compressed history; exports show
// its text as prose rather than as a system prompt.
const KindSummary = "summary"

// KindDamaged marks the stand-in for a stored message whose record cannot
// be read: a system message saying so, never sent to the model.
const KindDamaged = "damaged"

// Usage counts the tokens a provider reported. On a Message it is what one
// request cost; on a Session it is the sum over the session.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	ReasoningTokens  int `json:"reasoning_tokens,omitempty"`
	CachedTokens     int `json:"cached_tokens,omitempty"`
}

// add sums u and v field by field.
func (u Usage) add(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		ReasoningTokens:  u.ReasoningTokens + v.ReasoningTokens,
		CachedTokens:     u.CachedTokens + v.CachedTokens,
	}
}

// ToolCall is one call the model asked for. Arguments is the JSON text the
// model sent, kept as text so it round-trips exactly.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Message is one finished message of a conversation, stored as soon as it is
// complete so that a crash loses at most the message in flight.
type Message struct {
	// Seq is the message's place in its session, starting at 1; Append
	// assigns it.
	Seq uint64 `json:"seq"`
	// Role is RoleSystem, RoleUser, RoleAssistant or RoleTool.
	Role string `json:"role"`
	// Kind optionally marks messages a front end shows differently, such as
	// "summary", "notice" or "task"; empty for plain conversation.
	Kind       string     `json:"kind,omitempty"`
	Content    string     `json:"content"`
	Reasoning  string     `json:"reasoning,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	ToolName   string     `json:"tool_name,omitempty"`
	IsError    bool       `json:"is_error,omitempty"`
	// Time is when the message was finished; Append fills it in when zero.
	Time  time.Time `json:"time"`
	Usage *Usage    `json:"usage,omitempty"`
	// Touched lists the files a tool result read or changed, so a resumed
	// session can mark them again.
	Touched []Touch `json:"touched,omitempty"`
	// Steps are the tool calls of the sub-agent a task call ran, kept
	// with its result so a resumed session can show them.
	Steps []Step `json:"steps,omitempty"`
	// Rewound marks a message a rewind took out of the conversation: it is
	// kept for the history but no longer sent to the model. It is not
	// stored with the message; reading derives it from the session's
	// rewinds, so a Redo clears it.
	Rewound bool `json:"rewound,omitempty"`
}

// Touch is one file a tool call read or changed: Kind is "read",
// "changed" or "created".
type Touch struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// Step is one tool call of a sub-agent: the tool, the call's summary
// once it ran, its arguments (cut short) and whether it failed.
type Step struct {
	Tool    string `json:"tool"`
	Summary string `json:"summary,omitempty"`
	Args    string `json:"args,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
}

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
	Usage Usage `json:"usage"`
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
