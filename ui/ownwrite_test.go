package ui

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"pincer/chat"
	"pincer/checkpoint"
	"pincer/rewind"
)

// TestCommandWritesAreNotOutside: a file /plan save or /export writes
// between turns is pincer's own write, so the rewind preview removes it
// without calling it changed outside pincer.
func TestCommandWritesAreNotOutside(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		run        func(a *App) tea.Cmd
	}{
		{"plan save", "PLAN.md", func(a *App) tea.Cmd {
			a.plan = "1. Do it."
			return a.savePlan("")
		}},
		{"export", "talk.md", func(a *App) tea.Cmd { return a.exportSession("talk.md") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 100, 30)
			st := sessionStore(t, a, "demo")
			root := a.opts.Root
			snaps, err := checkpoint.Open(filepath.Join(t.TempDir(), "cp"), root, checkpoint.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { snaps.Close() })
			id := a.opts.SessionID
			rec := rewind.NewRecorder(snaps, st, func() string { return id })
			a.opts.Rewinder = func(string) *rewind.Rewinder { return rewind.New(snaps, st, id, rec.Wait) }
			seq, err := st.Append(id, chat.Message{Role: chat.RoleUser, Content: "first"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := rec.TurnStarted(context.Background(), seq)(); err != nil {
				t.Fatal(err)
			}
			writeTestFile(t, root, "model.txt", "m1\n")
			st.Append(id, chat.Message{Role: chat.RoleAssistant, Content: "done"})
			rec.TurnEnded(seq)
			rec.Wait()

			msg := tc.run(a)()
			if n, ok := msg.(noticeMsg); !ok || n.err != nil {
				t.Fatalf("the command failed: %+v", msg)
			}
			p, err := a.rewinder().Plan(context.Background(), seq, rewind.Both)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Outside) > 0 {
				t.Errorf("pincer's own write is shown as changed outside pincer: %q", p.Outside)
			}
			if !slices.ContainsFunc(p.Changes, func(c checkpoint.Change) bool { return c.Path == tc.file }) {
				t.Errorf("the rewind does not remove %s: %+v", tc.file, p.Changes)
			}
		})
	}
}
