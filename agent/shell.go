package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrRefused is the error RunShell returns when the person said no.
var ErrRefused = errors.New("refused")

// RunShell runs a command the person's own slash command asks for (its
// "!" lines) through the same checks, approvals and sandbox as the
// model's run_command, and returns what it printed. Nothing is added to
// the conversation: the output goes into the prompt the command makes.
// A refusal is ErrRefused; a command that runs and fails is not an error
// (its output says how it ended, as the model would read it).
func (a *Agent) RunShell(ctx context.Context, command string, sink func(Event)) (string, error) {
	if sink == nil {
		sink = func(Event) {}
	}
	if _, ok := a.lookup("run_command"); !ok {
		return "", fmt.Errorf("%q needs run_command, which is not available in this session", command)
	}
	args, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		return "", err
	}
	a.callSeq++
	tc := ToolCall{ID: fmt.Sprintf("pincer-shell-%d", a.callSeq), Name: "run_command", Arguments: string(args)}
	// The card of a model's call does not exist for this one: say what ran
	// as a notice instead.
	started := false
	quiet := func(e Event) {
		switch e.(type) {
		case ToolStarted:
			started = true
			return
		case ToolCallDelta:
			return
		}
		sink(e)
	}
	r := a.runCall(ctx, tc, quiet)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if !started && strings.HasPrefix(r.Content, Cancelled) {
		return "", fmt.Errorf("%q was %w", command, ErrRefused)
	}
	if !started {
		// Not run at all (a deny rule, bad arguments): nothing to include.
		return "", fmt.Errorf("%q was not run: %s", command, firstLine(r.Content))
	}
	sink(Notice{Text: "Ran " + command + " for the command; its output goes into the prompt."})
	return r.Content, nil
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
