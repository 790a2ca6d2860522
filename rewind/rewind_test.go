package rewind

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pincer/chat"
	"pincer/checkpoint"
	"pincer/session"
)

// world is a project with a real snapshot store and a real session store,
// and a session in which turns are played: a prompt, file changes made as
// a turn's tools would make them, an answer.
type world struct {
	t     *testing.T
	root  string
	snaps *checkpoint.Store
	st    *session.Store
	id    string
	rec   *Recorder
	rw    *Rewinder
}

func newWorld(t *testing.T) *world {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "project")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	snaps, err := checkpoint.Open(filepath.Join(base, "data", "checkpoints", checkpoint.Key(root)), root, checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { snaps.Close() })
	st, err := session.Open(filepath.Join(base, "data", "sessions.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.Create(session.Session{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, root: root, snaps: snaps, st: st, id: s.ID}
	w.rec = NewRecorder(snaps, st, func() string { return w.id })
	w.rw = New(snaps, st, s.ID, w.rec.Wait)
	return w
}

func (w *world) write(name, content string) {
	w.t.Helper()
	p := filepath.Join(w.root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) read(name string) string {
	data, err := os.ReadFile(filepath.Join(w.root, name))
	if err != nil {
		return "<missing>"
	}
	return string(data)
}

func (w *world) add(role chat.Role, content string) uint64 {
	w.t.Helper()
	seq, err := w.st.Append(w.id, chat.Message{Role: role, Content: content})
	if err != nil {
		w.t.Fatal(err)
	}
	return seq
}

// turn plays one turn: the prompt is stored, the checkpoint waited for
// (as the agent does before its first change), change runs, the answer
// is stored and the turn ends. It returns the prompt's seq.
func (w *world) turn(prompt string, change func()) uint64 {
	w.t.Helper()
	seq := w.add(chat.RoleUser, prompt)
	wait := w.rec.TurnStarted(context.Background(), seq)
	if _, err := wait(); err != nil {
		w.t.Fatal(err)
	}
	change()
	w.add(chat.RoleAssistant, "done: "+prompt)
	w.rec.TurnEnded(seq)
	w.rec.Wait()
	return seq
}

func (w *world) sent() []string {
	w.t.Helper()
	msgs, err := w.st.Messages(w.id, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		if !m.Rewound {
			out = append(out, m.Content)
		}
	}
	return out
}

func TestRewindRestoresFilesAndConversation(t *testing.T) {
	w := newWorld(t)
	w.write("keep.txt", "keep")
	w.write("edit.txt", "one")
	w.write("gone.txt", "three")
	first := w.turn("first", func() { w.write("edit.txt", "one, edited") })
	second := w.turn("second", func() {
		w.write("edit.txt", "two")
		w.write("new.txt", "made by a command")
		os.Remove(filepath.Join(w.root, "gone.txt"))
	})

	plan, err := w.rw.Plan(context.Background(), second, Both)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range plan.Changes {
		paths = append(paths, c.Path)
	}
	slices.Sort(paths)
	if got := strings.Join(paths, " "); got != "edit.txt gone.txt new.txt" || len(plan.Outside) > 0 || plan.Dropped != 2 {
		t.Fatalf("plan: changes %q outside %v dropped %d", got, plan.Outside, plan.Dropped)
	}
	if w.read("new.txt") != "made by a command" {
		t.Fatal("Plan changed a file")
	}

	out, err := w.rw.Apply(context.Background(), second, Both, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"keep.txt": "keep", "edit.txt": "one, edited", "gone.txt": "three", "new.txt": "<missing>"} {
		if got := w.read(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if out.Prompt != "second" {
		t.Errorf("prompt to put back = %q", out.Prompt)
	}
	if got := strings.Join(w.sent(), "|"); got != "first|done: first" {
		t.Errorf("sent after the rewind: %s", got)
	}
	turns, err := w.rw.Turns()
	if err != nil || len(turns) != 1 || turns[0].Seq != first {
		t.Errorf("turns after the rewind: %+v %v", turns, err)
	}

	// Redo brings both back.
	if _, err := w.rw.Redo(context.Background()); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"edit.txt": "two", "gone.txt": "<missing>", "new.txt": "made by a command"} {
		if got := w.read(name); got != want {
			t.Errorf("after redo: %s = %q, want %q", name, got, want)
		}
	}
	if got := len(w.sent()); got != 4 {
		t.Errorf("after redo %d messages are sent, want 4", got)
	}
	if _, err := w.rw.Redo(context.Background()); !errors.Is(err, session.ErrNothingToRedo) {
		t.Errorf("second redo: %v, want ErrNothingToRedo", err)
	}
}

func TestRewindModes(t *testing.T) {
	for _, tc := range []struct {
		mode     Mode
		file     string
		sentTurn bool // the rewound turn is still sent
	}{
		{Both, "before", false},
		{CodeOnly, "before", true},
		{ConversationOnly, "after", false},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			w := newWorld(t)
			w.write("f.txt", "before")
			seq := w.turn("change it", func() { w.write("f.txt", "after") })
			if _, err := w.rw.Apply(context.Background(), seq, tc.mode, nil, false); err != nil {
				t.Fatal(err)
			}
			if got := w.read("f.txt"); got != tc.file {
				t.Errorf("f.txt = %q, want %q", got, tc.file)
			}
			if sent := len(w.sent()) > 0; sent != tc.sentTurn {
				t.Errorf("turn still sent: %v, want %v", sent, tc.sentTurn)
			}
		})
	}
}

// TestRewindRefusesOutsideChanges: a file changed outside pincer — between
// turns or after the last — is not overwritten until confirmed.
func TestRewindRefusesOutsideChanges(t *testing.T) {
	for _, tc := range []struct {
		name    string
		between bool
	}{{"between turns", true}, {"after the last turn", false}} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.write("mine.txt", "v1")
			w.write("model.txt", "m1")
			first := w.turn("first", func() { w.write("model.txt", "m2") })
			if tc.between {
				w.write("mine.txt", "edited by hand")
				w.turn("second", func() { w.write("model.txt", "m3") })
			} else {
				w.write("mine.txt", "edited by hand")
			}
			_, err := w.rw.Apply(context.Background(), first, Both, nil, false)
			var oe *OutsideError
			if !errors.As(err, &oe) || !slices.Equal(oe.Paths, []string{"mine.txt"}) {
				t.Fatalf("Apply = %v, want an OutsideError naming mine.txt", err)
			}
			if w.read("mine.txt") != "edited by hand" || w.read("model.txt") == "m1" {
				t.Fatal("a refused rewind changed files")
			}
			if len(w.sent()) == 0 {
				t.Fatal("a refused rewind dropped the conversation")
			}
			if _, err := w.rw.Apply(context.Background(), first, Both, oe.Paths, false); err != nil {
				t.Fatal(err)
			}
			if w.read("mine.txt") != "v1" || w.read("model.txt") != "m1" {
				t.Errorf("after the confirmed rewind: mine %q model %q", w.read("mine.txt"), w.read("model.txt"))
			}
		})
	}
}

func TestRedoRefusesWhenSomethingChanged(t *testing.T) {
	t.Run("files", func(t *testing.T) {
		w := newWorld(t)
		w.write("f.txt", "a")
		seq := w.turn("t", func() { w.write("f.txt", "b") })
		if _, err := w.rw.Apply(context.Background(), seq, Both, nil, false); err != nil {
			t.Fatal(err)
		}
		w.write("f.txt", "edited after the rewind")
		if _, err := w.rw.Redo(context.Background()); !errors.Is(err, ErrFilesChanged) {
			t.Fatalf("Redo = %v, want ErrFilesChanged", err)
		}
		if w.read("f.txt") != "edited after the rewind" || len(w.sent()) != 0 {
			t.Error("a refused redo changed something")
		}
	})
	t.Run("conversation", func(t *testing.T) {
		w := newWorld(t)
		seq := w.turn("t", func() {})
		if _, err := w.rw.Apply(context.Background(), seq, ConversationOnly, nil, false); err != nil {
			t.Fatal(err)
		}
		w.add(chat.RoleUser, "a new prompt")
		if _, err := w.rw.Redo(context.Background()); !errors.Is(err, session.ErrRedoStale) {
			t.Fatalf("Redo = %v, want ErrRedoStale", err)
		}
	})
}

func TestRewindWithoutCheckpoint(t *testing.T) {
	w := newWorld(t)
	seq := w.add(chat.RoleUser, "no checkpoint for me")
	w.add(chat.RoleAssistant, "ok")
	if _, err := w.rw.Plan(context.Background(), seq, Both); !errors.Is(err, ErrNoCheckpoint) {
		t.Errorf("Plan(Both) = %v, want ErrNoCheckpoint", err)
	}
	if _, err := w.rw.Apply(context.Background(), seq, ConversationOnly, nil, false); err != nil {
		t.Errorf("a conversation rewind needs no checkpoint: %v", err)
	}
	if _, err := w.rw.Plan(context.Background(), 999, ConversationOnly); err == nil {
		t.Error("Plan of an unknown message succeeded")
	}
}

func TestChangedSince(t *testing.T) {
	w := newWorld(t)
	w.write("a.txt", "a")
	first := w.turn("first", func() { w.write("a.txt", "a2"); w.write("b.txt", "b") })
	second := w.turn("second", func() { w.write("c.txt", "c") })
	turns, err := w.rw.Turns()
	if err != nil {
		t.Fatal(err)
	}
	got := w.rw.ChangedSince(context.Background(), turns)
	if got[first] != 3 || got[second] != 1 {
		t.Errorf("changed since = %v, want first 3, second 1", got)
	}
}

// TestRecorderNamesSkippedFilesOnce: a file too large to record is named
// in the note of the first turn that skips it, and not again.
func TestRecorderNamesSkippedFilesOnce(t *testing.T) {
	w := newWorld(t)
	big := strings.Repeat("x", int(checkpoint.DefaultMaxFileSize)+1)
	w.write("big.bin", big)
	var notes []string
	for _, prompt := range []string{"one", "two"} {
		seq := w.add(chat.RoleUser, prompt)
		note, err := w.rec.TurnStarted(context.Background(), seq)()
		if err != nil {
			t.Fatal(err)
		}
		notes = append(notes, note)
		w.rec.TurnEnded(seq)
		w.rec.Wait()
	}
	if !strings.Contains(notes[0], "big.bin") || !strings.Contains(notes[0], "checkpoint_max_file_mb") || notes[1] != "" {
		t.Errorf("notes = %q, want big.bin named once", notes)
	}
}

// TestRedoTakesBackACodeOnlyRewind: the session store records no
// code-only rewind, so the memo does, and /redo puts the files back.
func TestRedoTakesBackACodeOnlyRewind(t *testing.T) {
	w := newWorld(t)
	w.rw.WithMemo(&Memo{})
	w.write("f.txt", "before")
	seq := w.turn("change it", func() { w.write("f.txt", "after") })
	if _, err := w.rw.Apply(context.Background(), seq, CodeOnly, nil, false); err != nil {
		t.Fatal(err)
	}
	if w.read("f.txt") != "before" || len(w.sent()) != 2 {
		t.Fatalf("after the code-only rewind: %q, %d messages sent", w.read("f.txt"), len(w.sent()))
	}
	if _, err := w.rw.Redo(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w.read("f.txt") != "after" {
		t.Errorf("after the redo f.txt = %q", w.read("f.txt"))
	}
	if _, err := w.rw.Redo(context.Background()); !errors.Is(err, session.ErrNothingToRedo) {
		t.Errorf("a second redo: %v, want ErrNothingToRedo", err)
	}
}

// TestWroteIsNotOutside: a file pincer wrote between turns (/plan save,
// /export) is not shown as changed outside pincer once recorded, while
// a file edited by hand at the same time still is.
func TestWroteIsNotOutside(t *testing.T) {
	for _, tc := range []struct {
		name        string
		byHand      bool
		wantOutside []string
	}{
		{"only pincer's write", false, nil},
		{"with a hand edit too", true, []string{"PLAN.md", "mine.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.write("mine.txt", "v1")
			first := w.turn("first", func() { w.write("model.txt", "m1") })
			w.write("PLAN.md", "the plan\n")
			if tc.byHand {
				w.write("mine.txt", "edited by hand")
			}
			if err := w.rw.Wrote(context.Background(), []string{"PLAN.md"}); err != nil {
				t.Fatal(err)
			}
			p, err := w.rw.Plan(context.Background(), first, Both)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Outside, tc.wantOutside) {
				t.Errorf("Outside = %q, want %q", p.Outside, tc.wantOutside)
			}
			if !slices.ContainsFunc(p.Changes, func(c checkpoint.Change) bool { return c.Path == "PLAN.md" }) {
				t.Errorf("the rewind does not remove PLAN.md: %+v", p.Changes)
			}
		})
	}
}
