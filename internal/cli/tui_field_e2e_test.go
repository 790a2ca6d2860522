package cli

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
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
	s := newSandbox(t, srv.BaseURL())
	ts := newTmuxScreen(t, s, 100, 30, "-c")
	ts.waitFor("the notice on the first screen", "Ask pincer", "no earlier session")
}

// TestTUIRefusedKeyIsAnExplainedError: a 401 shows one sentence naming the
// key's variable, and no "(interrupted)".
func TestTUIRefusedKeyIsAnExplainedError(t *testing.T) {
	srv := agenttest.New(agenttest.Error(401, "Incorrect API key provided"))
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	s.env = append(s.env, "PINCER_API_KEY=sk-wrong")
	ts := newTmuxScreen(t, s, 120, 30)
	ts.waitFor("the screen to open", "Ask pincer")
	ts.keys("hello", "Enter")
	screen := ts.waitFor("the error", "refused the API key", "PINCER_API_KEY")
	if strings.Contains(screen, "interrupted") {
		t.Errorf("a refused key reads as an interruption:\n%s", screen)
	}
}

// TestSessionsShowOnce: `pincer sessions show` gives the details once,
// then the transcript, then how to resume.
func TestSessionsShowOnce(t *testing.T) {
	srv := agenttest.New(agenttest.Text("hello there", 5))
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	if r := s.run("", "run", "-s", "alpha", "hi"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := s.run("", "sessions", "show", "alpha")
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	for _, once := range []string{s.dir, "test-model", "hello there"} {
		if n := strings.Count(r.stdout, once); n != 1 {
			t.Errorf("%q appears %d times, want once:\n%s", once, n, r.stdout)
		}
	}
	if !strings.HasSuffix(r.stdout, "Resume it with: pincer -s alpha\n") {
		t.Errorf("the output does not end with the resume hint:\n%s", r.stdout)
	}
}

// TestHelpListsOnlyTheCommandsFlags: a subcommand's help shows the flags
// it uses, not every flag pincer has.
func TestHelpListsOnlyTheCommandsFlags(t *testing.T) {
	s := newSandbox(t, "")
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
		r := s.run("", c.args...)
		out := r.stdout + r.stderr
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
	if r := s.run("", "config", "--model", "x-model"); !strings.Contains(r.stdout, "x-model") {
		t.Errorf("config --model: %q %q", r.stdout, r.stderr)
	}
}

// TestSetupQuitNamesTheRealConfigFile: leaving the first-run setup says
// where the config file really is when XDG_CONFIG_HOME points outside the
// home directory.
func TestSetupQuitNamesTheRealConfigFile(t *testing.T) {
	s := newSandbox(t, "")
	xdg := t.TempDir()
	for i, e := range s.env {
		if strings.HasPrefix(e, "XDG_CONFIG_HOME=") {
			s.env[i] = "XDG_CONFIG_HOME=" + xdg
		}
	}
	if c, err := net.DialTimeout("tcp", "127.0.0.1:11434", time.Second); err == nil {
		c.Close()
		t.Skip("a local Ollama answers, so pincer skips the setup")
	}
	ts := newTmuxScreen(t, s, 120, 30)
	ts.waitFor("the setup", "Esc quit")
	ts.keys("C-c")
	screen := ts.waitFor("the quit message", "[pincer exited]", "nothing was saved")
	want := xdg + "/pincer/config.json"
	if !strings.Contains(strings.ReplaceAll(screen, "\n", ""), want) || strings.Contains(screen, "~/.config") {
		t.Errorf("the quit message does not name %s:\n%s", want, screen)
	}
}

func TestInvocation(t *testing.T) {
	cases := []struct{ exe, want string }{
		{"/usr/local/bin/pincer", "pincer"},
		{"/home/u/go/bin/pincer", "pincer"},
		{"/tmp/go-build3418723/b001/exe/pincer", "go run ."},
		{"/var/folders/x/T/go-build123/b001/exe/pincer", "go run ."},
		{"/home/u/src/go-builder/pincer", "pincer"},
	}
	for _, c := range cases {
		if got := invocation(c.exe); got != c.want {
			t.Errorf("invocation(%q) = %q, want %q", c.exe, got, c.want)
		}
	}
}

// TestResumeHintAfterGoRun: a pincer started with go run says to resume
// with go run, not with a pincer that may not be installed.
func TestResumeHintAfterGoRun(t *testing.T) {
	srv := agenttest.New(agenttest.Text("hello", 5))
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	if r := s.run("", "run", "-s", "alpha", "hi"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	// A copy of the binary where go run puts its builds.
	dir := filepath.Join(t.TempDir(), "go-build1234", "b001", "exe")
	os.MkdirAll(dir, 0o755)
	data, err := os.ReadFile(binary(t))
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "pincer")
	os.WriteFile(exe, data, 0o755)
	cmd := exec.Command(exe, "sessions", "fork", "alpha", "beta")
	cmd.Dir, cmd.Env = s.dir, s.env
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Resume it with: go run . -s beta") {
		t.Errorf("fork from a go run build: %v\n%s", err, out)
	}
}

// answerDialog presses key until the dialog titled title closes: a new
// dialog ignores keys for a moment, so the first press may go unheard.
// After each press it waits for the dialog to go before pressing again, so
// no press reaches the input.
func (ts *tmuxScreen) answerDialog(key, title string) {
	ts.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ts.keys(key)
		for wait := time.Now().Add(600 * time.Millisecond); time.Now().Before(wait); time.Sleep(30 * time.Millisecond) {
			if !strings.Contains(ts.capture(), title) {
				return
			}
		}
	}
	ts.t.Fatalf("pressing %s never closed %q:\n%s", key, title, ts.capture())
}

// lineWith is the first line of screen that contains s.
func lineWith(screen, s string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
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
	s := newSandbox(t, srv.BaseURL())
	s.write("notes.txt", "remember the milk\n")
	ts := newTmuxScreen(t, s, 100, 36, "-s", "field")
	ts.waitFor("the screen", "Ask pincer")

	// 1. Two turns whose calls the server names call_0; the second refused.
	ts.keys("list the text files", "Enter")
	ts.waitFor("the first answer", "One file.")
	ts.keys("make d1", "Enter")
	ts.waitFor("the approval", "mkdir d1", "Run this command?")
	ts.answerDialog("n", "Run this command?")
	screen := ts.waitFor("the refusal", "Not made.")
	if l := lineWith(screen, "run_command"); !strings.Contains(l, "mkdir d1") {
		t.Errorf("the refused card reads %q:\n%s", l, screen)
	}
	if l := lineWith(screen, "glob"); !strings.Contains(l, "*.txt") {
		t.Errorf("the first card reads %q:\n%s", l, screen)
	}

	// 5. Esc with a prompt queued: the turn stops, the prompt waits.
	ts.keys("tell a long story", "Enter")
	ts.waitFor("the story to stream", "Streaming on and on.")
	ts.keys("then this", "Enter")
	ts.waitFor("the queued prompt", "1 queued")
	ts.keys("Escape")
	screen = ts.waitFor("the stop", "back in the input", "idle", "› then this")
	if n := len(srv.Requests()); n != 5 {
		t.Errorf("%d requests after Esc, want 5: the queued prompt was sent\n%s", n, screen)
	}
	ts.keys("C-u")

	// 9. A long line wraps without a › on its continuation rows.
	ts.keys(strings.Repeat("wrap ", 50) + "END")
	screen = ts.waitFor("the long input", "END")
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
	ts.keys("C-u")
	screen = ts.waitFor("an empty input", "Ask pincer…")

	// 2. A bracketed paste with CR line breaks.
	var paste strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&paste, "pasted line %d\r", i)
	}
	if out, err := exec.Command("tmux", "-L", ts.socket, "set-buffer", "-b", "field", paste.String()).CombinedOutput(); err != nil {
		t.Fatalf("set-buffer: %v %s", err, out)
	}
	if out, err := exec.Command("tmux", "-L", ts.socket, "paste-buffer", "-p", "-b", "field", "-t", ts.name).CombinedOutput(); err != nil {
		t.Fatalf("paste-buffer: %v %s", err, out)
	}
	ts.waitFor("the paste label", "[pasted text #1: 300 lines]")
	ts.keys("C-u")

	// 14. @file attaches the file.
	ts.keys("what does @notes.txt say?", "Enter")
	ts.waitFor("the answer", "Attached notes.txt (1 line).", "Read it.")
	reqs := srv.Requests()
	if got := userContents(reqs[len(reqs)-1]); !strings.Contains(strings.Join(got, "\n"), "remember the milk") {
		t.Errorf("the model did not get the file: %q", got)
	}

	// 13. A one-line edit gets a short review.
	ts.keys("change the note", "Enter")
	screen = ts.waitFor("the review", "Review the edit", "remember the bread")
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
	ts.answerDialog("y", "Review the edit")
	ts.waitFor("the edit to land", "Changed.")
	ts.keys("C-c", "C-c")
	ts.waitFor("pincer to exit", "[pincer exited]")
}

// TestTUIReadOnlyProject: an edit in a project that cannot be written says
// why on its card, cause first, without asking for a review first.
func TestTUIReadOnlyProject(t *testing.T) {
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "write_file", Arguments: `{"path":"new.txt","content":"hi\n"}`}),
		agenttest.Text("It cannot be written.", 6),
	)
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	s.env = append(s.env, "PINCER_DATA_DIR="+t.TempDir())
	if err := os.Chmod(s.dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(s.dir, 0o755) })
	if f, err := os.CreateTemp(s.dir, "probe"); err == nil { // root ignores modes
		f.Close()
		os.Remove(f.Name())
		if err := exec.Command("chattr", "+i", s.dir).Run(); err != nil {
			agenttest.Missing(t, fmt.Sprintf("cannot make a read-only directory here: %v", err))
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", s.dir).Run() })
	}
	ts := newTmuxScreen(t, s, 100, 30)
	ts.waitFor("the screen", "Ask pincer")
	ts.keys("write new.txt", "Enter")
	screen := ts.waitFor("the answer", "It cannot be written.")
	if l := lineWith(screen, "permission denied"); !strings.Contains(l, "permission denied: cannot write new.txt") {
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
	s := newSandbox(t, srv.BaseURL())
	s.write("big.txt", strings.Repeat("a line of the big file, long enough\n", 600))
	ts := newTmuxScreen(t, s, 120, 40, "--context-window", "8000")
	ts.waitFor("the screen", "Ask pincer")
	for _, turn := range [][2]string{{"read big", "ok one"}, {"again", "ok two"}, {"more", "ok three"}, {"read it again", "ok four"}} {
		ts.keys(turn[0], "Enter")
		ts.waitFor("the answer", turn[1])
		ts.waitFor("idle", "idle")
	}
	ts.keys("/compact", "Enter")
	var screen string
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		screen = ts.capture()
		i := strings.LastIndex(screen, "Compressing older messages")
		if i >= 0 && strings.Contains(screen[i:], "compressed ──") && strings.Contains(screen, " idle ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/compact did not finish:\n%s", screen)
		}
	}
	l := lineWith(screen, "ctx ")
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
