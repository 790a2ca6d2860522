package agent

import (
	"time"

	"pincer/tools"
)

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
// show them differently and the agent can treat them specially.
const (
	KindSummary     = "summary"     // a system message holding the compressed history
	KindLimit       = "limit"       // the user message that asks for a wrap-up at the iteration limit
	KindInterrupted = "interrupted" // a partial answer cut short by the person
	KindTask        = "task"        // a user message sent by the scheduler
	KindHook        = "hook"        // a user message a Stop hook sent to make the model go on
)

// Message is one message of the conversation as the agent keeps it.
type Message struct {
	// Seq is the message's place in its session once recorded (from 1);
	// 0 for a message that was not recorded.
	Seq        uint64     `json:"seq,omitempty"`
	Role       Role       `json:"role"`
	Kind       string     `json:"kind,omitempty"`
	Content    string     `json:"content"`
	Reasoning  string     `json:"reasoning,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	ToolName   string     `json:"tool_name,omitempty"`
	IsError    bool       `json:"is_error,omitempty"`
	Time       time.Time  `json:"time"`
	Usage      *Usage     `json:"usage,omitempty"`
	// Touched lists the files a tool result read or changed, kept so a
	// resumed session marks them in the tree again.
	Touched []tools.Touch `json:"touched,omitempty"`
	// Steps are the tool calls of the sub-agent a task call ran, kept with
	// its result so a resumed session shows them; the result's Usage is
	// then the tokens that sub-agent used.
	Steps []SubStep `json:"steps,omitempty"`
}

// ToolCall is one complete call the model asked for. Arguments is the JSON
// text the model sent.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	// Oversize is set, to the bytes the model sent, when the arguments
	// passed the limit: they were neither kept nor parsed (Arguments is
	// "{}"), and the call is refused.
	Oversize int `json:"oversize,omitempty"`
}
