//go:build linux

package commands

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// hostileProject is a project whose instruction files link to endless
// devices and whose .pincer.json and SKILLS.md are named pipes nobody
// writes to.
func hostileProject(t *testing.T, s *e2etest.Sandbox) {
	t.Helper()
	for name, target := range map[string]string{"AGENTS.md": "/dev/zero", "CLAUDE.md": "/dev/urandom", "AGENT.md": "../outside-secret"} {
		if err := os.Symlink(target, filepath.Join(s.Dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(filepath.Dir(s.Dir), "outside-secret"), []byte("SECRET-OUTSIDE"), 0o644)
	for _, name := range []string{".pincer.json", "SKILLS.md"} {
		if err := syscall.Mkfifo(filepath.Join(s.Dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runBounded runs pincer and reports its exit code, output and peak memory
// (KiB), killing it after limit.
func runBounded(t *testing.T, s *e2etest.Sandbox, limit time.Duration, args ...string) (code int, stdout, stderr string, maxRSS int64) {
	t.Helper()
	cmd := exec.Command(e2etest.Binary(t), args...)
	cmd.Dir, cmd.Env = s.Dir, s.Env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("pincer %v did not finish within %s; stderr:\n%s", args, limit, errb.String())
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if ru != nil {
		maxRSS = ru.Maxrss
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String(), maxRSS
}

// TestHostileProjectOpensSafely: `pincer prompt` and `pincer run` in such a
// project finish promptly, in little memory, skipping each hostile file
// with a warning that names it and the fix.
func TestHostileProjectOpensSafely(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("hello", 5))
	for _, args := range [][]string{{"prompt"}, {"run", "hi"}} {
		t.Run(args[0], func(t *testing.T) {
			s := e2etest.NewSandbox(t, srv.BaseURL())
			s.Dir = filepath.Join(s.Dir, "proj")
			os.Mkdir(s.Dir, 0o755)
			hostileProject(t, s)
			code, stdout, stderr, rss := runBounded(t, s, 30*time.Second, args...)
			if code != 0 {
				t.Fatalf("exit %d; stderr:\n%s", code, stderr)
			}
			t.Logf("peak memory %d MiB", rss>>10)
			if rss > 300<<10 {
				t.Errorf("peak memory %d MiB", rss>>10)
			}
			for _, want := range []string{
				"AGENTS.md is not a regular file (it links to /dev/zero, a device); pincer ignored it",
				"CLAUDE.md is not a regular file (it links to /dev/urandom, a device)",
				"AGENT.md links to", "outside the project",
				"SKILLS.md is not a regular file (it is a named pipe)",
				".pincer.json is not a regular file (it is a named pipe)",
			} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if strings.Contains(stdout, "SECRET-OUTSIDE") {
				t.Error("a project instruction file linking outside the project was read")
			}
			for _, r := range srv.Requests() {
				if bytes.Contains(r.Raw, []byte("SECRET-OUTSIDE")) {
					t.Error("a file outside the project reached the model")
				}
			}
		})
	}
}

// TestHostileProjectSIGTERM: pincer in such a project still stops on
// SIGTERM while it waits for the model.
func TestHostileProjectSIGTERM(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Reply{Body: ": waiting\n\n", Hang: true, HangFor: time.Minute})
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Dir = filepath.Join(s.Dir, "proj")
	os.Mkdir(s.Dir, 0o755)
	hostileProject(t, s)
	cmd, done, errb := startRun(t, s.Dir, s.Env, "hi")
	deadline := time.Now().Add(20 * time.Second)
	for len(srv.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if len(srv.Requests()) == 0 {
		cmd.Process.Kill()
		<-done
		t.Fatalf("pincer never asked the model; stderr:\n%s", errb.String())
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("pincer ignored SIGTERM; stderr:\n%s", errb.String())
	}
}

// startRun starts `pincer run prompt` in dir; done closes when it has
// exited, and errb holds what it wrote to standard error.
func startRun(t *testing.T, dir string, env []string, prompt string) (*exec.Cmd, <-chan struct{}, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(e2etest.Binary(t), "run", prompt)
	cmd.Dir, cmd.Env = dir, env
	errb := &bytes.Buffer{}
	cmd.Stderr = errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	return cmd, done, errb
}

// TestHangUpLeavesNoSandboxBehind: a headless run whose terminal goes
// away (SIGHUP) while a command runs in the sandbox stops as on Ctrl+C
// and removes its sandbox directories; SIGHUP's default killed it and
// left a pincer-jail-* directory in the temp dir.
func TestHangUpLeavesNoSandboxBehind(t *testing.T) {
	srv := agenttest.New(agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command":"sleep 30"}`}))
	defer srv.Close()
	srv.SetFallback(agenttest.Text("done", 4))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	tmp := t.TempDir()
	cmd, done, errb := startRun(t, s.Dir, append(s.Env, "TMPDIR="+tmp), "wait a while")
	jails := func() []string { m, _ := filepath.Glob(filepath.Join(tmp, "pincer-jail-*")); return m }
	deadline := time.Now().Add(20 * time.Second)
	for len(jails()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if len(jails()) == 0 {
		cmd.Process.Kill()
		<-done
		t.Fatalf("no sandbox directory appeared in TMPDIR; stderr:\n%s", errb.String())
	}
	time.Sleep(300 * time.Millisecond) // the command is running
	cmd.Process.Signal(syscall.SIGHUP)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("pincer ignored SIGHUP; stderr:\n%s", errb.String())
	}
	if left := jails(); len(left) > 0 {
		t.Errorf("a hang-up left %v behind; stderr:\n%s", left, errb.String())
	}
}
