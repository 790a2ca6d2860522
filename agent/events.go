package agent

import (
	"pincer/agent/llm"
	"pincer/chat"
	"pincer/tools/lsp"
	"pincer/tools/todo"
)

// Event is something the agent reports while it works. The UI turns events
// into screen updates and the headless runner into output lines; both drain
// them from one sink. The types declared in this file are the whole set
// (a front end ignores any other value); a new event is declared here, so
// the front ends' tests find it.
type Event = any

// The model's stream, as the model client reports it (see llm.Event).
type (
	TextDelta      = llm.TextDelta
	ReasoningDelta = llm.ReasoningDelta
	ToolCallDelta  = llm.ToolCallDelta
	Retrying       = llm.Retrying
	Waiting        = llm.Waiting
	// Usage is the token accounting the server reported for one request
	// (chat.Usage). It is both an event and the value stored with
	// messages.
	Usage = chat.Usage
)

// AssistantMessage is a finished assistant message: the answer, the
// reasoning and the complete tool calls, as stored in the history, and the
// finish reason the server gave.
type AssistantMessage struct {
	Message      Message
	FinishReason string
	// Calls are pincer's keys of Message.ToolCalls, in the same order (see
	// ToolCallDelta.Call).
	Calls []string
}

// ToolStarted says a tool call passed its checks and now runs.
type ToolStarted struct {
	Call    string // pincer's key of the call (see ToolCallDelta.Call)
	ID      string
	Name    string
	Summary string
}

// ToolResult is the outcome of one tool call as the model will see it. A
// call that was refused, or could not run, gets one without a ToolStarted
// before it.
type ToolResult struct {
	Call string // pincer's key of the call (see ToolCallDelta.Call)
	ID   string
	Name string
	// Summary says what the call does, as its ToolStarted did (or would
	// have): for front ends that show a refused call like a started one.
	Summary string
	Content string
	IsError bool
	Touched []chat.Touch
}

// Notice is a line for the person that is not part of the conversation: the
// iteration limit was reached, a rule blocked a command, and so on.
type Notice struct{ Text string }

// Compressed says older messages were replaced by a summary.
type Compressed struct {
	Summary  string
	Messages int // how many messages the summary replaced
	Before   int // estimated tokens before
	After    int // estimated tokens after
}

// WindowKnown says which context window the agent budgets for and where
// it came from ("llama.cpp /props", "Ollama /api/ps", "preset openai",
// "context_window", …): sent when it is first learned from the server and
// whenever it changes.
type WindowKnown struct {
	Tokens int
	Source string
}

// Recalled says which notes auto recall added before the prompt, and Text
// is exactly the system message the model was given with them. It comes
// before the turn's first request; it is not stored, and later turns do
// not repeat it.
type Recalled struct {
	Notes []RecalledNote
	Text  string
}

// SubEvent is an event of a sub-agent that a task call started, passed
// on to the front end without mixing into the main conversation: its
// text, tool calls and token usage are the sub-agent's, not the main
// agent's. Call and ID name the task call (as ToolStarted does); Agent is
// the name of the agent definition, or "" for the default one.
type SubEvent struct {
	Call  string // pincer's key of the task call (see ToolCallDelta.Call)
	ID    string // the server's id of the task call
	Agent string
	Event Event
}

// TodoList says the task list changed: a todo_write call succeeded. Items
// is the whole list now in force (empty when the model cleared it).
type TodoList struct{ Items []todo.Item }

// Checked reports one run of the check.
type Checked struct {
	Command string
	Round   int // from 1
	Rounds  int // the most rounds
	Passed  bool
	// Output is what the command printed, with its exit code (capped as
	// run_command's).
	Output string
}

func (Checked) isEvent() {}

// Diagnosed says what the language servers reported after a call changed
// files; the same text ends the call's result.
type Diagnosed struct {
	Call   string // pincer's key of the call (see ToolCallDelta.Call)
	ID     string
	Report lsp.Report
}

func (Diagnosed) isEvent() {}
