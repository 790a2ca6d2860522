package agent

import (
	"context"
	"slices"

	"pincer/internal/safetext"
	"pincer/safety"
	"pincer/tools"
)

// Cancelled is the tool result the model receives when the person refuses a
// tool call, at any step. The person's comment, when they gave one, follows
// on its own lines.
const Cancelled = "User cancelled the operation"

// ApprovalKind says what a person is asked to approve.
type ApprovalKind string

// The kinds of approval.
const (
	ApproveCommand ApprovalKind = "command" // a shell command
	ApproveEdit    ApprovalKind = "edit"    // a file change, with its diff
	ApprovePath    ApprovalKind = "path"    // a file access outside the usual bounds
	ApproveAction  ApprovalKind = "action"  // another tool that changes something (scheduling a task)
	ApproveWeb     ApprovalKind = "web"     // fetching a URL (read_web)
	// ApproveUnsandboxed asks to run again, outside the sandbox, a command
	// the sandbox blocked; Reasons say first what was blocked.
	ApproveUnsandboxed ApprovalKind = "unsandboxed"
)

// Approval is one question to the person. A dangerous action is asked
// twice: Step 1, then Step 2, and a front end must make the second answer
// impossible to give by repeating the first one's keystroke.
type Approval struct {
	Kind    ApprovalKind
	Step    int // 1, or 2 for the second confirmation of a dangerous action
	CallID  string
	Tool    string
	Summary string        // e.g. "run_command go test ./..."
	Command string        // for commands
	Dir     string        // where a command runs
	Paths   []string      // files a call reads or writes
	Change  *tools.Change // for edits: the planned change
	URL     string        // for fetches: the whole URL
	Tier    safety.Tier
	Reasons []string
	// SuggestedRule is the allow rule "always allow" would add for a
	// command or a fetch's domain, or "" when none would be safe to
	// suggest.
	SuggestedRule string
	// HookAsked says a PreToolUse hook asked for this approval: no session
	// mode (accept edits) may answer it unasked.
	HookAsked bool
	// Secret says the call reads a secret or pincer's own files, which the
	// jail hides from every command: a blanket yes (pincer run --yes) does
	// not answer it.
	Secret bool
	// PathAsked, for an edit, says its path needs a yes of its own, apart
	// from the review of its diff: it lies outside the project, looks like
	// a secret, or is inside .git/. No session mode (accept edits) answers
	// it unasked: accepting edits means this project's files.
	PathAsked bool
	// Agent names the sub-agent that asks, and its task ("sub-agent
	// explorer (find the loader)"); "" when the main agent asks.
	Agent string
	// MCP, for a call of an MCP server's tool, names the server and the
	// tool apart from the arguments, so a front end can show the names on
	// one line and the arguments whole, first in what scrolls.
	MCP *tools.MCPUse
	// Schedule marks the creation of a scheduled task: it grants runs
	// later, with nobody watching. A front end answers it only with a
	// yes given for scheduling (pincer run --allow-schedule), never with a
	// blanket one (--yes).
	Schedule bool
}

// AnsweredUnasked reports whether a session in mode m answers the question
// without asking the person: only the accept-edits mode does, for an edit
// of the project's own files; never for the dangerous tier, a path that
// needs a yes of its own (outside the project, a secret, .git/) or a
// hook's question. Every front end asks this one rule.
func (a Approval) AnsweredUnasked(m Mode) bool {
	if a.Tier >= safety.Dangerous || a.HookAsked || a.PathAsked || a.Kind != ApproveEdit {
		return false
	}
	return m == ModeAcceptEdits
}

// Decision is the person's answer.
type Decision struct {
	Allow   bool
	Comment string // passed to the model with a refusal, or with an edit
	// Content, for an edit, is what to write when the person accepted only
	// part of the change; nil means the change as planned.
	Content []byte
	// Note, for an edit, tells the model what the person changed in review,
	// e.g. which hunks they rejected.
	Note string
	// AllowRule, when set on an approved command, is an allow rule to add
	// for the rest of the session.
	AllowRule string
}

// Approver asks a person. The TUI implements it with dialogs; the headless
// runner from its flags. An error (the context ended, the screen closed)
// counts as a refusal.
type Approver interface {
	Approve(ctx context.Context, a Approval) (Decision, error)
}

// ApproverFunc adapts a function to the Approver interface.
type ApproverFunc func(ctx context.Context, a Approval) (Decision, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, a Approval) (Decision, error) { return f(ctx, a) }

// ask runs the approval protocol: one question for the confirm tier, two
// separate questions for the dangerous tier. Any refusal or error is a
// refusal. The first step's answer (content, note, rule) is the one kept.
func ask(ctx context.Context, ap Approver, a Approval) Decision {
	if ap == nil {
		return Decision{}
	}
	// A look-alike name (gіt with a Cyrillic і) runs another program than
	// the one it is drawn as: every front end says so, by code point.
	for _, dg := range safetext.Disguised(a.Command) {
		a.Reasons = append(slices.Clip(a.Reasons), dg.Note())
	}
	a.Step = 1
	d, err := ap.Approve(ctx, a)
	if err != nil || !d.Allow {
		d.Allow = false
		return d
	}
	if a.Tier >= safety.Dangerous {
		a.Step = 2
		d2, err := ap.Approve(ctx, a)
		if err != nil || !d2.Allow {
			d2.Allow = false
			return d2
		}
		if d2.Comment != "" {
			d.Comment = d2.Comment
		}
	}
	return d
}

// refusal is the tool result for a refused call.
func refusal(d Decision) string {
	if d.Comment == "" {
		return Cancelled
	}
	return Cancelled + "\n\nThe user said: " + d.Comment
}
