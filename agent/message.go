package agent

import "pincer/chat"

// The conversation's types are chat's, one for the agent, the model
// client, the store and the front ends; the agent names them for its
// callers, which speak of an agent.Message.
type (
	// Role is who a message is from (chat.Role).
	Role = chat.Role
	// Message is one message of the conversation (chat.Message).
	Message = chat.Message
	// ToolCall is one complete call the model asked for (chat.ToolCall).
	ToolCall = chat.ToolCall
	// SubStep is one tool call a sub-agent made (chat.Step), as the
	// task's card shows it and as it is kept with the task's result, so a
	// resumed session shows the steps again (the sub-agent's messages
	// themselves are not kept). Its arguments are cut to maxStepArgs
	// bytes.
	SubStep = chat.Step
)

// The roles of the chat completions API.
const (
	RoleSystem    = chat.RoleSystem
	RoleUser      = chat.RoleUser
	RoleAssistant = chat.RoleAssistant
	RoleTool      = chat.RoleTool
)

// The kinds of messages that are not plain conversation (see chat).
const (
	KindSummary     = chat.KindSummary
	KindLimit       = chat.KindLimit
	KindInterrupted = chat.KindInterrupted
	KindTask        = chat.KindTask
	KindHook        = chat.KindHook
)
