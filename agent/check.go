package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pincer/chat"
	"pincer/safety"
	"pincer/tools"
)

// DefaultCheckRounds is how many times in one turn a failing check goes
// back to the model when CheckOptions.Rounds is 0.
const DefaultCheckRounds = 3

// CheckOptions configure the check pincer runs after a turn that changed
// files: its failures go back to the model as a message, for at most
// Rounds rounds.
type CheckOptions struct {
	// Command is the shell command, run like run_command in the contained
	// jail (the project writable, no network unless allowed).
	Command string
	// Rounds caps the rounds of one turn (0 means DefaultCheckRounds).
	Rounds int
	// Ask asks the person, through the Approver, before the first run;
	// Decided is told the answer, so it is asked once per project.
	Ask     bool
	Decided func(run bool)
}

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

// KindCheck marks the user message that hands the check's failures to
// the model.
const KindCheck = "check"

// DetectCheck is the check a project's files suggest, or "": go build and
// go vet for a Go module, cargo check, tsc --noEmit, ruff check, each only
// when its program is on PATH.
func DetectCheck(root string, lookPath func(string) (string, error)) string {
	has := func(name string) bool {
		_, err := os.Stat(filepath.Join(root, name))
		return err == nil
	}
	on := func(prog string) bool {
		_, err := lookPath(prog)
		return err == nil
	}
	switch {
	case has("go.mod") && on("go"):
		return "go build ./... && go vet ./..."
	case has("Cargo.toml") && on("cargo"):
		return "cargo check --quiet"
	case has("tsconfig.json") && on("tsc"):
		return "tsc --noEmit"
	case (has("pyproject.toml") || has("setup.py") || has("requirements.txt")) && on("ruff"):
		return "ruff check"
	}
	return ""
}

// checkState is the check's state in one turn.
type checkState struct {
	changed bool // a call of this turn changed files or ran a command
	rounds  int  // checks run this turn
	result  string
}

// noteChange records that call may have changed the project.
func (cs *checkState) noteChange(tc ToolCall, r tools.Result) {
	if tc.Name == "run_command" {
		cs.changed = true
		return
	}
	for _, t := range r.Touched {
		if t.Kind != chat.TouchRead {
			cs.changed = true
		}
	}
}

// runCheck runs the check after the model answered in a turn that changed
// files. It reports whether the turn goes on: the check failed, and its
// output was sent to the model, with rounds left.
func (a *Agent) runCheck(ctx context.Context, cs *checkState, sink func(Event)) (bool, error) {
	c := a.opts.Check
	if c == nil || c.Command == "" || !cs.changed || a.Mode() == ModePlan || a.role != nil {
		return false, nil
	}
	rounds := c.Rounds
	if rounds <= 0 {
		rounds = DefaultCheckRounds
	}
	if cs.rounds >= rounds {
		return false, nil
	}
	if c.Ask {
		d := ask(ctx, a.opts.Approver, Approval{
			Kind: ApproveAction, Tool: "check", Summary: "check: " + c.Command,
			Tier:    safety.Confirm,
			Reasons: []string{fmt.Sprintf("after each turn that changes files, run %q and send its failures to the model (at most %d rounds; auto_check in the config decides for good)", c.Command, rounds)},
		})
		c.Ask = false
		if c.Decided != nil {
			c.Decided(d.Allow)
		}
		if !d.Allow {
			c.Command = ""
			return false, nil
		}
	}
	tool, ok := a.opts.Tools.Get("run_command")
	if !ok {
		return false, errors.New("the check needs run_command, which is not registered")
	}
	call, err := tool.Decode(fmt.Sprintf(`{"command": %q}`, c.Command))
	if err != nil {
		return false, fmt.Errorf("the check %q: %w", c.Command, err)
	}
	if pc, ok := call.(tools.Profiled); ok {
		call = pc.InProfile(safety.ProfileContained)
	}
	cs.rounds++
	cs.changed = false
	r, err := call.Run(ctx)
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		sink(Notice{Text: fmt.Sprintf("The check %q could not run: %v", c.Command, err)})
		return false, nil
	}
	passed := !r.IsError
	sink(Checked{Command: c.Command, Round: cs.rounds, Rounds: rounds, Passed: passed, Output: r.Content})
	if passed {
		cs.result = "passed"
		return false, nil
	}
	cs.result = "failed"
	if cs.rounds >= rounds {
		sink(Notice{Text: fmt.Sprintf("The check still fails after %d rounds; pincer stops sending its failures to the model.", rounds)})
		return false, nil
	}
	msg := Message{Role: RoleUser, Kind: KindCheck, Content: fmt.Sprintf(
		"The project's check `%s` fails after your changes (round %d of %d). Fix what it reports, then answer; the check runs again after you do.\n\n```\n%s\n```",
		c.Command, cs.rounds, rounds, strings.TrimSpace(r.Content))}
	if _, err := a.add(msg, sink); err != nil {
		return false, err
	}
	return true, nil
}
