package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"pincer/agent"
	"pincer/checkpoint"
	"pincer/internal/human"
	"pincer/internal/safetext"
	"pincer/rewind"
	"pincer/session"
)

// sessionRewinder opens what rewinding session ref needs: the store, the
// session, and a rewinder over the snapshots of the session's directory
// (conversation only when checkpoints are off or were never kept there).
func (c *cli) sessionRewinder(cmd *cobra.Command, ref string) (*session.Store, session.Session, *rewind.Rewinder, func(), error) {
	p, err := c.loadProject()
	if err != nil {
		return nil, session.Session{}, nil, nil, err
	}
	st, err := c.openStore(p)
	if err != nil {
		return nil, session.Session{}, nil, nil, err
	}
	s, err := st.Get(ref)
	if err != nil {
		return nil, session.Session{}, nil, nil, err
	}
	snaps, err := c.checkpointStore(p, s.Dir)
	if err != nil {
		return nil, session.Session{}, nil, nil, err
	}
	if snaps == nil {
		return st, s, rewind.New(nil, st, s.ID, nil), func() {}, nil
	}
	return st, s, rewind.New(snaps, st, s.ID, nil), func() { snaps.Close() }, nil
}

func (c *cli) sessionsCheckpoints() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "checkpoints NAME",
		Short: "List the turns of a session a rewind can go back to",
		Long: `checkpoints lists the prompts of a session, oldest first, numbered as
'pincer sessions rewind --to N' takes them: when each was sent, whether the
project's files were recorded before it (so its code can be restored), and
how many files changed from then to the end of the session's last turn.`,
		Args: exactArgs(1, "give the session's name or id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, _, rw, done, err := c.sessionRewinder(cmd, args[0])
			if err != nil {
				return err
			}
			defer done()
			turns, err := rw.Turns()
			if err != nil {
				return err
			}
			changed := rw.ChangedSince(cmd.Context(), turns)
			if asJSON {
				type row struct {
					N        int       `json:"n"`
					Seq      uint64    `json:"seq"`
					Time     time.Time `json:"time"`
					Prompt   string    `json:"prompt"`
					Recorded bool      `json:"files_recorded"`
					Changed  *int      `json:"files_changed_since,omitempty"`
					Skipped  []string  `json:"skipped,omitempty"`
				}
				rows := make([]row, 0, len(turns))
				for _, t := range turns {
					typed, _ := agent.SplitAttachments(t.Prompt)
					r := row{N: t.N, Seq: t.Seq, Time: t.Time, Prompt: typed, Recorded: t.Checkpoint != nil}
					if n, ok := changed[t.Seq]; ok {
						r.Changed = &n
					}
					if t.Checkpoint != nil {
						r.Skipped = t.Checkpoint.Skipped
					}
					rows = append(rows, r)
				}
				enc := json.NewEncoder(c.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			if len(turns) == 0 {
				fmt.Fprintln(c.stdout, "No turns to rewind to in this session.")
				return nil
			}
			tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "N\tWHEN\tFILES\tPROMPT")
			for _, t := range turns {
				typed, _ := agent.SplitAttachments(t.Prompt)
				files := "not recorded"
				if t.Checkpoint != nil {
					files = "recorded"
					if n, ok := changed[t.Seq]; ok {
						files = human.Plural(n, "change") + " since"
					}
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", t.N, t.Time.Local().Format("2006-01-02 15:04"), files, safetext.LineOf(human.OneLine(typed, 60)))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the turns as JSON")
	return cmd
}

func (c *cli) sessionsRewind() *cobra.Command {
	var to, turns int
	var codeOnly, conversationOnly, force, dryRun, redo bool
	cmd := &cobra.Command{
		Use:   "rewind NAME",
		Short: "Take a session back to the start of an earlier turn: files, conversation, or both",
		Long: `rewind takes a session back to the start of a turn: the project's files as
they were then (restored from pincer's own record of them, never from your git
history) and the conversation, whose later messages are no longer sent to the
model (they stay in the session, marked rewound in 'pincer sessions show').

--to N goes back to turn N as 'pincer sessions checkpoints' numbers them;
--turns K goes back K turns (the default is 1, the last turn). A file changed
outside pincer since that turn is not overwritten without --force. --redo takes
the last rewind back, while nothing has changed since.`,
		Example: `pincer sessions checkpoints refactor
pincer sessions rewind refactor --dry-run
pincer sessions rewind refactor --to 3
pincer sessions rewind refactor --turns 2 --code-only
pincer sessions rewind refactor --redo`,
		Args: exactArgs(1, "give the session's name or id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if codeOnly && conversationOnly {
				return usageError(errors.New("--code-only and --conversation-only exclude each other; give one, or neither for both"))
			}
			if to != 0 && turns != 0 {
				return usageError(errors.New("--to and --turns exclude each other; give one"))
			}
			_, s, rw, done, err := c.sessionRewinder(cmd, args[0])
			if err != nil {
				return err
			}
			defer done()
			ctx := cmd.Context()
			if redo {
				r, err := rw.Redo(ctx)
				if err != nil {
					return err
				}
				fmt.Fprintf(c.stdout, "Redone: messages %d to %d are sent to the model again", r.From, r.Through)
				if r.Code != "" {
					fmt.Fprint(c.stdout, ", and the files are as they were before the rewind")
				}
				fmt.Fprintln(c.stdout, ".")
				return nil
			}
			list, err := rw.Turns()
			if err != nil {
				return err
			}
			if len(list) == 0 {
				return fmt.Errorf("session %s has no turn to rewind to", safetext.LineOf(s.Label()))
			}
			i := len(list) - 1
			switch {
			case to != 0:
				if to < 1 || to > len(list) {
					return usageError(fmt.Errorf("--to %d is not a turn of this session; 'pincer sessions checkpoints %s' lists turns 1 to %d", to, safetext.LineOf(s.Label()), len(list)))
				}
				i = to - 1
			case turns != 0:
				if turns < 1 || turns > len(list) {
					return usageError(fmt.Errorf("--turns %d goes back further than the session's %d turns", turns, len(list)))
				}
				i = len(list) - turns
			}
			mode := rewind.Both
			switch {
			case codeOnly:
				mode = rewind.CodeOnly
			case conversationOnly:
				mode = rewind.ConversationOnly
			}
			t := list[i]
			plan, err := rw.Plan(ctx, t.Seq, mode)
			if err != nil {
				return err
			}
			c.printPlan(c.stdout, plan)
			if dryRun {
				fmt.Fprintln(c.stdout, "Nothing was changed (--dry-run).")
				return nil
			}
			out, err := rw.Apply(ctx, t.Seq, mode, nil, force)
			var oe *rewind.OutsideError
			if errors.As(err, &oe) {
				return &exitError{code: 1, err: err}
			}
			if err != nil {
				return err
			}
			typed, _ := agent.SplitAttachments(out.Prompt)
			fmt.Fprintf(c.stdout, "Rewound %s to turn %d (%s).", safetext.LineOf(s.Label()), t.N, mode)
			if mode != rewind.CodeOnly {
				fmt.Fprintf(c.stdout, " Its prompt was: %s", safetext.LineOf(human.OneLine(typed, 200)))
			}
			fmt.Fprintf(c.stdout, "\nUndo this with: pincer sessions rewind %s --redo\n", safetext.LineOf(s.Label()))
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&to, "to", 0, "go back to turn N (see 'pincer sessions checkpoints')")
	f.IntVar(&turns, "turns", 0, "go back K turns (default 1)")
	f.BoolVar(&codeOnly, "code-only", false, "restore the files only; keep the conversation")
	f.BoolVar(&conversationOnly, "conversation-only", false, "rewind the conversation only; leave the files")
	f.BoolVar(&force, "force", false, "overwrite files changed outside pincer since that turn")
	f.BoolVar(&dryRun, "dry-run", false, "say what would change, change nothing")
	f.BoolVar(&redo, "redo", false, "take the last rewind back")
	return cmd
}

// printPlan says what a rewind changes.
func (c *cli) printPlan(w io.Writer, p rewind.Plan) {
	typed, _ := agent.SplitAttachments(p.Turn.Prompt)
	fmt.Fprintf(w, "Turn %d (%s): %s\n", p.Turn.N, p.Turn.Time.Local().Format("2006-01-02 15:04"), safetext.LineOf(human.OneLine(typed, 70)))
	if p.Mode != rewind.ConversationOnly {
		if len(p.Changes) == 0 {
			fmt.Fprintln(w, "Files: none change; they are as they were then.")
		}
		for _, ch := range p.Changes {
			what := map[checkpoint.Kind]string{checkpoint.Added: "restore", checkpoint.Removed: "remove", checkpoint.Modified: "revert"}[ch.Kind]
			line := fmt.Sprintf("  %-7s %s", what, safetext.LineOf(ch.Path))
			for _, o := range p.Outside {
				if o == ch.Path {
					line += "  (changed outside pincer)"
				}
			}
			fmt.Fprintln(w, line)
		}
		if len(p.Kept) > 0 {
			fmt.Fprintf(w, "Left alone (not recorded): %s\n", safetext.LineOf(strings.Join(p.Kept, ", ")))
		}
	}
	if p.Mode != rewind.CodeOnly {
		fmt.Fprintf(w, "Conversation: %s no longer sent to the model.\n", human.Plural(p.Dropped, "message"))
	}
}

// sessionSnapshots are the snapshot ids session s refers to, read before
// it is deleted, for forgetCheckpoints.
func sessionSnapshots(st *session.Store, s session.Session) []string {
	ids, err := st.CheckpointIDs(s.ID)
	if err != nil {
		return nil
	}
	return ids
}

// forgetCheckpoints drops, once session s is deleted, the snapshots it
// used that no other session (a fork) still refers to. A failure is a
// warning: such snapshots go with pruning later.
func (c *cli) forgetCheckpoints(cmd *cobra.Command, st *session.Store, s session.Session, ids []string) {
	if len(ids) == 0 || s.Dir == "" {
		return
	}
	live, err := st.LiveSnapshots(s.Dir)
	if err != nil {
		return
	}
	var gone []string
	for _, id := range ids {
		if !slices.Contains(live, id) {
			gone = append(gone, id)
		}
	}
	p, err := c.loadProject()
	if err != nil || len(gone) == 0 {
		return
	}
	snaps, err := c.checkpointStore(p, s.Dir)
	if err != nil || snaps == nil {
		return
	}
	defer snaps.Close()
	if err := snaps.Forget(gone); err != nil {
		fmt.Fprintf(c.stderr, "pincer: warning: the session's checkpoints were not removed (%s); they are pruned later\n", safetext.LineOf(err.Error()))
	}
}
