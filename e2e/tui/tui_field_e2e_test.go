package tui

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// TestTUIContinueWithNothingSaysSoAtOnce: pincer -c in a directory without
// sessions says so on the first screen, not after quitting.
func TestTUIContinueWithNothingSaysSoAtOnce(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	ts := e2etest.NewTmuxScreen(t, s, 100, 30, "-c")
	ts.WaitFor("the notice on the first screen", "Ask pincer", "no earlier session")
}

// TestTUIRefusedKeyIsAnExplainedError: a 401 shows one sentence naming the
// key's variable, and no "(interrupted)".
func TestTUIRefusedKeyIsAnExplainedError(t *testing.T) {
	srv := agenttest.New(agenttest.Error(401, "Incorrect API key provided"))
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Env = append(s.Env, "PINCER_API_KEY=sk-wrong")
	ts := e2etest.NewTmuxScreen(t, s, 120, 30)
	ts.WaitFor("the screen to open", "Ask pincer")
	ts.Keys("hello", "Enter")
	screen := ts.WaitFor("the error", "refused the API key", "PINCER_API_KEY")
	if strings.Contains(screen, "interrupted") {
		t.Errorf("a refused key reads as an interruption:\n%s", screen)
	}
}

// TestSessionsShowOnce: `pincer sessions show` gives the details once,
// then the transcript, then how to resume.
func TestSessionsShowOnce(t *testing.T) {
	srv := agenttest.New(agenttest.Text("hello there", 5))
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	if r := s.Run("", "run", "-s", "alpha", "hi"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	r := s.Run("", "sessions", "show", "alpha")
	if r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	for _, once := range []string{s.Dir, "test-model", "hello there"} {
		if n := strings.Count(r.Stdout, once); n != 1 {
			t.Errorf("%q appears %d times, want once:\n%s", once, n, r.Stdout)
		}
	}
	if !strings.HasSuffix(r.Stdout, "Resume it with: pincer -s alpha\n") {
		t.Errorf("the output does not end with the resume hint:\n%s", r.Stdout)
	}
}

// TestHelpListsOnlyTheCommandsFlags: a subcommand's help shows the flags
// it uses, not every flag pincer has.
func TestHelpListsOnlyTheCommandsFlags(t *testing.T) {
	s := e2etest.NewSandbox(t, "")
	cases := []struct {
		args          []string
		want, notWant []string
	}{
		{[]string{"--help"}, []string{"--model", "--theme", "--session", "--continue", "--cwd"}, nil},
		{[]string{"run", "--help"}, []string{"--model", "--provider", "--session", "--continue", "--cwd"}, []string{"--theme"}},
		{[]string{"config", "--help"}, []string{"--model", "--theme"}, []string{"--session", "--continue"}},
		{[]string{"sessions", "rename", "--help"}, []string{"--cwd"}, []string{"--model", "--provider", "--theme", "--session", "--continue", "--max-iterations"}},
		{[]string{"classify", "--help"}, nil, []string{"--model", "--theme", "--session"}},
		{[]string{"tasks", "add", "--help"}, []string{"--session"}, []string{"--model", "--theme", "--continue"}},
		{[]string{"tasks", "run", "--help"}, []string{"--model"}, []string{"--theme", "--session"}},
	}
	for _, c := range cases {
		r := s.Run("", c.args...)
		out := r.Stdout + r.Stderr
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("pincer %s lacks %s:\n%s", strings.Join(c.args, " "), w, out)
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(out, w+" ") || strings.Contains(out, w+"\n") {
				t.Errorf("pincer %s lists %s, which it does not use", strings.Join(c.args, " "), w)
			}
		}
	}
	// The flags still work where they belong.
	if r := s.Run("", "config", "--model", "x-model"); !strings.Contains(r.Stdout, "x-model") {
		t.Errorf("config --model: %q %q", r.Stdout, r.Stderr)
	}
}

// TestSetupQuitNamesTheRealConfigFile: leaving the first-run setup says
// where the config file really is when XDG_CONFIG_HOME points outside the
// home directory.
func TestSetupQuitNamesTheRealConfigFile(t *testing.T) {
	s := e2etest.NewSandbox(t, "")
	xdg := t.TempDir()
	for i, e := range s.Env {
		if strings.HasPrefix(e, "XDG_CONFIG_HOME=") {
			s.Env[i] = "XDG_CONFIG_HOME=" + xdg
		}
	}
	if c, err := net.DialTimeout("tcp", "127.0.0.1:11434", time.Second); err == nil {
		c.Close()
		t.Skip("a local Ollama answers, so pincer skips the setup")
	}
	ts := e2etest.NewTmuxScreen(t, s, 120, 30)
	ts.WaitFor("the setup", "Esc quit")
	ts.Keys("C-c")
	screen := ts.WaitFor("the quit message", "[pincer exited]", "nothing was saved")
	want := xdg + "/pincer/config.json"
	if !strings.Contains(strings.ReplaceAll(screen, "\n", ""), want) || strings.Contains(screen, "~/.config") {
		t.Errorf("the quit message does not name %s:\n%s", want, screen)
	}
}

// TestResumeHintAfterGoRun: a pincer started with go run says to resume
// with go run, not with a pincer that may not be installed.
func TestResumeHintAfterGoRun(t *testing.T) {
	srv := agenttest.New(agenttest.Text("hello", 5))
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	if r := s.Run("", "run", "-s", "alpha", "hi"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	// A copy of the binary where go run puts its builds.
	dir := filepath.Join(t.TempDir(), "go-build1234", "b001", "exe")
	os.MkdirAll(dir, 0o755)
	data, err := os.ReadFile(e2etest.Binary(t))
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "pincer")
	os.WriteFile(exe, data, 0o755)
	cmd := exec.Command(exe, "sessions", "fork", "alpha", "beta")
	cmd.Dir, cmd.Env = s.Dir, s.Env
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Resume it with: go run . -s beta") {
		t.Errorf("fork from a go run build: %v\n%s", err, out)
	}
}

// TestTUIFieldScreens drives the real binary through what a new user met:
// reused tool-call ids, Esc with a queued prompt, a long input line, a CR
// paste, an attached file and a short edit's review.
func TestTUIFieldScreens(t *testing.T) {
	slow := agenttest.Reply{Body: agenttest.TextBody(strings.Repeat("Streaming on and on. ", 400), 20, 10, 10), Piece: 200, Delay: 50 * time.Millisecond}
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "call_0", Name: "glob", Arguments: `{"pattern":"*.txt"}`}),
		agenttest.Text("One file.", 6),
		agenttest.Tools("", agenttest.Call{ID: "call_0", Name: "run_command", Arguments: `{"command":"mkdir d1"}`}),
		agenttest.Text("Not made.", 6),
		slow,
		agenttest.Text("Read it.", 6),
		agenttest.Tools("", agenttest.Call{ID: "call_0", Name: "write_file", Arguments: `{"path":"notes.txt","content":"remember the bread\n"}`}),
		agenttest.Text("Changed.", 6),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "remember the milk\n")
	ts := e2etest.NewTmuxScreen(t, s, 100, 36, "-s", "field")
	ts.WaitFor("the screen", "Ask pincer")

	// 1. Two turns whose calls the server names call_0; the second refused.
	ts.Keys("list the text files", "Enter")
	ts.WaitFor("the first answer", "One file.")
	ts.Keys("make d1", "Enter")
	ts.WaitFor("the approval", "mkdir d1", "Run this command?")
	ts.AnswerDialog("n", "Run this command?")
	screen := ts.WaitFor("the refusal", "Not made.")
	if l := e2etest.LineWith(screen, "run_command"); !strings.Contains(l, "mkdir d1") {
		t.Errorf("the refused card reads %q:\n%s", l, screen)
	}
	if l := e2etest.LineWith(screen, "glob"); !strings.Contains(l, "*.txt") {
		t.Errorf("the first card reads %q:\n%s", l, screen)
	}

	// 5. Esc with a prompt queued: the turn stops, the prompt waits.
	ts.Keys("tell a long story", "Enter")
	ts.WaitFor("the story to stream", "Streaming on and on.")
	ts.Keys("then this", "Enter")
	ts.WaitFor("the queued prompt", "1 queued")
	ts.Keys("Escape")
	screen = ts.WaitFor("the stop", "back in the input", "idle", "› then this")
	if n := len(srv.Requests()); n != 5 {
		t.Errorf("%d requests after Esc, want 5: the queued prompt was sent\n%s", n, screen)
	}
	ts.Keys("C-u")

	// 9. A long line wraps without a › on its continuation rows.
	ts.Keys(strings.Repeat("wrap ", 50) + "END")
	screen = ts.WaitFor("the long input", "END")
	var marks, rows int
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "wrap") || strings.Contains(l, "END") {
			rows++
			if strings.HasPrefix(l, "›") {
				marks++
			}
		}
	}
	if rows < 2 || marks != 1 {
		t.Errorf("%d input rows with %d › marks, want one mark:\n%s", rows, marks, screen)
	}
	ts.Keys("C-u")
	screen = ts.WaitFor("an empty input", "Ask pincer…")

	// 2. A bracketed paste with CR line breaks.
	var paste strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&paste, "pasted line %d\r", i)
	}
	ts.Paste(paste.String())
	ts.WaitFor("the paste label", "[pasted text #1: 300 lines]")
	ts.Keys("C-u")

	// 14. @file attaches the file.
	ts.Keys("what does @notes.txt say?", "Enter")
	ts.WaitFor("the answer", "Attached notes.txt (1 line).", "Read it.")
	reqs := srv.Requests()
	if got := e2etest.UserContents(reqs[len(reqs)-1]); !strings.Contains(strings.Join(got, "\n"), "remember the milk") {
		t.Errorf("the model did not get the file: %q", got)
	}

	// 13. A one-line edit gets a short review.
	ts.Keys("change the note", "Enter")
	screen = ts.WaitFor("the review", "Review the edit", "remember the bread")
	top, bottom := -1, -1
	for i, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "╭") && top < 0 {
			top = i
		}
		if strings.Contains(l, "╰") {
			bottom = i
		}
	}
	if h := bottom - top + 1; top < 0 || h > 16 {
		t.Errorf("the review of a one-line edit is %d lines high:\n%s", h, screen)
	}
	ts.AnswerDialog("y", "Review the edit")
	ts.WaitFor("the edit to land", "Changed.")
	ts.Keys("C-c", "C-c")
	ts.WaitFor("pincer to exit", "[pincer exited]")
}

// TestTUIReadOnlyProject: an edit in a project that cannot be written says
// why on its card, cause first, without asking for a review first.
func TestTUIReadOnlyProject(t *testing.T) {
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "write_file", Arguments: `{"path":"new.txt","content":"hi\n"}`}),
		agenttest.Text("It cannot be written.", 6),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Env = append(s.Env, "PINCER_DATA_DIR="+t.TempDir())
	if err := os.Chmod(s.Dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(s.Dir, 0o755) })
	if f, err := os.CreateTemp(s.Dir, "probe"); err == nil { // root ignores modes
		f.Close()
		os.Remove(f.Name())
		if err := exec.Command("chattr", "+i", s.Dir).Run(); err != nil {
			agenttest.Missing(t, fmt.Sprintf("cannot make a read-only directory here: %v", err))
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", s.Dir).Run() })
	}
	ts := e2etest.NewTmuxScreen(t, s, 100, 30)
	ts.WaitFor("the screen", "Ask pincer")
	ts.Keys("write new.txt", "Enter")
	screen := ts.WaitFor("the answer", "It cannot be written.")
	if l := e2etest.LineWith(screen, "permission denied"); !strings.Contains(l, "permission denied: cannot write new.txt") {
		t.Errorf("the card does not lead with the cause:\n%s", screen)
	}
	if strings.Contains(screen, "Review the edit") {
		t.Errorf("a review was shown for an edit that cannot land:\n%s", screen)
	}
}

// TestTUICompactGauge: right after /compact the context gauge shows what
// the next request carries, never more than the window.
func TestTUICompactGauge(t *testing.T) {
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "call_0", Name: "read_file", Arguments: `{"path":"big.txt"}`}),
		agenttest.Text("ok one", 6),
		agenttest.Text("ok two", 6),
		agenttest.Text("ok three", 6),
		agenttest.Tools("", agenttest.Call{ID: "call_0", Name: "read_file", Arguments: `{"path":"big.txt"}`}),
		agenttest.Text("ok four", 6),
	)
	defer srv.Close()
	srv.SetResponder(func(r agenttest.Request) (agenttest.Reply, bool) {
		if strings.Contains(string(r.Raw), "Write the summary now") {
			return agenttest.Text("The user had a big file read.", 10), true
		}
		return agenttest.Reply{}, false
	})
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("big.txt", strings.Repeat("a line of the big file, long enough\n", 600))
	ts := e2etest.NewTmuxScreen(t, s, 120, 40, "--context-window", "8000")
	ts.WaitFor("the screen", "Ask pincer")
	for _, turn := range [][2]string{{"read big", "ok one"}, {"again", "ok two"}, {"more", "ok three"}, {"read it again", "ok four"}} {
		ts.Keys(turn[0], "Enter")
		ts.WaitFor("the answer", turn[1])
		ts.WaitFor("idle", "idle")
	}
	ts.Keys("/compact", "Enter")
	var screen string
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		screen = ts.Capture()
		i := strings.LastIndex(screen, "Compressing older messages")
		if i >= 0 && strings.Contains(screen[i:], "compressed ──") && strings.Contains(screen, " idle ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/compact did not finish:\n%s", screen)
		}
	}
	l := e2etest.LineWith(screen, "ctx ")
	i := strings.Index(l, "ctx ")
	var pct int
	if i < 0 {
		t.Fatalf("no gauge:\n%s", screen)
	}
	fmt.Sscanf(l[i+4:], "%d%%", &pct)
	if pct > 100 || pct <= 0 {
		t.Errorf("after /compact the gauge says %d%%:\n%s", pct, screen)
	}
}
