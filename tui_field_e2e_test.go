package main

import (
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
	data, err := os.ReadFile(pincerBin)
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
