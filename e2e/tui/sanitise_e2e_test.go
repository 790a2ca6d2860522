package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// TestTUIApprovalShowsHiddenLines runs the real binary in tmux: the model
// asks to run "ls -la", 60 newlines and "touch CANARY". The dialog must say
// how many lines the command has, keep its keys on screen, and let the
// hidden last line be scrolled to; refusing must not run it.
func TestTUIApprovalShowsHiddenLines(t *testing.T) {
	command := "ls -la" + strings.Repeat("\n", 60) + "touch CANARY"
	args, _ := json.Marshal(map[string]string{"command": command})
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: string(args)}),
		agenttest.Text("Understood.", 8),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	ts := e2etest.NewTmuxScreen(t, s, 100, 24, "-s", "hidden")
	ts.WaitFor("the screen", "Ask pincer")
	ts.Keys("list the files", "Enter")
	screen := ts.WaitFor("the approval", "Run this command?", "1 ls -la", "61 lines", "lines 1–", "of 61", "y allow once", "n deny")
	if strings.Contains(screen, "61 touch CANARY") {
		t.Errorf("the last line is on the first screen; the dialog is too tall to test scrolling:\n%s", screen)
	}
	time.Sleep(400 * time.Millisecond) // a new dialog ignores keys at first
	for range 70 {
		ts.Keys("Down")
	}
	ts.WaitFor("the hidden line after scrolling", "61 touch CANARY", "of 61", "tier confirm", "y allow once", "n deny")
	ts.Keys("PageUp")
	ts.Keys("End")
	ts.WaitFor("the end after End", "61 touch CANARY")
	ts.Keys("n")
	ts.WaitFor("the answer", "Understood.")
	if _, err := os.Stat(filepath.Join(s.Dir, "CANARY")); err == nil {
		t.Error("the refused command ran")
	}
	ts.Keys("C-c", "C-c")
	ts.WaitFor("pincer to exit", "[pincer exited]")
}

// TestRunAndShowSanitiseOnATerminal runs `pincer run` and `pincer sessions
// show` in a real terminal with an answer that clears the screen, writes
// the clipboard and reverses text: the terminal must show them escaped.
func TestRunAndShowSanitiseOnATerminal(t *testing.T) {
	hostile := "before \x1b[2J\x1b]52;c;Y2FuYXJ5\x07 \u202eevil after"
	visible := "before ␛[2J␛]52;c;Y2FuYXJ5␇ ⟨U+202E⟩evil after"
	srv := agenttest.New(agenttest.Text(hostile, 7))
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "x\n")

	ts := e2etest.NewTmuxScreen(t, s, 100, 20, "run", "-s", "hostile", "hello")
	screen := ts.WaitFor("pincer run to finish", "[pincer exited]")
	if !strings.Contains(screen, visible) {
		t.Errorf("pincer run on a terminal does not show %q:\n%s", visible, screen)
	}

	show := e2etest.NewTmuxScreen(t, s, 100, 30, "sessions", "show", "hostile")
	screen = show.WaitFor("sessions show to finish", "[pincer exited]")
	if !strings.Contains(screen, visible) {
		t.Errorf("sessions show on a terminal does not show %q:\n%s", visible, screen)
	}

	// The project's instructions, printed by pincer prompt, are foreign too.
	s.Write("AGENTS.md", "Be kind. "+hostile+"\n")
	prompt := e2etest.NewTmuxScreen(t, s, 100, 40, "prompt")
	screen = prompt.WaitFor("pincer prompt to finish", "[pincer exited]")
	if !strings.Contains(screen, visible) {
		t.Errorf("pincer prompt on a terminal does not show %q:\n%s", visible, screen)
	}
	if r := s.Run("", "prompt"); !strings.Contains(r.Stdout, hostile) {
		t.Errorf("a piped prompt changed the instructions:\n%q", r.Stdout)
	}

	// Piped, the answer is exact.
	if r := s.Run("", "sessions", "export", "hostile"); !strings.Contains(r.Stdout, hostile) {
		t.Errorf("a piped export changed the answer:\n%q", r.Stdout)
	}
}
