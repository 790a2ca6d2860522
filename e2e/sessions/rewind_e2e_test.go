package sessions

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/checkpoint"
	"pincer/session"
)

// treeHash hashes every file and link under dir: path, mode and content.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s\x00%v\x00", rel, info.Mode())
		switch {
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(data)
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			h.Write([]byte(target))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestRewindEndToEnd: a turn edits a file with edit_file, writes one with
// a shell command and deletes a third with rm; `sessions rewind` brings
// all three back, the next request no longer holds the rewound turn,
// --redo round-trips, and the project's own .git is left byte for byte.
func TestRewindEndToEnd(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "edit_file", Arguments: `{"path": "edit.txt", "old_text": "original", "new_text": "edited"}`}),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "run_command", Arguments: `{"command": "echo made > out.txt"}`}),
		agenttest.Tools("", agenttest.Call{ID: "c3", Name: "run_command", Arguments: `{"command": "rm gone.txt"}`}),
		agenttest.Text("changed three files", 5),
	)
	defer srv.Close()
	srv.SetFallback(agenttest.Text("ok", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("edit.txt", "original\n")
	s.Write("gone.txt", "keep me\n")
	s.Write(".gitignore", "ignored.log\n")
	s.Write("ignored.log", "not mine to touch\n")
	// A repository of the person's own, which nothing may change.
	s.Write(".git/HEAD", "ref: refs/heads/main\n")
	s.Write(".git/index", "DIRC\x00\x00\x00\x02")
	s.Write(".git/refs/heads/main", "0123456789abcdef0123456789abcdef01234567\n")
	s.Write(".git/hooks/pre-commit", "#!/bin/sh\nexit 1\n")
	gitBefore := treeHash(t, filepath.Join(s.Dir, ".git"))

	if r := s.Run("", "run", "-s", "rw", "--dangerously-approve-all", "change three files"); r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	after := map[string]string{"edit.txt": "edited\n", "out.txt": "made\n", "gone.txt": ""}
	check := func(when string, want map[string]string) {
		t.Helper()
		for name, content := range want {
			data, err := os.ReadFile(filepath.Join(s.Dir, name))
			switch {
			case content == "" && err == nil:
				t.Errorf("%s: %s exists, want it gone", when, name)
			case content != "" && string(data) != content:
				t.Errorf("%s: %s = %q (%v), want %q", when, name, data, err, content)
			}
		}
	}
	check("after the turn", after)

	r := s.Run("", "sessions", "checkpoints", "rw", "--json")
	var turns []struct {
		N        int  `json:"n"`
		Recorded bool `json:"files_recorded"`
		Changed  *int `json:"files_changed_since"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &turns); err != nil || len(turns) != 1 || !turns[0].Recorded || turns[0].Changed == nil || *turns[0].Changed != 3 {
		t.Fatalf("sessions checkpoints --json: %v %+v\n%s%s", err, turns, r.Stdout, r.Stderr)
	}

	before := map[string]string{"edit.txt": "original\n", "out.txt": "", "gone.txt": "keep me\n", "ignored.log": "not mine to touch\n"}
	if r := s.Run("", "sessions", "rewind", "rw"); r.Code != 0 {
		t.Fatalf("rewind: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	check("after the rewind", before)
	if r := s.Run("", "sessions", "rewind", "rw", "--redo"); r.Code != 0 {
		t.Fatalf("redo: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	check("after the redo", after)
	if r := s.Run("", "sessions", "rewind", "rw", "--to", "1"); r.Code != 0 {
		t.Fatalf("second rewind: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	check("after the second rewind", before)

	// A file changed by hand is not overwritten without --force.
	if r := s.Run("", "run", "-s", "rw", "--dangerously-approve-all", "next prompt"); r.Code != 0 {
		t.Fatalf("next run: exit %d\n%s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	last := e2etest.RequestText(reqs[len(reqs)-1])
	if strings.Contains(last, "change three files") || strings.Contains(last, "echo made") || !strings.Contains(last, "next prompt") {
		t.Errorf("the request after the rewind still holds the rewound turn (or lacks the new prompt):\n%s", last)
	}
	s.Write("edit.txt", "by hand\n")
	r = s.Run("", "sessions", "rewind", "rw")
	if r.Code == 0 || !strings.Contains(r.Stderr, "edit.txt") || !strings.Contains(r.Stderr, "--force") {
		t.Errorf("rewind over a file changed by hand: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	check("after the refused rewind", map[string]string{"edit.txt": "by hand\n"})

	if got := treeHash(t, filepath.Join(s.Dir, ".git")); got != gitBefore {
		t.Error("the project's .git changed")
	}

	// Deleting the session deletes the snapshots only it used.
	st, err := session.Open(filepath.Join(s.Home, "data", "pincer.db"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Get("rw")
	if err != nil {
		t.Fatal(err)
	}
	ids, err := st.CheckpointIDs(sess.ID)
	if err != nil || len(ids) == 0 {
		t.Fatalf("the session refers to no snapshot: %v", err)
	}
	snapshotsLeft := func() int {
		snaps, err := checkpoint.Open(filepath.Join(s.Home, "data", "checkpoints", checkpoint.Key(s.Dir)), s.Dir, checkpoint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer snaps.Close()
		n := 0
		for _, id := range ids {
			if _, err := snaps.Get(id); err == nil {
				n++
			}
		}
		return n
	}
	if n := snapshotsLeft(); n != len(ids) {
		t.Fatalf("%d of the session's %d snapshots exist before it is deleted", n, len(ids))
	}
	if r := s.Run("", "sessions", "rm", "rw", "--yes"); r.Code != 0 {
		t.Fatalf("sessions rm: exit %d\n%s", r.Code, r.Stderr)
	}
	if n := snapshotsLeft(); n != 0 {
		t.Errorf("%d of the session's snapshots outlived it", n)
	}
}

// TestTUIUndoRedo: on the screen, /undo shows what the last turn's rewind
// changes, takes the files and the conversation back and puts the prompt
// in the input box; /redo brings both back.
func TestTUIUndoRedo(t *testing.T) {
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command": "echo made > out.txt"}`}),
		agenttest.Text("made it", 5),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "notes\n")
	out := filepath.Join(s.Dir, "out.txt")
	ts := e2etest.NewTmuxScreen(t, s, 110, 34, "-s", "undo")
	ts.WaitFor("the screen to open", "Ask pincer", "notes.txt")
	ts.Keys("make the file", "Enter")
	ts.WaitFor("the approval", "echo made > out.txt", "y ")
	time.Sleep(400 * time.Millisecond) // a new dialog ignores keys at first
	ts.Keys("y")
	ts.WaitFor("the answer", "made it", "idle")
	if _, err := os.Stat(out); err != nil {
		t.Fatalf("the command did not run: %v", err)
	}

	ts.Keys("/undo", "Enter")
	screen := ts.WaitFor("the preview", "Rewind to #1", "out.txt", "y rewind")
	if !strings.Contains(screen, "1 message") && !strings.Contains(screen, "messages after it") {
		t.Errorf("the preview does not say what happens to the conversation:\n%s", screen)
	}
	time.Sleep(400 * time.Millisecond)
	ts.Keys("y")
	ts.WaitFor("the rewind", "Rewound to #1", "› make the file")
	if _, err := os.Stat(out); err == nil {
		t.Error("out.txt survived the undo")
	}

	ts.Keys("C-u", "/redo", "Enter")
	ts.WaitFor("the redo", "Redone")
	if data, err := os.ReadFile(out); err != nil || string(data) != "made\n" {
		t.Errorf("after /redo out.txt = %q, %v", data, err)
	}
}
