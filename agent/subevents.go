package agent

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

// SubStep is one tool call a sub-agent made, as the task's card shows it
// and as it is kept with the task's result, so a resumed session shows
// the steps again (the sub-agent's messages themselves are not kept).
type SubStep struct {
	Tool    string `json:"tool"`
	Summary string `json:"summary,omitempty"` // the call's summary once it ran
	Args    string `json:"args,omitempty"`    // the arguments, cut to maxStepArgs bytes
	IsError bool   `json:"is_error,omitempty"`
}

func (SubEvent) isEvent() {}
