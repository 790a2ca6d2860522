package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"pincer/agent"
	"pincer/config"
	"pincer/customcommands"
	"pincer/internal/safetext"
	"pincer/ui/headless"
)

// runOptions are the flags of `pincer run`.
type runOptions struct {
	model   modelFlags
	sandbox sandboxFlag
	session sessionChoice
	approve approvalFlags
	auto    autoFlag
	json    bool
	plan    bool
	// check runs the project's check after the turn and fails the run
	// when it still fails.
	check bool
}

// autoFlag is run's --auto: approvals "auto" for this run.
type autoFlag bool

func (a *autoFlag) apply(ov *config.Overrides) {
	if *a {
		ov.Approvals = config.Ptr("auto")
	}
}

func (c *cli) runCommand() *cobra.Command {
	var o runOptions
	cmd := &cobra.Command{
		Use:   "run [prompt]",
		Short: "Do one task without the screen, for scripts and CI",
		Long: `run sends one prompt and lets the model work through its tools until it answers,
without the full screen. The answer streams to standard output and tool activity
to standard error; with --json, standard output gets one JSON object per line.

The prompt comes from the arguments, from standard input, or both (the arguments
first, then what was piped in).

Nobody is there to approve anything, so safe commands (reading, listing,
searching) run, and everything that would ask on the screen is refused with
"User cancelled the operation" unless you allow it: --yes approves what needs one
approval (ordinary commands and file edits, applied without review);
--dangerously-approve-all approves dangerous commands too. Neither lets the
model create a scheduled task (it would run later, unattended): that takes
--allow-schedule. Both approve inside
the sandbox only: a command the sandbox blocks stays blocked (the model is told
what was blocked) unless you pass --sandbox off. --auto runs ordinary commands
without asking while the sandbox contains them. --plan only plans: the model
gets read-only tools, is asked for a step-by-step plan, and nothing is changed,
whatever else is approved. --check runs the project's check (the check setting,
or go build and go vet, cargo check, tsc --noEmit, ruff check as the project
suggests) in the jail once the model answers, and sends its failures back to
the model, check_rounds times at most.

Exit status: 0 when the model answered, 1 when the model or a tool failed, the
iteration limit was reached, the prompt does not fit the context window, the
session could not be saved, the output could not be written (a full disk), or the check still failed (--check), 2 for bad usage or configuration, 141 when the
reader of the output went away (the run stops there, quietly).`,
		Example: `  pincer run "list the TODOs in this project"
  pincer run --yes "make go vet pass"
  pincer run --plan "how would you split agent/loop.go?" > PLAN.md
  pincer run --yes --check "add a -v flag"           # in CI: fails unless the build and vet pass
  go test ./... 2>&1 | pincer run "explain these failures"
  pincer run --json "summarise README.md" | jq -r 'select(.type=="result").content'`,
		RunE: func(cmd *cobra.Command, args []string) error { return c.runHeadless(cmd, args, &o) },
	}
	f := cmd.Flags()
	o.model.register(f)
	o.session.register(f)
	o.sandbox.register(f)
	o.approve.register(f, "approve what needs one approval: ordinary commands and file edits (without review)",
		"let the model create scheduled tasks (schedule_task); --yes does not")
	f.BoolVar(&o.json, "json", false, "print one JSON object per line instead of text")
	f.BoolVar((*bool)(&o.auto), "auto", false, "run ordinary commands without asking while the sandbox contains them (approvals: auto)")
	f.BoolVar(&o.plan, "plan", false, "plan mode: read-only tools only; print a plan and change nothing")
	f.BoolVar(&o.check, "check", false, "run the project's check after the model's changes and send its failures back (check_rounds times at most); exit 1 when it still fails")
	return cmd
}

func (c *cli) runHeadless(cmd *cobra.Command, args []string, o *runOptions) error {
	prompt, err := c.readPrompt(args)
	if err != nil {
		return usageError(err)
	}
	p, err := c.loadProject(&o.model, &o.sandbox, &o.auto)
	if err != nil {
		return err
	}
	// "/name args" runs one of the person's own commands.
	custom, cmdWarnings := c.customCommands(p)
	for _, w := range cmdWarnings {
		fmt.Fprintf(c.stderr, "pincer: %s\n", safetext.LineOf(w))
	}
	found, cmdArgs, isCommand := customcommands.Find(custom, prompt)
	if isCommand {
		if found.Model != "" && o.model.model == "" {
			p.cfg.Model = found.Model // the command asks for it; --model still wins
		}
	}
	defer catchBrokenPipe()()
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	var rec agent.Recorder
	var opened *openedSession
	st, err := c.openStore(p)
	switch {
	case err != nil && o.session.chosen():
		return err
	case err != nil:
		fmt.Fprintf(c.stderr, "pincer: warning: this run will not be saved: %v\n", err)
	default:
		if opened, err = openSession(o.session, o.model.modelGiven(), st, p); err != nil {
			return err
		}
		for _, n := range opened.notes {
			fmt.Fprintf(c.stderr, "pincer: %s\n", safetext.LineOf(n))
		}
		if !opened.resumed && o.session.name == "" {
			// A one-off run: kept for -c, but out of the picker and the
			// list (pincer sessions --all shows it).
			if err := st.SetHeadless(opened.sess.ID, true); err != nil {
				return err
			}
		}
		rec = agent.SessionLog{Store: st, ID: opened.sess.ID}
	}
	if err := p.pickModel(ctx); err != nil {
		return err
	}
	if st := c.sandboxState(p); !st.Jailed && st.Mode != "off" {
		fmt.Fprintf(c.stderr, "pincer: warning: %s\n", st.Note)
	}
	printer := headless.NewPrinter(c.stdout, c.stderr, o.json)
	printer.OnBroken(func(error) { cancel() }) // nobody reads on: stop the model and its tools
	policy := o.approve.policy()
	setup := agentSetup{approver: policy.Approver(printer.Stderr()), recorder: rec}
	if opened != nil {
		id := opened.sess.ID
		setup.store, setup.current = st, func() string { return id }
		cps := c.startCheckpoints(p, st, setup.current, false)
		if cps.note != "" {
			fmt.Fprintf(c.stderr, "pincer: %s\n", safetext.LineOf(cps.note))
		}
		// The snapshot of a turn's end is taken before the process ends.
		defer cps.wait()
		if cps.recorder != nil {
			setup.checkpoints = cps.recorder
		}
	}
	// The servers start with the run and stop with it; it waits for them
	// (at most their start timeout), since nobody can wait for a slow one.
	servers := c.mcpManager(p, nil)
	servers.SetElicitor(c.runElicitor(o.approve.yes))
	servers.Start()
	defer servers.Close()
	setup.mcp = servers
	langs := c.lspManager(p, nil)
	defer langs.Close()
	setup.lsp = langs
	setup.check = c.checkOptions(p, o.check, false)
	a, _, err := c.newAgent(p, setup)
	if err != nil {
		return err
	}
	if o.plan {
		a.SetMode(agent.ModePlan)
	}
	for _, n := range a.SubAgentNotes() {
		fmt.Fprintf(c.stderr, "pincer: warning: %s\n", safetext.LineOf(n))
	}
	if len(p.cfg.MCPServers) > 0 {
		_ = servers.Wait(ctx)
		warnMCP(c.stderr, servers.Servers())
	}
	if opened != nil {
		a.Restore(opened.history, opened.summary, opened.through)
		printer.SetSession(opened.sess.ID, opened.sess.Name)
		if opened.sess.Model == "" && p.cfg.Model != "" {
			_ = st.SetModel(opened.sess.ID, p.cfg.Model)
		}
	}
	// A prompt made from a command's file or a server's prompt is
	// composed: a resource it names, beyond what was typed, is asked about.
	composed, typed := false, ""
	if isCommand {
		// Made now that its "!" lines can run through the approvals.
		run := commandRunner(p, found, func(ctx context.Context, command string) (string, error) {
			return a.RunShell(ctx, command, printer.Event)
		})
		composed, typed = true, cmdArgs
		if prompt, err = found.Render(ctx, cmdArgs, run); err != nil {
			if code := printer.Finish(agent.Result{StopReason: "error"}, err); code != 0 {
				return &exitError{code: code, silent: true}
			}
			return nil
		}
	}
	if !isCommand {
		// "/mcp__SERVER__PROMPT args" runs a server's prompt.
		if text, ok, err := mcpPromptText(ctx, servers, prompt); ok {
			if err != nil {
				if code := printer.Finish(agent.Result{StopReason: "error"}, err); code != 0 {
					return &exitError{code: code, silent: true}
				}
				return nil
			}
			_, args, _ := strings.Cut(strings.TrimSpace(prompt), " ")
			prompt, composed, typed = text, true, args
		}
	}
	res, runErr := a.RunTurn(ctx, agent.Message{Role: agent.RoleUser, Content: prompt}, agent.TurnOptions{Composed: composed, Typed: typed}, printer.Event)
	if runErr != nil {
		runErr = c.explainModelError(p, runErr)
		var ee *exitError
		if errors.As(runErr, &ee) {
			// A configuration problem found only now: say it like one.
			if code := printer.Finish(res, ee.err); code == headless.ExitBrokenPipe {
				return &exitError{code: code, silent: true}
			}
			return &exitError{code: ee.code, err: ee.err, silent: true}
		}
	}
	if code := printer.Finish(res, runErr); code != 0 {
		return &exitError{code: code, silent: true}
	}
	if o.check && res.Check == "failed" {
		return &exitError{code: 1, err: fmt.Errorf("the check %q still fails", checkCommand(p))}
	}
	return nil
}

// catchBrokenPipe makes a write to a closed standard output or error
// return EPIPE instead of killing pincer on the spot, so that a run whose
// reader went away (pincer run … | head -1) stops the model and its tools,
// keeps the session consistent and exits quietly with ExitBrokenPipe. The
// returned function restores the default.
func catchBrokenPipe() (restore func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGPIPE)
	return func() { signal.Stop(ch) }
}

// readPrompt joins the arguments and, when standard input is not a
// terminal, what was piped in.
func (c *cli) readPrompt(args []string) (string, error) {
	prompt := strings.TrimSpace(strings.Join(args, " "))
	if f, ok := c.stdin.(*os.File); !ok || !headless.IsTerminal(f) {
		data, err := io.ReadAll(io.LimitReader(c.stdin, 8<<20))
		if err != nil {
			return "", fmt.Errorf("read the prompt from standard input: %w", err)
		}
		if piped := strings.TrimSpace(string(data)); piped != "" {
			if prompt == "" {
				prompt = piped
			} else {
				prompt += "\n\n" + piped
			}
		}
	}
	if prompt == "" {
		return "", errors.New("no prompt; give it as an argument (pincer run \"fix the build\") or on standard input")
	}
	return prompt, nil
}
