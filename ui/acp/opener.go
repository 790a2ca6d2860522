package acp

import (
	"context"
	"time"

	"pincer/agent"
	"pincer/rewind"
	"pincer/safety"
	"pincer/tools"
)

// Opener makes the conversations an editor asks for; the composition root
// wires it from the configuration of each session's directory.
type Opener interface {
	// Open starts a new session in r.Dir (r.Ref empty) or opens the
	// session r.Ref names (its id or name). An unknown Ref is an error
	// that wraps session.ErrNotFound.
	Open(ctx context.Context, r OpenRequest) (*Conversation, error)
	// Sessions lists the sessions an editor may open: those of dir, or
	// all when dir is "", newest first.
	Sessions(dir string) ([]SessionSummary, error)
}

// OpenRequest is what the server gives every conversation it opens.
type OpenRequest struct {
	Dir string // absolute
	Ref string // the session to open; "" for a new one
	// Approver asks the editor; the agent must ask it everything.
	Approver agent.Approver
	// Buffers, when the editor offers them, are for the file tools
	// (tools.Options.Buffers); nil otherwise.
	Buffers tools.Buffers
}

// SessionSummary is one session for session/list.
type SessionSummary struct {
	ID      string
	Dir     string
	Title   string // its name, or the start of its first prompt
	Updated time.Time
}

// Agent is what the server needs of agent.Agent.
type Agent interface {
	RunTurn(ctx context.Context, user agent.Message, o agent.TurnOptions, sink func(agent.Event)) (agent.Result, error)
	RunShell(ctx context.Context, command string, sink func(agent.Event)) (string, error)
	Compact(ctx context.Context, focus string, sink func(agent.Event)) error
	History() []agent.Message
	SetMode(agent.Mode)
	Mode() agent.Mode
	SetApprovals(safety.ApprovalMode)
	Approvals() safety.ApprovalMode
}

// Conversation is one open session: its agent and what the editor may do
// with it besides prompting.
type Conversation struct {
	Agent Agent
	ID    string // pincer's session id
	Label string // its name, or the start of its id
	Root  string // the project directory the agent works in
	// Commands are the person's own slash commands.
	Commands []Command
	// Rewinder takes turns back for /undo and /redo; nil without the
	// session store.
	Rewinder *rewind.Rewinder
	// Reload reads the session back into Agent after a rewind.
	Reload func() error
	// Explain turns a model error into advice for the person; nil keeps
	// errors as they are.
	Explain func(error) error
	// Notes are what the person should know about the session (it was
	// started elsewhere, turns are not recorded here), shown once it opens.
	Notes []string
	// Close, when set, is called when the editor is done with the session
	// (the connection ends): snapshots are awaited, servers stopped.
	Close func()
}

// Command is one of the person's own slash commands.
type Command struct {
	Name        string
	Description string
	Hint        string // what its arguments are, "" for none
	Model       string // the model it asks for, "" for the session's
	// Render is the prompt it makes with args; run runs its "!" lines
	// through the agent's approvals.
	Render func(ctx context.Context, args string, run func(ctx context.Context, command string) (string, error)) (string, error)
}
