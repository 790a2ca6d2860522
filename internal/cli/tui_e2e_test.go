package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// tmuxScreen drives the real binary in a real terminal: tmux, on a socket
// of its own so it never touches the developer's sessions.
type tmuxScreen struct {
	t      *testing.T
	socket string
	name   string
}

func newTmuxScreen(t *testing.T, s *sandbox, w, h int, args ...string) *tmuxScreen {
	t.Helper()
	if testing.Short() {
		t.Skip("the screen's end-to-end tests run without -short (.ci/run runs them)")
	}
	switch missing, fail := tmuxMissing(os.Getenv, exec.LookPath); {
	case fail:
		t.Fatal(missing)
	case missing != "":
		t.Skip(missing)
	}
	ts := &tmuxScreen{t: t, socket: fmt.Sprintf("pincer-e2e-%d-%d", os.Getpid(), time.Now().UnixNano()), name: "e2e"}
	var env []string
	for _, e := range s.env {
		env = append(env, "-e", e)
	}
	// After pincer exits the pane stays, so its last words can be read.
	command := strings.Join(append([]string{binary(t)}, args...), " ") + "; echo '[pincer exited]'; sleep 30"
	cmdArgs := append([]string{"-L", ts.socket, "new-session", "-d", "-s", ts.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-c", s.dir}, env...)
	cmdArgs = append(cmdArgs, command)
	if out, err := exec.Command("tmux", cmdArgs...).CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v: %s", err, out)
	}
	t.Cleanup(func() {
		// pincer ends on the hang-up, but may still be writing (a
		// checkpoint of the turn) when the test's directories are
		// removed: wait until it is gone.
		pane, _ := exec.Command("tmux", "-L", ts.socket, "display", "-p", "-t", ts.name, "#{pane_pid}").Output()
		kids := childPids(strings.TrimSpace(string(pane)))
		exec.Command("tmux", "-L", ts.socket, "kill-server").Run()
		for _, pid := range kids {
			for deadline := time.Now().Add(10 * time.Second); agenttest.Alive(pid) && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
		}
	})
	return ts
}

// childPids are the processes the pane's shell started (pincer), read from
// /proc; none where there is no /proc.
func childPids(pane string) []int {
	data, err := os.ReadFile("/proc/" + pane + "/task/" + pane + "/children")
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// tmuxMissing says why the screen tests cannot run, and whether that is a
// failure: without tmux they skip on a developer's machine, but under CI
// (CI=true) a missing tmux would silently drop them, so it fails.
func tmuxMissing(getenv func(string) string, lookPath func(string) (string, error)) (why string, fail bool) {
	if _, err := lookPath("tmux"); err == nil {
		return "", false
	}
	if getenv("CI") == "true" {
		return "tmux is not installed; CI must run the end-to-end tests of the screen (.ci/run installs it)", true
	}
	return "tmux is not installed (.ci/run installs it)", false
}

func (ts *tmuxScreen) capture() string {
	out, err := exec.Command("tmux", "-L", ts.socket, "capture-pane", "-p", "-t", ts.name).Output()
	if err != nil {
		ts.t.Fatalf("capture-pane: %v", err)
	}
	return string(out)
}

func (ts *tmuxScreen) keys(keys ...string) {
	ts.t.Helper()
	args := append([]string{"-L", ts.socket, "send-keys", "-t", ts.name}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		ts.t.Fatalf("send-keys: %v: %s", err, out)
	}
}

// waitFor waits until the screen shows all of want.
func (ts *tmuxScreen) waitFor(what string, want ...string) string {
	ts.t.Helper()
	return ts.waitUntil(what, fmt.Sprintf("showed %q", want), func(screen string) bool {
		for _, w := range want {
			if !strings.Contains(screen, w) {
				return false
			}
		}
		return true
	})
}

// waitUntil waits until the screen satisfies ok; never is what the failure
// says the screen never did.
func (ts *tmuxScreen) waitUntil(what, never string, ok func(screen string) bool) string {
	ts.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var screen string
	for time.Now().Before(deadline) {
		screen = ts.capture()
		if ok(screen) {
			return screen
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.t.Fatalf("waiting for %s: the screen never %s:\n%s", what, never, screen)
	return ""
}

// TestTUIEndToEnd starts pincer in tmux against the in-repo server, types
// a prompt, watches the answer and a tool card stream in, scrolls, cancels
// a turn with Esc, quits, and reads the resume hint.
func TestTUIEndToEnd(t *testing.T) {
	long := strings.Repeat("This line is part of a long answer that keeps streaming.\n\n", 60)
	slow := agenttest.Reply{Body: agenttest.TextBody(long, 20, 10, 10), Piece: 300, Delay: 40 * time.Millisecond}
	srv := agenttest.New(
		agenttest.Tools("Let me look.", agenttest.Call{ID: "call_1", Name: "run_command", Arguments: `{"command":"ls"}`}),
		agenttest.Text("The project has **notes.txt** in it.", 6),
		slow,
	)
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	s.write("notes.txt", "remember the milk\n")
	ts := newTmuxScreen(t, s, 100, 30, "-s", "e2e")
	ts.waitFor("the screen to open", "Ask pincer", "test-model", "e2e", "notes.txt")

	ts.keys("what is here?", "Enter")
	screen := ts.waitFor("the answer and the tool card", "what is here?", "run_command", "ls", "The project has notes.txt in it.", "idle")
	if !strings.Contains(screen, "✓") {
		t.Errorf("the tool card shows no outcome:\n%s", screen)
	}

	// A long answer: scroll up while it streams, see that more arrives
	// below, then cancel it with Esc.
	ts.keys("tell me a long story", "Enter")
	ts.waitFor("the long answer to stream", "This line is part of a long answer", "streaming")
	// Wait until the answer is longer than the pane, so there is
	// something to scroll back to.
	for deadline := time.Now().Add(10 * time.Second); strings.Count(ts.capture(), "This line is part") < 12; {
		if time.Now().After(deadline) {
			t.Fatalf("the answer did not grow:\n%s", ts.capture())
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.keys("PageUp")
	ts.waitFor("the new-output marker", "new output")
	// The answer may have grown by more than a page before the key
	// arrived on a busy machine: page up until the first prompt shows,
	// which only a view that stopped following the stream can do.
	for i := 0; !strings.Contains(ts.capture(), "what is here?"); i++ {
		if i == 8 {
			t.Fatalf("eight pages up never showed the first prompt:\n%s", ts.capture())
		}
		ts.keys("PageUp")
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(ts.capture(), "new output") {
		t.Errorf("the new-output marker went away while scrolled up:\n%s", ts.capture())
	}
	ts.keys("Escape")
	ts.waitFor("the turn to stop", "idle")
	ts.keys("End")
	ts.waitFor("the interrupted mark", "(interrupted)")

	ts.keys("C-c")
	ts.keys("C-c")
	screen = ts.waitFor("pincer to exit", "[pincer exited]")
	if !strings.Contains(screen, "pincer -s e2e") {
		t.Errorf("no resume hint after quitting:\n%s", screen)
	}
	for i, r := range srv.Requests() {
		if r.Strict != nil {
			t.Errorf("request %d: %v", i, r.Strict)
		}
	}
	if n := len(exported(t, s, "e2e").Messages); n < 6 {
		t.Errorf("the session holds %d messages after the TUI run, want at least 6", n)
	}
}

// TestTUIDialogsEndToEnd approves a dangerous command in two steps, refuses
// a command and checks the model is told, accepts one hunk of a two-hunk
// edit and checks the file on disk, and resumes a named session from the
// picker.
func TestTUIDialogsEndToEnd(t *testing.T) {
	var before, after strings.Builder
	for i := 1; i <= 12; i++ {
		before.WriteString(fmt.Sprintf("line %d\n", i))
		switch i {
		case 2:
			after.WriteString("line two, edited\n")
		case 11:
			after.WriteString("line eleven, edited\n")
		default:
			after.WriteString(fmt.Sprintf("line %d\n", i))
		}
	}
	writeArgs, _ := json.Marshal(map[string]string{"path": "f.txt", "content": after.String()})
	srv := agenttest.New(
		agenttest.Text("hello from the other session", 8), // pincer run -s other
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command":"rm -rf build"}`}),
		agenttest.Text("Cleaned the build directory.", 8),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "run_command", Arguments: `{"command":"touch made.txt"}`}),
		agenttest.Text("Understood, I left it.", 8),
		agenttest.Tools("", agenttest.Call{ID: "c3", Name: "write_file", Arguments: string(writeArgs)}),
		agenttest.Text("Edited f.txt.", 8),
	)
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	s.write("build/out.o", "object")
	s.write("f.txt", before.String())
	if r := s.run("", "run", "-s", "other", "say hello"); r.code != 0 {
		t.Fatalf("pincer run: %d %s", r.code, r.stderr)
	}
	ts := newTmuxScreen(t, s, 110, 34, "-s", "main")
	ts.waitFor("the screen", "Ask pincer")
	// A new dialog ignores keys for its first 300 ms (a key still held from
	// before must not answer it). The dialog was opened before it was
	// drawn, so waiting this long after seeing it always clears that
	// time; it is a lower bound, not a guess at how long something takes.
	settle := func() { time.Sleep(400 * time.Millisecond) }

	// A dangerous command: two separate confirmations.
	ts.keys("clean the build", "Enter")
	ts.waitFor("the first warning", "Dangerous", "rm -rf build", "recursive")
	settle()
	ts.keys("y")
	ts.waitFor("the second confirmation", "Second confirmation", "Type yes")
	settle()
	ts.keys("y", "y", "Enter") // repeating the first key must not pass
	// Keys are handled in order: once a marker typed after them shows in
	// the dialog's input, the Enter has been handled, and the dialog
	// must still be asking.
	ts.keys("qqq")
	ts.waitFor("the keys before the marker to be handled", "qqq", "Second confirmation")
	if _, err := os.Stat(filepath.Join(s.dir, "build")); err != nil {
		t.Fatal("repeating y passed the second confirmation")
	}
	ts.keys("C-u")
	ts.keys("yes", "Enter")
	ts.waitFor("the answer", "Cleaned the build directory.")
	if _, err := os.Stat(filepath.Join(s.dir, "build")); !os.IsNotExist(err) {
		t.Errorf("build/ still exists after two confirmations: %v", err)
	}

	// A refusal reaches the model as the cancellation.
	ts.keys("touch a file", "Enter")
	ts.waitFor("the approval", "Run this command?", "touch made.txt")
	settle()
	ts.keys("n")
	ts.waitFor("the answer", "Understood, I left it.")
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	msgs := last.Body["messages"].([]any)
	if got := msgs[len(msgs)-1].(map[string]any)["content"]; got != "User cancelled the operation" {
		t.Errorf("the model received %q for the refused call", got)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "made.txt")); err == nil {
		t.Error("the refused command ran")
	}

	// An edit with two hunks: keep only the second.
	ts.keys("edit f.txt", "Enter")
	ts.waitFor("the diff", "Review the edit", "hunk 1/2", "line two, edited")
	settle()
	ts.keys("Space")
	ts.waitFor("the dropped hunk", "rejected")
	ts.keys("y")
	ts.waitFor("the answer", "Edited f.txt.")
	data, _ := os.ReadFile(filepath.Join(s.dir, "f.txt"))
	want := strings.Replace(before.String(), "line 11\n", "line eleven, edited\n", 1)
	if string(data) != want {
		t.Errorf("f.txt on disk:\n%s\nwant only the second hunk applied:\n%s", data, want)
	}
	reqs = srv.Requests()
	msgs = reqs[len(reqs)-1].Body["messages"].([]any)
	if got := msgs[len(msgs)-1].(map[string]any)["content"].(string); !strings.Contains(got, "rejected hunk 1") {
		t.Errorf("the model was not told which hunk was rejected: %q", got)
	}

	// Resume the other session from the picker.
	ts.keys("/sessions", "Enter")
	ts.waitFor("the picker", "Sessions", "other", "main (this one)")
	settle()
	ts.keys("other")
	ts.waitUntil("the filter to apply", `left only "other" in the list`, func(screen string) bool {
		return strings.Contains(screen, "other") && !strings.Contains(screen, "main (this one)")
	})
	ts.keys("Enter")
	ts.waitFor("the other session", "Resumed session other", "say hello", "hello from the other session")
	ts.keys("C-c", "C-c")
	screen := ts.waitFor("pincer to exit", "[pincer exited]")
	if !strings.Contains(screen, "pincer -s other") {
		t.Errorf("the resume hint does not name the session switched to:\n%s", screen)
	}
	for i, r := range srv.Requests() {
		if r.Strict != nil {
			t.Errorf("request %d: %v", i, r.Strict)
		}
	}
}

// TestTUIScheduledTask schedules a prompt with /schedule and watches it run
// in the session through the normal loop, then sees it listed as done.
func TestTUIScheduledTask(t *testing.T) {
	srv := agenttest.New(agenttest.Text("Checked: all green.", 6))
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	ts := newTmuxScreen(t, s, 100, 30, "-s", "sched")
	ts.waitFor("the screen", "Ask pincer")
	ts.keys("/schedule in 0s check the build", "Enter")
	ts.waitFor("the task to run", "Scheduled task: check the build", "Checked: all green.", "Scheduled task done.")
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want the task's one", len(reqs))
	}
	if got := userContents(reqs[0]); len(got) != 1 || got[0] != "[SYSTEM: AUTOMATED BACKGROUND TASK TRIGGERED]: check the build" {
		t.Errorf("the task's prompt went out as %q", got)
	}
	ts.keys("C-c", "C-c")
	ts.waitFor("pincer to exit", "[pincer exited]")
	if n := len(exported(t, s, "sched").Messages); n != 2 {
		t.Errorf("the session holds %d messages, want the task prompt and the answer", n)
	}
}

// TestTUITreeFollowsTheDisk: files made and removed outside pincer (here by
// the test, as by the person in another shell) show in the tree without
// any tool run.
func TestTUITreeFollowsTheDisk(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	s.write("notes.txt", "remember the milk\n")
	ts := newTmuxScreen(t, s, 100, 30, "-s", "watch")
	ts.waitFor("the screen to open", "Ask pincer", "notes.txt")

	s.write("made-elsewhere.txt", "hello\n")
	ts.waitFor("the new file in the tree", "made-elsewhere.txt")
	if err := os.Remove(filepath.Join(s.dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(15 * time.Second); strings.Contains(ts.capture(), "notes.txt"); {
		if time.Now().After(deadline) {
			t.Fatalf("a removed file stays in the tree:\n%s", ts.capture())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestTmuxMissingFailsUnderCI(t *testing.T) {
	found := func(string) (string, error) { return "/usr/bin/tmux", nil }
	notFound := func(string) (string, error) { return "", exec.ErrNotFound }
	env := func(ci string) func(string) string {
		return func(k string) string {
			if k == "CI" {
				return ci
			}
			return ""
		}
	}
	cases := []struct {
		name     string
		ci       string
		look     func(string) (string, error)
		skip     bool
		wantFail bool
	}{
		{"installed", "", found, false, false},
		{"installed under CI", "true", found, false, false},
		{"missing on a developer machine", "", notFound, true, false},
		{"missing under CI", "true", notFound, true, true},
	}
	for _, tc := range cases {
		why, fail := tmuxMissing(env(tc.ci), tc.look)
		if (why != "") != tc.skip || fail != tc.wantFail {
			t.Errorf("%s: tmuxMissing = %q, %v; want missing=%v fail=%v", tc.name, why, fail, tc.skip, tc.wantFail)
		}
	}
}
