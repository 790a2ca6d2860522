// Package hooks runs the person's own commands at moments of a turn (a
// session starts, a prompt is sent, a tool is about to run or has run, the
// model is done) and reads their answers. The protocol follows Claude
// Code's where the two overlap, so existing hook scripts work: the event
// arrives as JSON on standard input, and the exit status (2 blocks) and an
// optional JSON object on standard output answer.
//
// The package decides nothing about safety: it reports what the hooks
// said, and its caller makes sure a hook can only tighten what pincer
// allows.
package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"pincer/internal/human"
)

// Event is a moment a hook runs at.
type Event string

// The events, named as Claude Code names them.
const (
	SessionStart     Event = "SessionStart"
	UserPromptSubmit Event = "UserPromptSubmit"
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	Stop             Event = "Stop"
)

// Events are the events in the order a turn meets them.
func Events() []Event {
	return []Event{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop}
}

// DefaultTimeout is how long a hook may run when its entry gives no
// timeout.
const DefaultTimeout = 60 * time.Second

// Hook is one configured command.
type Hook struct {
	Event Event
	// Matcher is a regular expression the whole tool name (or, for
	// SessionStart, the start source) must match; "" or "*" match all.
	Matcher string
	Command string
	Timeout time.Duration // 0 means DefaultTimeout
	// From says where the hook was configured, for /hooks and notices.
	From string
}

// Options are what every hook runs with.
type Options struct {
	// Dir is the project directory: hooks run there, and it is in
	// PINCER_PROJECT_DIR (and CLAUDE_PROJECT_DIR, for existing scripts).
	Dir string
	// Env is the environment hooks start from; nil means none besides the
	// project variables (the caller passes os.Environ()).
	Env []string
	// Session, when set, names the session in use (it may change while
	// the screen is open): the session_id of an Input that gives none.
	Session func() string
}

// Runner runs the configured hooks. It holds no state between runs, so
// one Runner may serve several turns at once.
type Runner struct {
	hooks    []Hook
	matchers []*regexp.Regexp // nil: matches all
	opts     Options
}

// New checks the matchers and returns a Runner for hooks.
func New(hooks []Hook, o Options) (*Runner, error) {
	r := &Runner{hooks: append([]Hook(nil), hooks...), opts: o}
	for _, h := range hooks {
		re, err := compileMatcher(h.Matcher)
		if err != nil {
			return nil, fmt.Errorf("the %s hook %q from %s has the matcher %q, which is not a regular expression (%w); fix it there", h.Event, h.Command, h.From, h.Matcher, err)
		}
		r.matchers = append(r.matchers, re)
	}
	return r, nil
}

// compileMatcher anchors a matcher so it must match the whole name, as a
// tool-name pattern is meant: "run_command" must not match
// "run_command_remote".
func compileMatcher(m string) (*regexp.Regexp, error) {
	if m == "" || m == "*" {
		return nil, nil
	}
	return regexp.Compile("^(?:" + m + ")$")
}

// Hooks lists the configured hooks in the order they run.
func (r *Runner) Hooks() []Hook {
	if r == nil {
		return nil
	}
	return append([]Hook(nil), r.hooks...)
}

// Matching returns the hooks of event whose matcher fits target (a tool
// name, or a start source); for events without a target every hook of
// the event matches.
func (r *Runner) Matching(event Event, target string) []Hook {
	if r == nil {
		return nil
	}
	var out []Hook
	for i, h := range r.hooks {
		if h.Event != event {
			continue
		}
		if re := r.matchers[i]; re != nil && hasTarget(event) && !re.MatchString(target) {
			continue
		}
		out = append(out, h)
	}
	return out
}

// hasTarget reports whether matchers apply to the event.
func hasTarget(e Event) bool { return e == PreToolUse || e == PostToolUse || e == SessionStart }

// Input is what a hook is told, as JSON on its standard input.
type Input struct {
	Event Event
	// SessionID and Cwd are filled in by Run when empty: the session
	// Options.Session names, and Options.Dir.
	SessionID string
	Cwd       string
	// ToolName and ToolInput for PreToolUse and PostToolUse.
	ToolName  string
	ToolInput json.RawMessage
	// ToolResponse for PostToolUse.
	ToolResponse json.RawMessage
	// Prompt for UserPromptSubmit.
	Prompt string
	// StopHookActive, for Stop, says the model is already going on
	// because a Stop hook asked it to.
	StopHookActive bool
	// Source, for SessionStart: "startup" or "resume".
	Source string
}

// payload is the JSON a hook reads: the common fields and those of its
// event, under the names Claude Code uses.
func (in Input) payload() ([]byte, error) {
	m := map[string]any{
		"session_id":      in.SessionID,
		"cwd":             in.Cwd,
		"hook_event_name": string(in.Event),
	}
	switch in.Event {
	case PreToolUse, PostToolUse:
		m["tool_name"] = in.ToolName
		m["tool_input"] = rawOrEmpty(in.ToolInput)
		if in.Event == PostToolUse {
			m["tool_response"] = rawOrEmpty(in.ToolResponse)
		}
	case UserPromptSubmit:
		m["prompt"] = in.Prompt
	case Stop:
		m["stop_hook_active"] = in.StopHookActive
	case SessionStart:
		m["source"] = in.Source
	}
	return json.Marshal(m)
}

func rawOrEmpty(r json.RawMessage) json.RawMessage {
	if len(r) == 0 || !json.Valid(r) {
		return json.RawMessage("{}")
	}
	return r
}

// Permission is a PreToolUse hook's permissionDecision.
type Permission string

// The decisions a PreToolUse hook may give. Allow never skips an approval
// pincer would ask for; the caller only tightens.
const (
	PermissionNone  Permission = ""
	PermissionAllow Permission = "allow"
	PermissionAsk   Permission = "ask"
	PermissionDeny  Permission = "deny"
)

// Outcome is what the hooks of one event said, together.
type Outcome struct {
	// Block: exit status 2, "decision": "block", or (PreToolUse)
	// "permissionDecision": "deny". Reason says why, for the model (or, for
	// UserPromptSubmit, the person).
	Block  bool
	Reason string
	// Stop: "continue": false — the turn ends; StopReason is for the
	// person.
	Stop       bool
	StopReason string
	// Context is text to add for the model: plain standard output of
	// UserPromptSubmit and SessionStart hooks, and additionalContext.
	Context string
	// Permission is the strictest permissionDecision given (PreToolUse);
	// PermissionReason the reason that came with it.
	Permission       Permission
	PermissionReason string
	// UpdatedInput replaces the tool's input (PreToolUse); UpdatedBy names
	// the hook that changed it.
	UpdatedInput json.RawMessage
	UpdatedBy    string
	// Notices are things to tell the person: hooks that failed, timed
	// out or answered nonsense, and their systemMessage.
	Notices []string
	// Ran counts the hooks that ran.
	Ran int
}

// Run runs the hooks of in.Event that match, one after the other, in the
// order they were configured: a PreToolUse hook sees the input an earlier
// one changed. It stops at the first hook that blocks or stops the turn.
// Failures become Notices; Run itself never fails.
func (r *Runner) Run(ctx context.Context, in Input) Outcome {
	if in.SessionID == "" && r.opts.Session != nil {
		in.SessionID = r.opts.Session()
	}
	if in.Cwd == "" {
		in.Cwd = r.opts.Dir
	}
	var out Outcome
	target := in.ToolName
	if in.Event == SessionStart {
		target = in.Source
	}
	var contexts []string
	for _, h := range r.Matching(in.Event, target) {
		if ctx.Err() != nil {
			break
		}
		payload, err := in.payload()
		if err != nil {
			out.Notices = append(out.Notices, fmt.Sprintf("The %s hook %s could not be given the event (%v); it did not run.", h.Event, describe(h), err))
			continue
		}
		res := r.exec(ctx, h, payload)
		out.Ran++
		one := interpret(h, res)
		out.Notices = append(out.Notices, one.Notices...)
		if one.Context != "" {
			contexts = append(contexts, one.Context)
		}
		if len(one.UpdatedInput) > 0 {
			out.UpdatedInput, out.UpdatedBy = one.UpdatedInput, describe(h)
			in.ToolInput = one.UpdatedInput
		}
		if rank(one.Permission) > rank(out.Permission) {
			out.Permission, out.PermissionReason = one.Permission, one.PermissionReason
		}
		if one.Block || one.Stop {
			out.Block, out.Reason = one.Block, one.Reason
			out.Stop, out.StopReason = one.Stop, one.StopReason
			break
		}
	}
	out.Context = capText(strings.Join(contexts, "\n\n"), maxContext)
	return out
}

// rank orders permission decisions from loosest to strictest.
func rank(p Permission) int {
	switch p {
	case PermissionAllow:
		return 1
	case PermissionAsk:
		return 2
	case PermissionDeny:
		return 3
	}
	return 0
}

// describe names a hook in a notice: its command, shortened, and where it
// was configured.
func describe(h Hook) string {
	c := human.OneLine(h.Command, 60)
	if h.From == "" {
		return fmt.Sprintf("%q", c)
	}
	return fmt.Sprintf("%q (from %s)", c, h.From)
}
