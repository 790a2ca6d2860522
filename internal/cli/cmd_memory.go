package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"pincer/internal/human"
	"pincer/internal/safefile"
	"pincer/internal/safetext"
	"pincer/session"
)

// memoryCommand is `pincer memory`: the notes pincer remembers for a
// project, and which sessions recall may bring back.
func (c *cli) memoryCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "memory",
		Short: "List, add, edit and remove remembered notes; forget sessions for recall",
		Long: `Before each message, pincer gives the model what earlier sessions of the
project and its saved notes say about it (auto_recall; see docs/memory.md).
Notes are things you asked pincer to remember (/remember on the screen, or
'pincer memory add'); they are always considered and rank above old messages.

'pincer memory forget SESSION' takes a session out of recall and search
without deleting it; 'pincer memory unforget SESSION' brings it back.
'pincer sessions private SESSION' (or --private when starting) keeps a
session out of recall for good.`,
		Example: `pincer memory list
pincer memory add "the staging database listens on port 5433"
pincer memory edit 3
pincer memory rm 3
pincer memory forget db-migration`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return c.memoryList(cmd, false, false) },
	}
	var all, asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the notes of this project (--all: of every project)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return c.memoryList(cmd, all, asJSON) },
	}
	list.Flags().BoolVar(&all, "all", false, "list the notes of every project")
	list.Flags().BoolVar(&asJSON, "json", false, "print the notes as JSON")
	add := &cobra.Command{
		Use:   "add TEXT",
		Short: "Remember a note for this project",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, root, err := c.memoryStore(cmd)
			if err != nil {
				return err
			}
			n, err := st.AddNote(root, strings.Join(args, " "))
			if err != nil {
				return usageError(err)
			}
			fmt.Fprintf(c.stdout, "Remembered as note %d.\n", n.ID)
			c.warnSecretNote(n.Text, n.ID)
			return nil
		},
	}
	rm := &cobra.Command{
		Use:     "rm ID",
		Aliases: []string{"remove", "delete"},
		Short:   "Remove a note",
		Args:    exactArgs(1, "give the note's id; 'pincer memory list' shows them"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := session.ParseNoteID(args[0])
			if err != nil {
				return usageError(err)
			}
			st, _, err := c.memoryStore(cmd)
			if err != nil {
				return err
			}
			if err := st.DeleteNote(id); err != nil {
				return err
			}
			fmt.Fprintf(c.stdout, "Removed note %d.\n", id)
			return nil
		},
	}
	var text string
	edit := &cobra.Command{
		Use:   "edit ID",
		Short: "Edit a note in $EDITOR (or replace it with --text)",
		Args:  exactArgs(1, "give the note's id; 'pincer memory list' shows them"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := session.ParseNoteID(args[0])
			if err != nil {
				return usageError(err)
			}
			st, _, err := c.memoryStore(cmd)
			if err != nil {
				return err
			}
			n, err := st.GetNote(id)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("text") {
				if text, err = c.editText(n.Text); err != nil {
					return err
				}
			}
			if strings.TrimSpace(text) == strings.TrimSpace(n.Text) {
				fmt.Fprintf(c.stdout, "Note %d is unchanged.\n", id)
				return nil
			}
			if _, err := st.EditNote(id, text); err != nil {
				return usageError(err)
			}
			fmt.Fprintf(c.stdout, "Updated note %d.\n", id)
			c.warnSecretNote(text, id)
			return nil
		},
	}
	edit.Flags().StringVar(&text, "text", "", "the note's new text, instead of opening $EDITOR")
	forget := c.recallFlagCommand("forget SESSION", "Take a session out of recall and search, without deleting it",
		func(st *session.Store, ref string) (session.Session, error) { return st.SetForgotten(ref, true) },
		"Session %s will not be recalled ('pincer memory unforget %s' brings it back).\n")
	unforget := c.recallFlagCommand("unforget SESSION", "Bring a forgotten session back into recall and search",
		func(st *session.Store, ref string) (session.Session, error) { return st.SetForgotten(ref, false) },
		"Session %s can be recalled again%.0s.\n")
	cmd.AddCommand(list, add, rm, edit, forget, unforget)
	return cmd
}

// sessionsPrivate is `pincer sessions private NAME`.
func (c *cli) sessionsPrivate() *cobra.Command {
	var off bool
	cmd := &cobra.Command{
		Use:   "private NAME",
		Short: "Mark a session private: never indexed, searched or recalled (--off clears it)",
		Args:  exactArgs(1, "give the session's name or id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := c.anyStore(cmd)
			if err != nil {
				return err
			}
			s, err := st.SetPrivate(args[0], !off)
			if err != nil {
				return err
			}
			if off {
				fmt.Fprintf(c.stdout, "Session %s is no longer private; search and recall can find it.\n", safetext.LineOf(s.Label()))
			} else {
				fmt.Fprintf(c.stdout, "Session %s is private: it is never searched or recalled.\n", safetext.LineOf(s.Label()))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&off, "off", false, "make the session searchable and recallable again")
	return cmd
}

// recallFlagCommand is forget or unforget.
func (c *cli) recallFlagCommand(use, short string, set func(*session.Store, string) (session.Session, error), done string) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  exactArgs(1, "give the session's name or id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := c.anyStore(cmd)
			if err != nil {
				return err
			}
			s, err := set(st, args[0])
			if err != nil {
				return err
			}
			label := safetext.LineOf(s.Label())
			fmt.Fprintf(c.stdout, done, label, label)
			return nil
		},
	}
}

// memoryStore opens the store and names the project whose notes a
// command works on.
func (c *cli) memoryStore(cmd *cobra.Command) (*session.Store, string, error) {
	p, err := c.loadProject()
	if err != nil {
		return nil, "", err
	}
	st, err := c.openStore(p)
	return st, p.root, err
}

func (c *cli) memoryList(cmd *cobra.Command, all, asJSON bool) error {
	st, root, err := c.memoryStore(cmd)
	if err != nil {
		return err
	}
	dir := root
	if all {
		dir = ""
	}
	notes, err := st.Notes(dir)
	if err != nil {
		return err
	}
	if asJSON {
		return c.writeJSON(orEmpty(notes))
	}
	if len(notes) == 0 {
		fmt.Fprintln(c.stdout, "No notes yet. Save one with /remember on the screen or 'pincer memory add TEXT'.")
		return nil
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	head := "ID\tSAVED\tNOTE"
	if all {
		head = "ID\tSAVED\tDIRECTORY\tNOTE"
	}
	fmt.Fprintln(tw, head)
	now := time.Now()
	for _, n := range notes {
		text := human.OneLine(safetext.LineOf(human.Fold(n.Text)), 100)
		if all {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", n.ID, human.Ago(now, n.Updated), safetext.LineOf(n.Dir), text)
		} else {
			fmt.Fprintf(tw, "%d\t%s\t%s\n", n.ID, human.Ago(now, n.Updated), text)
		}
	}
	return tw.Flush()
}

// editText opens text in $VISUAL or $EDITOR (vi when neither is set) and
// returns what was saved.
func (c *cli) editText(text string) (string, error) {
	editor := strings.TrimSpace(c.getenv("VISUAL"))
	if editor == "" {
		editor = strings.TrimSpace(c.getenv("EDITOR"))
	}
	if editor == "" {
		editor = "vi"
	}
	dir, err := os.MkdirTemp("", "pincer-note-")
	if err != nil {
		return "", fmt.Errorf("edit note: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "note.md")
	if err := os.WriteFile(path, []byte(text+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("edit note: %w", err)
	}
	cmd := exec.Command("/bin/sh", "-c", editor+` "$1"`, "editor", path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", usageError(fmt.Errorf("the editor %q failed (%v); set $EDITOR, or pass the new text with --text", editor, err))
	}
	out, err := safefile.Read(path, safefile.Options{})
	if err != nil {
		return "", fmt.Errorf("edit note: %w", err)
	}
	if strings.TrimSpace(string(out)) == "" {
		return "", usageError(errors.New("the note was left empty, so it is unchanged; remove it with 'pincer memory rm ID'"))
	}
	return string(out), nil
}

// warnSecretNote warns on stderr when a note looks like it holds a secret:
// such text is never indexed, so that part of the note is never recalled.
func (c *cli) warnSecretNote(text string, id uint64) {
	if session.LooksSecret(text) {
		fmt.Fprintf(c.stderr, "pincer: %s\n", session.SecretNoteWarning(id))
	}
}
