package tools

import (
	"context"

	"pincer/chat"
	"pincer/safety"
)

// Tool is one capability offered to the model. Its schema and description are
// sent with every request; Decode turns the model's raw arguments into a Call.
// Tools and Calls are safe for use from several goroutines.
type Tool interface {
	// Name is the function name the model calls, e.g. "read_file".
	Name() string
	// Description is what the model reads: what the tool does, its limits and defaults.
	Description() string
	// Parameters is the JSON Schema object of the arguments, generated from the
	// tool's Go argument struct and accepted by strict providers.
	Parameters() map[string]any
	// Mutates reports whether a call can change anything: files, or the world
	// through a command.
	Mutates() bool
	// Decode validates raw JSON arguments and returns the call they describe.
	// "" and "{}" mean no arguments. The error text is written for the model:
	// it names the argument, says what was wrong and shows a valid call.
	Decode(arguments string) (Call, error)
}

// Call is one decoded invocation of a Tool, ready to be checked and run.
type Call interface {
	// Summary is a short human label for a card, e.g. "read_file agent/loop.go".
	Summary() string
	// Access says what running the call would touch, so the caller can ask
	// its safety policy before Run.
	Access() Access
	// Run performs the call. Tool-level failures (file not found, exit code 1)
	// are a Result with IsError set; the error is reserved for failures of
	// pincer itself and for cancellation, when it is ctx.Err() and the Result
	// holds whatever output there was.
	Run(ctx context.Context) (Result, error)
}

// Access describes what a call would touch. Paths are absolute and cleaned.
// When a path reaches through a symbolic link, the link's real target is
// listed as well, so a policy about where files may be written cannot be
// side-stepped by a link inside the project.
type Access struct {
	Command string   // run_command: the command line passed to the shell
	Dir     string   // run_command: the working directory
	Reads   []string // paths the call reads (files or directories walked)
	Writes  []string // paths the call writes
	URL     string   // read_web: the URL fetched, as the model gave it
	// MCP, for a call of a tool an MCP server offers, says which one, so
	// the policy can match it against rules and ask about it.
	MCP *MCPUse
	// Beyond names what the call would read across the project's boundary
	// that no path names ("the sessions and notes of every project", for
	// recall): the person is asked first, told exactly that.
	Beyond string
}

// MCPUse is one call of a tool from an MCP server.
type MCPUse struct {
	Server string // the server's name in the configuration
	Tool   string // the tool's name on the server
	Name   string // the name the model calls: mcp__SERVER__TOOL, sanitised
	// ReadOnly is the tool's own readOnlyHint; Trusted is the server's
	// trusted flag in the configuration. Both together run unasked.
	ReadOnly, Trusted bool
	// Arguments are the call's arguments as indented JSON, for the dialog.
	Arguments string
}

// Result is what a call produced, for the model and for the UI.
type Result struct {
	// Content is the text for the model, capped to Options.MaxOutput with
	// head and tail kept and the cut stated.
	Content string
	// IsError marks a tool-level failure the model should react to.
	IsError bool
	// Touched lists the files read, changed or created, for the tree pane.
	Touched []chat.Touch
	// SandboxBlocked says what the sandbox refused a command (a write
	// outside the allowed paths, a network connection), one phrase each;
	// empty when it refused nothing or nothing could tell.
	SandboxBlocked []string
}

// Unsandboxed is a call that can run again outside the sandbox, once the
// person agrees, after the sandbox blocked it.
type Unsandboxed interface {
	Unsandboxed() Call
}

// Profiled is a call that runs in one of the jail's profiles, which the
// agent chooses from how the call was allowed (safety.ProfileFor).
type Profiled interface {
	// InProfile is the same call, to run in profile p.
	InProfile(p safety.Profile) Call
	// Profile is the profile it runs in.
	Profile() safety.Profile
}

// errorResult is the Result of a tool-level failure.
func errorResult(text string) Result {
	return Result{Content: text, IsError: true}
}
