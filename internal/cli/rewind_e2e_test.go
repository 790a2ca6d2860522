package cli

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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

// requestText is everything a chat request sent, as text.
func requestText(r agenttest.Request) string {
	data, _ := json.Marshal(r.Body["messages"])
	return string(data)
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
	s := newSandbox(t, srv.BaseURL())
	s.write("edit.txt", "original\n")
	s.write("gone.txt", "keep me\n")
	s.write(".gitignore", "ignored.log\n")
	s.write("ignored.log", "not mine to touch\n")
	// A repository of the person's own, which nothing may change.
	s.write(".git/HEAD", "ref: refs/heads/main\n")
	s.write(".git/index", "DIRC\x00\x00\x00\x02")
	s.write(".git/refs/heads/main", "0123456789abcdef0123456789abcdef01234567\n")
	s.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 1\n")
	gitBefore := treeHash(t, filepath.Join(s.dir, ".git"))

	if r := s.run("", "run", "-s", "rw", "--dangerously-approve-all", "change three files"); r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	after := map[string]string{"edit.txt": "edited\n", "out.txt": "made\n", "gone.txt": ""}
	check := func(when string, want map[string]string) {
		t.Helper()
		for name, content := range want {
			data, err := os.ReadFile(filepath.Join(s.dir, name))
			switch {
			case content == "" && err == nil:
				t.Errorf("%s: %s exists, want it gone", when, name)
			case content != "" && string(data) != content:
				t.Errorf("%s: %s = %q (%v), want %q", when, name, data, err, content)
			}
		}
	}
	check("after the turn", after)

	r := s.run("", "sessions", "checkpoints", "rw", "--json")
	var turns []struct {
		N        int  `json:"n"`
		Recorded bool `json:"files_recorded"`
		Changed  *int `json:"files_changed_since"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &turns); err != nil || len(turns) != 1 || !turns[0].Recorded || turns[0].Changed == nil || *turns[0].Changed != 3 {
		t.Fatalf("sessions checkpoints --json: %v %+v\n%s%s", err, turns, r.stdout, r.stderr)
	}

	before := map[string]string{"edit.txt": "original\n", "out.txt": "", "gone.txt": "keep me\n", "ignored.log": "not mine to touch\n"}
	if r := s.run("", "sessions", "rewind", "rw"); r.code != 0 {
		t.Fatalf("rewind: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	check("after the rewind", before)
	if r := s.run("", "sessions", "rewind", "rw", "--redo"); r.code != 0 {
		t.Fatalf("redo: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	check("after the redo", after)
	if r := s.run("", "sessions", "rewind", "rw", "--to", "1"); r.code != 0 {
		t.Fatalf("second rewind: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	check("after the second rewind", before)

	// A file changed by hand is not overwritten without --force.
	if r := s.run("", "run", "-s", "rw", "--dangerously-approve-all", "next prompt"); r.code != 0 {
		t.Fatalf("next run: exit %d\n%s", r.code, r.stderr)
	}
	reqs := srv.Requests()
	last := requestText(reqs[len(reqs)-1])
	if strings.Contains(last, "change three files") || strings.Contains(last, "echo made") || !strings.Contains(last, "next prompt") {
		t.Errorf("the request after the rewind still holds the rewound turn (or lacks the new prompt):\n%s", last)
	}
	s.write("edit.txt", "by hand\n")
	r = s.run("", "sessions", "rewind", "rw")
	if r.code == 0 || !strings.Contains(r.stderr, "edit.txt") || !strings.Contains(r.stderr, "--force") {
		t.Errorf("rewind over a file changed by hand: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	check("after the refused rewind", map[string]string{"edit.txt": "by hand\n"})

	if got := treeHash(t, filepath.Join(s.dir, ".git")); got != gitBefore {
		t.Error("the project's .git changed")
	}

	// Deleting the session deletes the snapshots only it used.
	st, err := session.Open(filepath.Join(s.home, "data", "pincer.db"), session.Options{})
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
		snaps, err := checkpoint.Open(filepath.Join(s.home, "data", "checkpoints", checkpoint.Key(s.dir)), s.dir, checkpoint.Options{})
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
	if r := s.run("", "sessions", "rm", "rw", "--yes"); r.code != 0 {
		t.Fatalf("sessions rm: exit %d\n%s", r.code, r.stderr)
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
	s := newSandbox(t, srv.BaseURL())
	s.write("notes.txt", "notes\n")
	out := filepath.Join(s.dir, "out.txt")
	ts := newTmuxScreen(t, s, 110, 34, "-s", "undo")
	ts.waitFor("the screen to open", "Ask pincer", "notes.txt")
	ts.keys("make the file", "Enter")
	ts.waitFor("the approval", "echo made > out.txt", "y ")
	time.Sleep(400 * time.Millisecond) // a new dialog ignores keys at first
	ts.keys("y")
	ts.waitFor("the answer", "made it", "idle")
	if _, err := os.Stat(out); err != nil {
		t.Fatalf("the command did not run: %v", err)
	}

	ts.keys("/undo", "Enter")
	screen := ts.waitFor("the preview", "Rewind to #1", "out.txt", "y rewind")
	if !strings.Contains(screen, "1 message") && !strings.Contains(screen, "messages after it") {
		t.Errorf("the preview does not say what happens to the conversation:\n%s", screen)
	}
	time.Sleep(400 * time.Millisecond)
	ts.keys("y")
	ts.waitFor("the rewind", "Rewound to #1", "› make the file")
	if _, err := os.Stat(out); err == nil {
		t.Error("out.txt survived the undo")
	}

	ts.keys("C-u", "/redo", "Enter")
	ts.waitFor("the redo", "Redone")
	if data, err := os.ReadFile(out); err != nil || string(data) != "made\n" {
		t.Errorf("after /redo out.txt = %q, %v", data, err)
	}
}
