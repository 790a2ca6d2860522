// Package chat holds the conversation's types: one Message for what the
// agent sends to the model and gets back, what the session store keeps
// and what the front ends show. It imports nothing of pincer, so the
// agent, the model client, the store and the tools share it without
// depending on each other. (The store keeps messages on disk in a record
// format of its own; see session.)
package chat

import "time"

// Role is who a message is from, in the terms of the chat API.
type Role string

// The roles of the chat completions API.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Kinds mark messages that are not plain conversation, so a front end can
// show them differently and the agent can treat them specially. A plain
// message has none ("").
const (
	KindSummary     = "summary"     // a system message holding the compressed history
	KindLimit       = "limit"       // the user message that asks for a wrap-up at the iteration limit
	KindInterrupted = "interrupted" // a partial answer cut short by the person
	KindTask        = "task"        // a user message sent by the scheduler
	KindHook        = "hook"        // a user message a Stop hook sent to make the model go on
	// KindDamaged marks the stand-in for a stored message whose record
	// cannot be read: a system message saying so, never sent to the model.
	KindDamaged = "damaged"
)

// Message is one finished message of a conversation.
type Message struct {
	// Seq is the message's place in its session once recorded (from 1);
	// 0 for a message that was not recorded.
	Seq  uint64 `json:"seq"`
	Role Role   `json:"role"`
	// Kind is one of the kinds above, or "" for plain conversation.
	Kind      string `json:"kind,omitempty"`
	Content   string `json:"content"`
	Reasoning string `json:"reasoning,omitempty"`
	// ReasoningField names the field the server streamed Reasoning in
	// ("reasoning" for OpenRouter); it is sent back in the same one, since
	// a server may ignore reasoning in a field it does not use. "" means
	// reasoning_content.
	ReasoningField string     `json:"reasoning_field,omitempty"`
	ToolCalls      []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID     string     `json:"tool_call_id,omitempty"`
	ToolName       string     `json:"tool_name,omitempty"`
	IsError        bool       `json:"is_error,omitempty"`
	// Time is when the message was finished.
	Time  time.Time `json:"time"`
	Usage *Usage    `json:"usage,omitempty"`
	// Touched lists the files a tool result read or changed, kept so a
	// resumed session marks them in the tree again.
	Touched []Touch `json:"touched,omitempty"`
	// Steps are the tool calls of the sub-agent a task call ran, kept with
	// its result so a resumed session shows them; the result's Usage is
	// then the tokens that sub-agent used.
	Steps []Step `json:"steps,omitempty"`
	// Rewound marks a stored message a rewind took out of the
	// conversation: it is kept for the history but no longer sent to the
	// model. The store derives it when reading; it is not stored.
	Rewound bool `json:"rewound,omitempty"`
}

// ToolCall is one complete call the model asked for. Arguments is the JSON
// text the model sent, kept as text so it round-trips exactly.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	// Oversize is set, to the bytes the model sent, when the arguments
	// passed the limit: they were neither kept nor parsed (Arguments is
	// "{}"), and the call is refused. It is never stored.
	Oversize int `json:"oversize,omitempty"`
	// FromText is set when the model wrote the call as text in its answer
	// (its server did not parse it) and pincer recovered it; the call is
	// judged and run like any other, and its card says where it came from.
	FromText bool `json:"from_text,omitempty"`
	// Unreadable is set when the model's answer was only a tool-call block
	// written as text that could not be read as calls (bad JSON, no such
	// tool, arguments that do not fit): it says why, in a sentence for the
	// model. Nothing is run; the call stands in the history so the model
	// is told and can send it again. It is never stored.
	Unreadable string `json:"unreadable,omitempty"`
}

// Usage is the token accounting a server reported: on a message, what one
// request cost; summed, what a turn or a session cost.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	// TotalTokens is the server's own total. The store does not keep it
	// (a usage read back has prompt plus completion), and exports leave it
	// out, so it is not part of the JSON form.
	TotalTokens     int `json:"-"`
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
	CachedTokens    int `json:"cached_tokens,omitempty"`
	// Estimated marks counts pincer estimated (characters over four)
	// because the server sent none; a sum with any estimated part is
	// estimated.
	Estimated bool `json:"estimated,omitempty"`
	// Cost is what the tokens cost in dollars, where the model's price
	// is known (0 otherwise).
	Cost float64 `json:"cost,omitempty"`
}

// Plus sums u and v field by field.
func (u Usage) Plus(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens:      u.TotalTokens + v.TotalTokens,
		ReasoningTokens:  u.ReasoningTokens + v.ReasoningTokens,
		CachedTokens:     u.CachedTokens + v.CachedTokens,
		Estimated:        u.Estimated || v.Estimated,
		Cost:             u.Cost + v.Cost,
	}
}

// Touch is one file a tool call read or changed.
type Touch struct {
	// Path is relative to the project root with forward slashes; absolute
	// when outside it.
	Path string    `json:"path"`
	Kind TouchKind `json:"kind"`
}

// TouchKind says how a call touched a file.
type TouchKind int

// The ways a file can be touched.
const (
	TouchRead TouchKind = iota + 1
	TouchChanged
	TouchCreated
)

// String names the kind, as logs, exports and the store write it.
func (k TouchKind) String() string {
	switch k {
	case TouchRead:
		return "read"
	case TouchChanged:
		return "changed"
	case TouchCreated:
		return "created"
	}
	return "unknown"
}

// ParseTouchKind is the inverse of TouchKind.String; 0 for a name it does
// not know, so a stored record from a newer pincer is skipped, not misread.
func ParseTouchKind(s string) TouchKind {
	for _, k := range []TouchKind{TouchRead, TouchChanged, TouchCreated} {
		if k.String() == s {
			return k
		}
	}
	return 0
}

// MarshalText writes the kind by its name.
func (k TouchKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name; one it does not know reads as 0.
func (k *TouchKind) UnmarshalText(b []byte) error {
	*k = ParseTouchKind(string(b))
	return nil
}

// Step is one tool call of a sub-agent, as the task's card shows it and as
// it is kept with the task's result: the tool, the call's summary once it
// ran, its arguments (cut short) and whether it failed.
type Step struct {
	Tool    string `json:"tool"`
	Summary string `json:"summary,omitempty"`
	Args    string `json:"args,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
}
