package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"pincer/agent"
	"pincer/config"
	"pincer/internal/human"
	"pincer/internal/safetext"
	"pincer/session"
	"pincer/tools/sessiontools"
	"pincer/ui/headless"
)

func (c *cli) tasksCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tasks",
		Short: "Schedule prompts to run later or repeatedly, and run them",
		Long: `tasks manages scheduled tasks: prompts that run later, once or repeatedly, in a
session, through the normal agent loop (approvals still apply). The screen runs
its session's tasks while it is open; 'pincer tasks run' is a scheduler for a
terminal with no screen (or a cron job with --once).

A task that fails is retried at its next interval and shows its error in the
list; a run missed while nothing was running runs once, not once per missed
interval. The model sees a task's prompt as
"[SYSTEM: AUTOMATED BACKGROUND TASK TRIGGERED]: <prompt>".`,
		Example: `pincer tasks add --in 30m "check whether the release build passed"
pincer tasks add --every 24h -s nightly "run the test suite and summarise failures"
pincer tasks list
pincer tasks rm JADZ23          # the id that add and list show
pincer tasks run --yes          # run due tasks as they fall due, until Ctrl+C
pincer tasks run --once --yes   # run this project's due tasks and exit (for cron, from the project)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return c.listTasks(cmd, false) },
	}
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the scheduled tasks, soonest first",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return c.listTasks(cmd, asJSON) },
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print the tasks as JSON")
	cmd.AddCommand(list, c.tasksAdd(), c.tasksRemove(), c.tasksRun())
	return cmd
}

func (c *cli) listTasks(cmd *cobra.Command, asJSON bool) error {
	st, err := c.anyStore(cmd)
	if err != nil {
		return err
	}
	ts, err := st.Tasks()
	if err != nil {
		return err
	}
	if asJSON {
		return c.writeJSON(orEmpty(ts))
	}
	if len(ts) == 0 {
		fmt.Fprintln(c.stdout, "No scheduled tasks. Add one with: pincer tasks add --in 30m \"PROMPT\"")
		return nil
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNEXT\tREPEAT\tSESSION\tFROM\tPROMPT\tLAST RUN")
	for _, t := range ts {
		every := "once"
		if t.Every > 0 {
			every = "every " + strings.TrimSuffix(t.Every.String(), "0s")
		}
		sess := "(new)"
		if t.Session != "" {
			if s, err := st.Get(t.Session); err == nil {
				sess = s.Label()
			}
		}
		last := "-"
		switch {
		case t.LastError != "":
			last = "failed: " + human.OneLine(t.LastError, 40)
		case !t.LastRun.IsZero():
			last = "ok " + human.Ago(time.Now(), t.LastRun)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", session.ShortTaskID(t.ID), t.Next.Local().Format("2006-01-02 15:04"), every, safetext.LineOf(sess), taskOrigin(t), safetext.LineOf(human.OneLine(t.Prompt, 50)), safetext.LineOf(last))
	}
	return tw.Flush()
}

// taskOrigin says who scheduled a task: "you", "model" (the
// schedule_task tool, approved), with the Telegram chat it came from.
func taskOrigin(t session.Task) string {
	who := "you"
	if t.ByModel {
		who = "model"
	}
	if t.Chat != 0 {
		who += fmt.Sprintf(" (chat %d)", t.Chat)
	}
	return who
}

func (c *cli) tasksAdd() *cobra.Command {
	var in, at, every, name string
	cmd := &cobra.Command{
		Use:   "add PROMPT",
		Short: "Schedule a prompt (--in, --at or --every), in the session given by -s",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := c.loadProject()
			if err != nil {
				return err
			}
			var spec string
			switch {
			case in != "" && at != "":
				return usageError(errors.New("give --in or --at, not both"))
			case in != "":
				spec = "in " + in
			case at != "":
				spec = "at " + at
			case every != "":
				spec = "every " + every
			default:
				return usageError(errors.New("say when: --in 30m, --at 2026-12-01T09:00:00Z or --every 1h"))
			}
			prompt, next, period, err := sessiontools.ParseSchedule(spec+" "+strings.Join(args, " "), time.Now())
			if err != nil {
				return usageError(err)
			}
			if every != "" && spec != "every "+every {
				d, err := time.ParseDuration(every)
				if err != nil || d < session.MinTaskInterval {
					return usageError(fmt.Errorf("--every must be a duration of at least %s like 1h, not %q", session.MinTaskInterval, every))
				}
				period = d
			}
			st, err := c.openStore(p)
			if err != nil {
				return err
			}
			t, err := st.AddTask(session.Task{Session: name, Dir: p.root, Prompt: prompt, Next: next, Every: period})
			if err != nil {
				return err
			}
			fmt.Fprintln(c.stdout, safetext.TextOf(sessiontools.DescribeTask(t, time.Now())))
			return nil
		},
	}
	cmd.Flags().StringVar(&in, "in", "", "run after this long, e.g. 30m or 2h")
	cmd.Flags().StringVar(&at, "at", "", "run at this time (RFC 3339)")
	cmd.Flags().StringVar(&every, "every", "", "repeat at this interval (at least 1m)")
	registerSessionName(cmd.Flags(), &name)
	return cmd
}

func (c *cli) tasksRemove() *cobra.Command {
	return &cobra.Command{
		Use:     "rm ID",
		Aliases: []string{"cancel"},
		Short:   "Cancel a scheduled task (the id the list shows, or the whole id)",
		Args:    exactArgs(1, "give the task's id (pincer tasks list shows them)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := c.anyStore(cmd)
			if err != nil {
				return err
			}
			if err := st.RemoveTask(args[0]); err != nil {
				return err
			}
			fmt.Fprintln(c.stdout, "Cancelled.")
			return nil
		},
	}
}

// tasksRunOptions are the flags of `pincer tasks run`: each task runs as
// `pincer run` would, with these instead of run's own.
type tasksRunOptions struct {
	model   modelFlags
	sandbox sandboxFlag
	approve approvalFlags
	json    bool
	once    bool // run what is due now, then exit
}

// overrides are the configuration the flags override, in every task's
// project.
func (o *tasksRunOptions) overrides() config.Overrides {
	return overridesOf(&o.model, &o.sandbox)
}

func (c *cli) tasksRun() *cobra.Command {
	var o tasksRunOptions
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run scheduled tasks as they fall due (a scheduler without the screen)",
		Long: `run checks for due tasks every scheduler_interval (30s by default) and runs each
in its session, headless, as 'pincer run' would: safe commands run, and anything
that needs approval is refused unless --yes or --dangerously-approve-all is given.
A task without a session gets a new one. --once runs what is due now and exits.

Only the tasks of the project in the current directory (or --cwd) run: a task
runs in the project it was scheduled in, so a cron job runs from there
(cd ~/src/app && pincer tasks run --once --yes). Tasks a Telegram chat
scheduled run only in that chat, while pincer telegram runs. A task's model
cannot create further tasks unless --allow-schedule is given.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return c.runTasks(cmd, &o) },
	}
	f := cmd.Flags()
	o.model.register(f)
	o.sandbox.register(f)
	o.approve.register(f, "approve what needs one approval: ordinary commands and file edits",
		"let a task's model create further scheduled tasks; --yes does not")
	f.BoolVar(&o.once, "once", false, "run the tasks that are due now, then exit")
	f.BoolVar(&o.json, "json", false, "print one JSON object per line")
	return cmd
}

// runTasks is the foreground scheduler.
func (c *cli) runTasks(cmd *cobra.Command, o *tasksRunOptions) error {
	base, err := c.loadProjectAt(c.cwd, o.overrides())
	if err != nil {
		return err
	}
	st, err := c.openStore(base)
	if err != nil {
		return err
	}
	runner, err := agent.NewTaskRunner(st, base.cfg.SchedulerInterval.Std(), nil)
	if err != nil {
		return usageError(err)
	}
	defer catchBrokenPipe()()
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	broken := false
	run := func(ctx context.Context, t session.Task) error {
		err := c.runTask(ctx, st, t, o)
		if exitCodeOf(err) == headless.ExitBrokenPipe {
			broken = true // nobody reads the output any more: stop
			cancel()
		}
		return err
	}
	// A task runs only in the project it was scheduled in, and a task a
	// Telegram chat scheduled only in that chat: a scheduler started
	// elsewhere must not run another project's tasks with its flags.
	mine := func(t session.Task) bool { return t.Dir == base.root && t.Chat == 0 }
	failed, told := 0, -1
	for {
		ran, err := runner.RunDue(ctx, mine, run)
		if broken {
			return &exitError{code: headless.ExitBrokenPipe, silent: true}
		}
		if err != nil && ctx.Err() == nil {
			return err
		}
		for _, t := range ran {
			if t.LastError != "" {
				failed++
			}
		}
		if n := c.leftDue(st, mine); n != told && n > 0 && !o.json {
			fmt.Fprintf(c.stderr, "pincer: %s due elsewhere left alone: a task runs only in the project it was scheduled in (run pincer tasks run there), and one a Telegram chat scheduled only in that chat\n", human.Plural(n, "task"))
			told = n
		}
		if o.once || ctx.Err() != nil {
			if !o.json {
				fmt.Fprintf(c.stderr, "pincer: ran %d task(s), %d failed\n", len(ran), failed)
			}
			if failed > 0 {
				return &exitError{code: 1, silent: true}
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(runner.Interval()):
		}
	}
}

// leftDue counts the tasks due now that mine does not take.
func (c *cli) leftDue(st *session.Store, mine func(session.Task) bool) int {
	due, err := st.DueTasks(time.Now())
	if err != nil {
		return 0
	}
	n := 0
	for _, t := range due {
		if !mine(t) {
			n++
		}
	}
	return n
}

// runTask runs one task in its session (a new one when it has none),
// headless.
func (c *cli) runTask(ctx context.Context, st *session.Store, t session.Task, o *tasksRunOptions) error {
	p, err := c.loadProjectAt(t.Dir, o.overrides())
	if err != nil {
		return err
	}
	var sess session.Session
	if t.Session != "" {
		sess, err = st.Get(t.Session)
	} else {
		sess, err = st.Create(session.Session{Dir: p.root, Model: p.cfg.Model, Headless: true})
	}
	if err != nil {
		return err
	}
	if sess.Model != "" {
		p.cfg.Model = sess.Model
	}
	if err := p.pickModel(ctx); err != nil {
		return err
	}
	history, summary, through, err := agent.LoadSession(st, sess.ID)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	printer := headless.NewPrinter(c.stdout, c.stderr, o.json)
	printer.OnBroken(func(error) { cancel() })
	printer.SetSession(sess.ID, sess.Name)
	policy := o.approve.policy()
	id := sess.ID
	a, _, err := c.newAgent(p, agentSetup{
		approver: policy.Approver(printer.Stderr()),
		recorder: agent.SessionLog{Store: st, ID: sess.ID},
		store:    st,
		current:  func() string { return id },
	})
	if err != nil {
		return err
	}
	a.Restore(history, summary, through)
	if !o.json {
		fmt.Fprintf(c.stderr, "── task %s in session %s: %s\n", t.ID, safetext.LineOf(sess.Label()), safetext.LineOf(human.OneLine(t.Prompt, 80)))
	}
	res, runErr := a.RunMessage(ctx, agent.TaskMessage(t), printer.Event)
	if printer.Finish(res, runErr) == headless.ExitBrokenPipe {
		return &exitError{code: headless.ExitBrokenPipe, silent: true}
	}
	if runErr == nil && res.StopReason == "max_iterations" {
		runErr = errors.New("stopped at the iteration limit")
	}
	return runErr
}
