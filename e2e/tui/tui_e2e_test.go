package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// TestTUIEndToEnd starts pincer in tmux against the in-repo server, types
// a prompt, watches the answer and a tool card stream in, scrolls, cancels
// a turn with Esc, quits, and reads the resume hint.
func TestTUIEndToEnd(t *testing.T) {
	// About eight seconds of streaming: the test pages up and presses Esc
	// while it still streams, which a busy machine can take seconds to do.
	long := strings.Repeat("This line is part of a long answer that keeps streaming.\n\n", 1000)
	slow := agenttest.Reply{Body: agenttest.TextBody(long, 20, 10, 10), Piece: 300, Delay: 40 * time.Millisecond}
	srv := agenttest.New(
		agenttest.Tools("Let me look.", agenttest.Call{ID: "call_1", Name: "run_command", Arguments: `{"command":"ls"}`}),
		agenttest.Text("The project has **notes.txt** in it.", 6),
		slow,
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "remember the milk\n")
	ts := e2etest.NewTmuxScreen(t, s, 100, 30, "-s", "e2e")
	ts.WaitFor("the screen to open", "Ask pincer", "test-model", "e2e", "notes.txt")

	ts.Keys("what is here?", "Enter")
	screen := ts.WaitFor("the answer and the tool card", "what is here?", "run_command", "ls", "The project has notes.txt in it.", "idle")
	if !strings.Contains(screen, "✓") {
		t.Errorf("the tool card shows no outcome:\n%s", screen)
	}

	// A long answer: scroll up while it streams, see that more arrives
	// below, then cancel it with Esc.
	ts.Keys("tell me a long story", "Enter")
	ts.WaitFor("the long answer to stream", "This line is part of a long answer", "streaming")
	// Wait until the answer is longer than the pane, so there is
	// something to scroll back to.
	for deadline := time.Now().Add(10 * time.Second); strings.Count(ts.Capture(), "This line is part") < 12; {
		if time.Now().After(deadline) {
			t.Fatalf("the answer did not grow:\n%s", ts.Capture())
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Keys("PageUp")
	ts.WaitFor("the new-output marker", "new output")
	// The answer may have grown by more than a page before the key
	// arrived on a busy machine: page up until the first prompt shows,
	// which only a view that stopped following the stream can do.
	for i := 0; !strings.Contains(ts.Capture(), "what is here?"); i++ {
		if i == 8 {
			t.Fatalf("eight pages up never showed the first prompt:\n%s", ts.Capture())
		}
		ts.Keys("PageUp")
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(ts.Capture(), "new output") {
		t.Errorf("the new-output marker went away while scrolled up:\n%s", ts.Capture())
	}
	ts.Keys("Escape")
	ts.WaitFor("the turn to stop", "idle")
	ts.Keys("End")
	ts.WaitFor("the interrupted mark", "(interrupted)")

	ts.Keys("C-c")
	ts.Keys("C-c")
	screen = ts.WaitFor("pincer to exit", "[pincer exited]")
	if !strings.Contains(screen, "pincer -s e2e") {
		t.Errorf("no resume hint after quitting:\n%s", screen)
	}
	for i, r := range srv.Requests() {
		if r.Strict != nil {
			t.Errorf("request %d: %v", i, r.Strict)
		}
	}
	if n := len(s.Exported("e2e").Messages); n < 6 {
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
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("build/out.o", "object")
	s.Write("f.txt", before.String())
	if r := s.Run("", "run", "-s", "other", "say hello"); r.Code != 0 {
		t.Fatalf("pincer run: %d %s", r.Code, r.Stderr)
	}
	ts := e2etest.NewTmuxScreen(t, s, 110, 34, "-s", "main")
	ts.WaitFor("the screen", "Ask pincer")
	// A new dialog ignores keys for its first 300 ms (a key still held from
	// before must not answer it). The dialog was opened before it was
	// drawn, so waiting this long after seeing it always clears that
	// time; it is a lower bound, not a guess at how long something takes.
	settle := func() { time.Sleep(400 * time.Millisecond) }

	// A dangerous command: two separate confirmations.
	ts.Keys("clean the build", "Enter")
	ts.WaitFor("the first warning", "Dangerous", "rm -rf build", "recursive")
	settle()
	ts.Keys("y")
	ts.WaitFor("the second confirmation", "Second confirmation", "Type yes")
	settle()
	ts.Keys("y", "y", "Enter") // repeating the first key must not pass
	// Keys are handled in order: once a marker typed after them shows in
	// the dialog's input, the Enter has been handled, and the dialog
	// must still be asking.
	ts.Keys("qqq")
	ts.WaitFor("the keys before the marker to be handled", "qqq", "Second confirmation")
	if _, err := os.Stat(filepath.Join(s.Dir, "build")); err != nil {
		t.Fatal("repeating y passed the second confirmation")
	}
	ts.Keys("C-u")
	ts.Keys("yes", "Enter")
	ts.WaitFor("the answer", "Cleaned the build directory.")
	if _, err := os.Stat(filepath.Join(s.Dir, "build")); !os.IsNotExist(err) {
		t.Errorf("build/ still exists after two confirmations: %v", err)
	}

	// A refusal reaches the model as the cancellation.
	ts.Keys("touch a file", "Enter")
	ts.WaitFor("the approval", "Run this command?", "touch made.txt")
	settle()
	ts.Keys("n")
	ts.WaitFor("the answer", "Understood, I left it.")
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	msgs := last.Body["messages"].([]any)
	if got := msgs[len(msgs)-1].(map[string]any)["content"]; got != "User cancelled the operation" {
		t.Errorf("the model received %q for the refused call", got)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "made.txt")); err == nil {
		t.Error("the refused command ran")
	}

	// An edit with two hunks: keep only the second.
	ts.Keys("edit f.txt", "Enter")
	ts.WaitFor("the diff", "Review the edit", "hunk 1/2", "line two, edited")
	settle()
	ts.Keys("Space")
	ts.WaitFor("the dropped hunk", "rejected")
	ts.Keys("y")
	ts.WaitFor("the answer", "Edited f.txt.")
	data, _ := os.ReadFile(filepath.Join(s.Dir, "f.txt"))
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
	ts.Keys("/sessions", "Enter")
	ts.WaitFor("the picker", "Sessions", "other", "main (this one)")
	settle()
	ts.Keys("other")
	ts.WaitUntil("the filter to apply", `left only "other" in the list`, func(screen string) bool {
		return strings.Contains(screen, "other") && !strings.Contains(screen, "main (this one)")
	})
	ts.Keys("Enter")
	ts.WaitFor("the other session", "Resumed session other", "say hello", "hello from the other session")
	ts.Keys("C-c", "C-c")
	screen := ts.WaitFor("pincer to exit", "[pincer exited]")
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
	s := e2etest.NewSandbox(t, srv.BaseURL())
	ts := e2etest.NewTmuxScreen(t, s, 100, 30, "-s", "sched")
	ts.WaitFor("the screen", "Ask pincer")
	ts.Keys("/schedule in 0s check the build", "Enter")
	ts.WaitFor("the task to run", "Scheduled task: check the build", "Checked: all green.", "Scheduled task done.")
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want the task's one", len(reqs))
	}
	if got := e2etest.UserContents(reqs[0]); len(got) != 1 || got[0] != "[SYSTEM: AUTOMATED BACKGROUND TASK TRIGGERED]: check the build" {
		t.Errorf("the task's prompt went out as %q", got)
	}
	ts.Keys("C-c", "C-c")
	ts.WaitFor("pincer to exit", "[pincer exited]")
	if n := len(s.Exported("sched").Messages); n != 2 {
		t.Errorf("the session holds %d messages, want the task prompt and the answer", n)
	}
}

// TestTUITreeFollowsTheDisk: files made and removed outside pincer (here by
// the test, as by the person in another shell) show in the tree without
// any tool run.
func TestTUITreeFollowsTheDisk(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "remember the milk\n")
	ts := e2etest.NewTmuxScreen(t, s, 100, 30, "-s", "watch")
	ts.WaitFor("the screen to open", "Ask pincer", "notes.txt")

	s.Write("made-elsewhere.txt", "hello\n")
	ts.WaitFor("the new file in the tree", "made-elsewhere.txt")
	if err := os.Remove(filepath.Join(s.Dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(15 * time.Second); strings.Contains(ts.Capture(), "notes.txt"); {
		if time.Now().After(deadline) {
			t.Fatalf("a removed file stays in the tree:\n%s", ts.Capture())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
