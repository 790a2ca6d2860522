package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"pincer/agent"
	"pincer/internal/human"
	"pincer/internal/safetext"
	"pincer/session"
	"pincer/tools/todo"
	"pincer/ui/headless"
)

func (c *cli) sessionsCommand() *cobra.Command {
	var asJSON, all bool
	cmd := &cobra.Command{
		Use:     "sessions",
		Aliases: []string{"session"},
		Short:   "List, show, rename, delete, export, fork, compact and rewind sessions",
		Long: `sessions lists the saved sessions, most recent first: name (or id), directory,
last activity, number of messages and a title from the first prompt. The
sessions of 'pincer run' without -s are kept (so 'pincer run -c' continues
one) but left out of this list and the screen's picker; --all shows them.

Every conversation is saved as it happens, one message at a time, in one file
under the data directory ($PINCER_DATA_DIR, else ~/.local/share/pincer on Linux,
~/Library/Application Support/pincer on macOS, %LOCALAPPDATA%\pincer on Windows). Resume
one with 'pincer -s NAME' (or 'pincer -c' for the latest one here). A session can
be named by its name, its id, or the first 6+ characters of its id.`,
		Example: `pincer sessions
pincer sessions show refactor
pincer sessions rename 01JX3Q refactor
pincer sessions export refactor --format markdown > refactor.md
pincer sessions fork refactor refactor-alt
pincer sessions compact refactor "keep the API decisions"
pincer sessions rm refactor-alt --yes`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := c.readStore(cmd)
			if err != nil {
				return err
			}
			list, bad, err := st.ListAll()
			if err != nil {
				return err
			}
			// A damaged record hides nothing else: the readable sessions
			// are listed, and each unreadable one is named with the fix.
			defer func() {
				for _, u := range bad {
					fmt.Fprintf(c.stderr, "pincer: %s\n", safetext.LineOf(u.Err.Error()))
				}
			}()
			hidden := 0
			if !all {
				n := len(list)
				list = slices.DeleteFunc(list, func(s session.Session) bool { return s.Headless })
				hidden = n - len(list)
			}
			if asJSON {
				return c.writeJSON(orEmpty(list))
			}
			if hidden > 0 {
				defer fmt.Fprintf(c.stderr, "(%s of pincer run not shown; pincer sessions --all shows them)\n", human.Plural(hidden, "session"))
			}
			if len(list) == 0 && len(bad) == 0 {
				fmt.Fprintln(c.stdout, "No sessions yet. Start one with 'pincer' or 'pincer run'.")
				return nil
			}
			home, _ := os.UserHomeDir()
			tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tDIRECTORY\tLAST ACTIVE\tMESSAGES\tTITLE")
			now := time.Now()
			for _, s := range list {
				title := human.OneLine(s.Title, 60)
				if s.Headless {
					title = "(pincer run) " + title
				}
				switch {
				case s.Private:
					title = "(private) " + title
				case s.Forgotten:
					title = "(forgotten) " + title
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", safetext.LineOf(s.Label()), safetext.LineOf(human.Tilde(s.Dir, home)), human.Ago(now, s.Updated), s.MessageCount, safetext.LineOf(title))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sessions as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "also list the sessions of pincer run (without -s)")
	cmd.AddCommand(c.sessionsPrivate())
	cmd.AddCommand(c.sessionsShow(), c.sessionsRename(), c.sessionsRemove(), c.sessionsExport(), c.sessionsFork(), c.sessionsCompact(),
		c.sessionsCheckpoints(), c.sessionsRewind())
	return cmd
}

// anyStore opens the session store for a command that does not talk to a
// model: it uses the config's data_dir when the config loads, and still
// works with a broken config file.
func (c *cli) anyStore(cmd *cobra.Command) (*session.Store, error) {
	p, err := c.loadProject()
	if err != nil {
		p = nil
	}
	return c.openStore(p)
}

// readStore is anyStore for commands that only read: an existing store is
// opened read-only, so it may be a file they cannot write.
func (c *cli) readStore(cmd *cobra.Command) (*session.Store, error) {
	p, err := c.loadProject()
	if err != nil {
		p = nil
	}
	return c.openStoreFor(p, true)
}

func (c *cli) sessionsShow() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Show a session: its details and its whole transcript",
		Args:  exactArgs(1, "give the session's name or id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := c.readStore(cmd)
			if err != nil {
				return err
			}
			if asJSON {
				return exportTo(c.stdout, func(w io.Writer) error { return st.Export(w, args[0], session.FormatJSON) }, session.FormatJSON)
			}
			s, err := st.Get(args[0])
			if err != nil {
				return err
			}
			// The transcript starts with the session's details; only how to
			// resume it is added, at the end where the eye lands.
			return exportTo(c.stdout, func(w io.Writer) error {
				if err := st.Export(w, s.ID, session.FormatMarkdown); err != nil {
					return err
				}
				if list := currentTodos(st, s.ID); len(list) > 0 {
					if _, err := fmt.Fprintf(w, "\n%s", todo.Markdown(list)); err != nil {
						return err
					}
				}
				_, err := fmt.Fprintf(w, "\nResume it with: %s\n", safetext.LineOf(resumeHint(s)))
				return err
			}, session.FormatMarkdown)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the session and its messages as JSON")
	return cmd
}

func (c *cli) sessionsRename() *cobra.Command {
	return &cobra.Command{
		Use:   "rename NAME NEW-NAME",
		Short: "Give a session a (new) name",
		Args:  exactArgs(2, "give the session and its new name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := c.anyStore(cmd)
			if err != nil {
				return err
			}
			if err := st.Rename(args[0], args[1]); err != nil {
				if errors.Is(err, session.ErrInvalidName) {
					return usageError(err)
				}
				return err
			}
			fmt.Fprintf(c.stdout, "Renamed to %s.\n", args[1])
			return nil
		},
	}
}

func (c *cli) sessionsRemove() *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:     "rm NAME",
		Aliases: []string{"delete"},
		Short:   "Delete a session and its messages (asks first unless --yes)",
		Args:    exactArgs(1, "give the session's name or id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := c.anyStore(cmd)
			if err != nil {
				return err
			}
			s, err := st.Get(args[0])
			if errors.Is(err, session.ErrDamagedRecord) {
				// Its record cannot be read, so it cannot be described;
				// deleting it is how to be rid of the damage.
				s, err = session.Session{ID: args[0]}, nil
			}
			if err != nil {
				return err
			}
			if !yes {
				what := fmt.Sprintf("%s (%d messages, last active %s)", safetext.LineOf(s.Label()), s.MessageCount, human.Ago(time.Now(), s.Updated))
				if s.Created.IsZero() {
					what = s.ID + " (its record is damaged)"
				}
				fmt.Fprintf(c.stderr, "Delete session %s? This cannot be undone. [y/N] ", what)
				answer, _ := bufio.NewReader(c.stdin).ReadString('\n')
				if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
					fmt.Fprintln(c.stderr, "Kept it.")
					return &exitError{code: 1, silent: true}
				}
			}
			snapshots := sessionSnapshots(st, s)
			if err := st.Delete(s.ID); err != nil {
				return err
			}
			c.forgetCheckpoints(cmd, st, s, snapshots)
			fmt.Fprintf(c.stdout, "Deleted %s.\n", s.Label())
			return nil
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking")
	return cmd
}

func (c *cli) sessionsExport() *cobra.Command {
	var format, output string
	var keepSecrets bool
	cmd := &cobra.Command{
		Use:   "export NAME",
		Short: "Write a session as Markdown or JSON, secret-looking text redacted",
		Args:  exactArgs(1, "give the session's name or id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != session.FormatMarkdown && format != session.FormatJSON {
				return usageError(fmt.Errorf("--format %q is not known; use markdown or json", format))
			}
			st, err := c.readStore(cmd)
			if err != nil {
				return err
			}
			var stats session.ExportStats
			export := func(w io.Writer) (err error) {
				stats, err = st.ExportWith(w, args[0], session.ExportOptions{Format: format, Redact: !keepSecrets})
				return err
			}
			if output == "" {
				err = exportTo(c.stdout, export, format)
			} else {
				f, cerr := os.Create(output)
				if cerr != nil {
					return fmt.Errorf("create %s: %w", output, cerr)
				}
				err = export(f)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err == nil && stats.Redacted > 0 {
				fmt.Fprintf(c.stderr, "pincer: redacted %s that looked like secrets (keys, tokens, passwords); --keep-secrets keeps them.\n", human.Plural(stats.Redacted, "item"))
			}
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", session.FormatMarkdown, "markdown or json")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of standard output")
	cmd.Flags().BoolVar(&keepSecrets, "keep-secrets", false, "keep secret-looking text (keys, tokens, passwords) instead of redacting it")
	return cmd
}

func (c *cli) sessionsFork() *cobra.Command {
	return &cobra.Command{
		Use:   "fork NAME NEW-NAME",
		Short: "Copy a session to try another path from the same point",
		Args:  exactArgs(2, "give the session to copy and the name of the copy"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := c.anyStore(cmd)
			if err != nil {
				return err
			}
			s, err := st.Fork(args[0], args[1])
			if err != nil {
				return err
			}
			fmt.Fprintf(c.stdout, "Forked into %s (%d messages). Resume it with: %s\n", s.Label(), s.MessageCount, resumeHint(s))
			return nil
		},
	}
}

func (c *cli) sessionsCompact() *cobra.Command {
	var model modelFlags
	cmd := &cobra.Command{
		Use:   "compact NAME [focus...]",
		Short: "Summarise a session's older messages now (what /compact does)",
		Long: `compact asks the model to summarise everything but the most recent messages
(keep_recent, 10 by default) into a summary that is stored with the session and
sent instead of them from now on. The full history stays for show and export.
Words after the name say what the summary should focus on.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := c.loadProject(&model)
			if err != nil {
				return err
			}
			st, err := c.openStore(p)
			if err != nil {
				return err
			}
			s, err := st.Get(args[0])
			if err != nil {
				return err
			}
			if s.Model != "" && !model.modelGiven() {
				p.cfg.Model = s.Model
			}
			if err := p.pickModel(cmd.Context()); err != nil {
				return err
			}
			a, _, err := c.newAgent(p, agentSetup{recorder: agent.SessionLog{Store: st, ID: s.ID}})
			if err != nil {
				return err
			}
			history, summary, through, err := agent.LoadSession(st, s.ID)
			if err != nil {
				return err
			}
			a.Restore(history, summary, through)
			var compressed agent.Compressed
			err = a.Compact(cmd.Context(), strings.Join(args[1:], " "), func(ev agent.Event) {
				if cv, ok := ev.(agent.Compressed); ok {
					compressed = cv
				}
			})
			if err != nil {
				return c.explainModelError(p, fmt.Errorf("compact %s: %w", s.Label(), err))
			}
			return exportTo(c.stdout, func(w io.Writer) error {
				_, err := fmt.Fprintf(w, "Compressed %d messages of %s (about %d → %d tokens).\n\n%s\n", compressed.Messages, s.Label(), compressed.Before, compressed.After, compressed.Summary)
				return err
			}, session.FormatMarkdown)
		},
	}
	model.register(cmd.Flags())
	return cmd
}

// exactArgs is cobra.ExactArgs with a message that says what to give.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError(errors.New(what))
		}
		return nil
	}
}

// currentTodos is the task list the session's conversation left, nil
// when it has none or its messages cannot be read (the transcript above
// already says what is wrong then).
func currentTodos(st *session.Store, id string) []todo.Item {
	history, _, _, err := agent.LoadSession(st, id)
	if err != nil {
		return nil
	}
	return agent.Todos(history)
}

// exportTo runs write on out, through pincer's sanitiser when out is a
// terminal: a session holds foreign text (the model's answers, tool output,
// file contents) that must not drive the terminal it is shown on. Markdown
// is shown under the policy; JSON keeps its meaning, with the characters
// the policy escapes written as \u escapes. Written to a file or a pipe,
// the export is exact.
func exportTo(out io.Writer, write func(io.Writer) error, format string) error {
	f, ok := out.(*os.File)
	if !ok || !headless.IsTerminal(f) {
		return write(out)
	}
	var w interface {
		io.Writer
		Flush() error
	}
	if format == session.FormatJSON {
		w = safetext.NewJSONWriter(out)
	} else {
		w = safetext.NewWriter(out, safetext.Text)
	}
	err := write(w)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}
