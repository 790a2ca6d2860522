package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"pincer/hooks"
	"pincer/safety"
	"pincer/tools"
)

// Hooks runs the person's hook commands: a *hooks.Runner, which the
// composition root makes from the configuration. Run never fails —
// failures come back as Notices — and must return when ctx ends; it fills
// in the session and the project directory the agent does not know.
type Hooks interface {
	Run(ctx context.Context, in hooks.Input) hooks.Outcome
}

// ErrPromptBlocked is matched by the error of a turn whose prompt a
// UserPromptSubmit hook refused: nothing was stored or sent.
var ErrPromptBlocked = errors.New("a UserPromptSubmit hook blocked the prompt")

// maxStopContinues is how many times in one turn a Stop hook may send the
// model back to work, so a hook that always blocks cannot loop forever.
const maxStopContinues = 3

// hook runs the hooks of one event and shows their notices.
func (a *Agent) hook(ctx context.Context, in hooks.Input, sink func(Event)) hooks.Outcome {
	if a.opts.Hooks == nil {
		return hooks.Outcome{}
	}
	out := a.opts.Hooks.Run(ctx, in)
	for _, n := range out.Notices {
		sink(Notice{Text: n})
	}
	return out
}

// beforeTurn runs the SessionStart hooks once per session and the
// UserPromptSubmit hooks for a prompt the person typed. The error, which
// wraps ErrPromptBlocked, says why the prompt was not sent.
func (a *Agent) beforeTurn(ctx context.Context, user Message, sink func(Event)) error {
	if a.opts.Hooks == nil || a.role != nil {
		// A sub-agent's job is the model's text, not the person's prompt:
		// only the tool hooks apply to it.
		return nil
	}
	if !a.hookStarted {
		a.hookStarted = true
		source := "startup"
		if len(a.history) > 0 {
			source = "resume"
		}
		out := a.hook(ctx, hooks.Input{Event: hooks.SessionStart, Source: source}, sink)
		a.sessionContext = out.Context
	}
	a.promptContext = ""
	if user.Kind != "" {
		return nil // a scheduled task or a wrap-up, not a typed prompt
	}
	out := a.hook(ctx, hooks.Input{Event: hooks.UserPromptSubmit, Prompt: user.Content}, sink)
	switch {
	case out.Block:
		return fmt.Errorf("%w, so it was not sent: %s", ErrPromptBlocked, out.Reason)
	case out.Stop:
		return fmt.Errorf("%w, so it was not sent: %s", ErrPromptBlocked, out.StopReason)
	}
	a.promptContext = out.Context
	return nil
}

// hookNote is the hidden system message that carries what the hooks added
// for the model: the session's context, and the prompt's for this turn.
func (a *Agent) hookNote() string {
	var parts []string
	if a.sessionContext != "" {
		parts = append(parts, "Context from the user's SessionStart hook:\n"+a.sessionContext)
	}
	if a.promptContext != "" {
		parts = append(parts, "Context from the user's UserPromptSubmit hook, for the latest prompt:\n"+a.promptContext)
	}
	return strings.Join(parts, "\n\n")
}

// preTool is what the PreToolUse hooks decided for one call.
type preTool struct {
	ask       bool   // an approval is forced
	askReason string // why, for the dialog
	updatedBy string // the hook that changed the input, "" when none did
	input     string // the input it gave
	ran       bool   // the tool started (a ToolStarted event was sent)
}

// preToolUse runs the PreToolUse hooks of a call. A hook's new input
// replaces tc.Arguments before anything judges the call, so what the
// person approves is what runs. A non-nil result means the call is not run.
func (a *Agent) preToolUse(ctx context.Context, tc *ToolCall, sink func(Event)) (*preTool, *tools.Result) {
	p := &preTool{}
	if a.opts.Hooks == nil {
		return p, nil
	}
	out := a.hook(ctx, hooks.Input{Event: hooks.PreToolUse, ToolName: tc.Name, ToolInput: json.RawMessage(tc.Arguments)}, sink)
	if out.Stop {
		a.hookHalt = out.StopReason
	}
	if out.Block || out.Stop {
		reason := out.Reason
		if !out.Block {
			reason = out.StopReason
		}
		sink(Notice{Text: fmt.Sprintf("A PreToolUse hook blocked %s: %s", tc.Name, reason)})
		return p, &tools.Result{IsError: true, Content: fmt.Sprintf("Blocked by the user's PreToolUse hook; it was not run. The hook said: %s\nDo not try to get around the hook; ask the user if it is needed.", reason)}
	}
	if len(out.UpdatedInput) > 0 {
		p.updatedBy, p.input = out.UpdatedBy, string(out.UpdatedInput)
		tc.Arguments = p.input
		sink(Notice{Text: fmt.Sprintf("The hook %s changed the input of %s to: %s", out.UpdatedBy, tc.Name, p.input)})
	}
	if out.Permission == hooks.PermissionAsk {
		p.ask = true
		p.askReason = "a PreToolUse hook asks for your approval"
		if out.PermissionReason != "" {
			p.askReason += ": " + out.PermissionReason
		}
	}
	return p, nil
}

// tighten raises a verdict as the hooks asked: an approval is forced, and
// the dialog says why and that a hook changed the input.
func (p *preTool) tighten(v safety.Verdict) safety.Verdict {
	if p.updatedBy != "" {
		v.Reasons = append(v.Reasons, "the hook "+p.updatedBy+" changed this call's input; what is shown is what will run")
	}
	if p.ask {
		v.Tier = max(v.Tier, safety.Confirm)
		v.Reasons = append(v.Reasons, p.askReason)
	}
	return v
}

// watch notes, in p, that the tool started.
func (p *preTool) watch(sink func(Event)) func(Event) {
	return func(e Event) {
		if _, ok := e.(ToolStarted); ok {
			p.ran = true
		}
		sink(e)
	}
}

// postToolUse tells the model that a hook changed the call's input, and,
// for a call that ran, runs the PostToolUse hooks: a block's reason and
// added context go to the model with the result.
func (a *Agent) postToolUse(ctx context.Context, tc ToolCall, p *preTool, r tools.Result, sink func(Event)) tools.Result {
	if p.updatedBy != "" {
		r.Content += fmt.Sprintf("\n\n(The user's PreToolUse hook changed this call's input to: %s)", p.input)
	}
	if !p.ran || a.opts.Hooks == nil || ctx.Err() != nil {
		return r
	}
	resp, _ := json.Marshal(map[string]any{"content": r.Content, "is_error": r.IsError})
	out := a.hook(ctx, hooks.Input{Event: hooks.PostToolUse, ToolName: tc.Name, ToolInput: json.RawMessage(tc.Arguments), ToolResponse: resp}, sink)
	if out.Block {
		r.Content += "\n\nThe user's PostToolUse hook says: " + out.Reason
	}
	if out.Context != "" {
		r.Content += "\n\nContext from the user's PostToolUse hook: " + out.Context
	}
	if out.Stop {
		a.hookHalt = out.StopReason
	}
	return r
}

// stopHook runs the Stop hooks when the model has answered. A hook that
// blocks sends the model back to work with its reason, at most
// maxStopContinues times a turn; again reports that it did.
func (a *Agent) stopHook(ctx context.Context, continues *int, sink func(Event)) (again bool, err error) {
	if a.opts.Hooks == nil || a.role != nil || ctx.Err() != nil {
		return false, nil
	}
	out := a.hook(ctx, hooks.Input{Event: hooks.Stop, StopHookActive: *continues > 0}, sink)
	if !out.Block || out.Stop {
		return false, nil
	}
	if *continues >= maxStopContinues {
		sink(Notice{Text: fmt.Sprintf("A Stop hook asked the model to go on again (%s); after %d times in one turn pincer lets the turn end.", out.Reason, maxStopContinues)})
		return false, nil
	}
	*continues++
	sink(Notice{Text: "A Stop hook asked the model to go on: " + out.Reason})
	if _, err := a.add(Message{Role: RoleUser, Kind: KindHook, Content: "The user's Stop hook asks you to go on before you finish: " + out.Reason}, sink); err != nil {
		return false, err
	}
	return true, nil
}

// takeHalt returns, once, why a hook ended the turn ("" when none did).
func (a *Agent) takeHalt() string {
	h := a.hookHalt
	a.hookHalt = ""
	return h
}
