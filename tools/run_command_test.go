//go:build !windows

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"pincer/agent/agenttest"
	"pincer/safety"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cmdArgs builds run_command arguments as JSON.
func cmdArgs(command string, timeout int) string {
	b, _ := json.Marshal(runCommandArgs{Command: command, Timeout: timeout})
	return string(b)
}

func TestRunCommand(t *testing.T) {
	root := tempRoot(t)
	tests := []struct {
		name  string
		cmd   string
		want  string // whole result, or a part with substr
		isErr bool
		sub   bool
	}{
		{"success", "echo hello", "hello\n\n[exit code 0]", false, false},
		{"failure", "echo oops; exit 3", "oops\n\n[exit code 3]", true, false},
		{"no output", "true", "(no output)\n\n[exit code 0]", false, false},
		{"no final newline", "printf abc", "abc\n\n[exit code 0]", false, false},
		{"stdout and stderr in order", "echo 1; echo 2 >&2; echo 3; echo 4 >&2", "1\n2\n3\n4\n\n[exit code 0]", false, false},
		{"stdin is empty", `read x; echo "read=$? x=[$x]"; cat; echo done`, "read=1 x=[]\ndone\n", false, true},
		{"stdin is not a terminal", `[ -t 0 ] && echo tty || echo notty`, "notty\n", false, true},
		{"no controlling terminal", `(exec 3</dev/tty) 2>/dev/null && echo has-tty || echo no-tty`, "no-tty\n", false, true},
		{"runs in root", "pwd -P", root + "\n", false, true},
		{"pagers off", `echo "$PAGER|$GIT_PAGER|$TERM|$NO_COLOR|$GIT_TERMINAL_PROMPT|$GIT_EDITOR"`, "cat|cat|dumb|1|0|true\n", false, true},
		{"killed by a signal", "kill -9 $$", "[killed by signal killed]", true, true},
		{"multi-line script", "x=1\nif [ $x = 1 ]; then echo one; fi", "one\n", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, Options{Root: root}, "run_command", cmdArgs(tt.cmd, 0))
			if res.IsError != tt.isErr {
				t.Errorf("IsError = %v, want %v: %s", res.IsError, tt.isErr, res.Content)
			}
			if tt.sub && !strings.Contains(res.Content, tt.want) || !tt.sub && res.Content != tt.want {
				t.Errorf("result:\n%q\nwant:\n%q", res.Content, tt.want)
			}
		})
	}
}

func TestRunCommandCapsOutput(t *testing.T) {
	root := tempRoot(t)
	res := run(t, Options{Root: root, MaxOutput: 2000}, "run_command", cmdArgs("seq 1 100000; echo 'error: boom' >&2; exit 1", 0))
	if !res.IsError {
		t.Error("exit 1 is not an error result")
	}
	if len(res.Content) > 2000 {
		t.Errorf("result is %d bytes, more than MaxOutput 2000", len(res.Content))
	}
	// seq 1 100000 prints 588895 bytes; the error line adds 12.
	if w := missing(res.Content, "1\n2\n3\n", "99999\n100000\nerror: boom\n\n[exit code 1]", "cut from the middle; 588907 bytes in total"); w != "" {
		t.Errorf("capped output lacks %q:\n%s", w, res.Content)
	}
	if !strings.HasPrefix(res.Content, "1\n2\n") {
		t.Errorf("head lost: %q", res.Content[:20])
	}
}

// readPID waits for a pid file the command writes and returns its pid.
func readPID(t *testing.T, p string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(p); err == nil && strings.HasSuffix(string(data), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err == nil {
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the command never wrote %s", p)
	return 0
}

// waitDead fails the test when pid is still running after a grace period.
func waitDead(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for agenttest.Alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s (pid %d) survived", what, pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// familyScript starts a child shell that starts a grandchild sleep, writes
// both pids and waits: a process tree that only a group kill ends.
const familyScript = `sh -c 'sleep 60 & echo $! > grandchild.pid; wait' &
echo $! > child.pid
echo started
wait`

func TestRunCommandTimeoutKillsGroup(t *testing.T) {
	t.Parallel() // waits on processes and timeouts, not the CPU
	root := tempRoot(t)
	res := run(t, Options{Root: root}, "run_command", cmdArgs(familyScript, 1))
	if !res.IsError {
		t.Error("a timeout is not an error result")
	}
	if w := missing(res.Content, "started\n", "[timed out after 1 s; the command and its child processes were killed."); w != "" {
		t.Errorf("result lacks %q:\n%s", w, res.Content)
	}
	waitDead(t, readPID(t, filepath.Join(root, "child.pid")), "child")
	waitDead(t, readPID(t, filepath.Join(root, "grandchild.pid")), "grandchild")
}

func TestRunCommandCancelKillsGroup(t *testing.T) {
	root := tempRoot(t)
	call := decode(t, Options{Root: root}, "run_command", cmdArgs(familyScript, 600))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := call.Run(ctx)
		done <- outcome{res, err}
	}()
	grandchild := readPID(t, filepath.Join(root, "grandchild.pid"))
	child := readPID(t, filepath.Join(root, "child.pid"))
	cancel()
	got := <-done
	if !errors.Is(got.err, context.Canceled) {
		t.Fatalf("Run after cancel returned %v, want context.Canceled", got.err)
	}
	if w := missing(got.res.Content, "started\n", "[cancelled by the user; the command and its child processes were killed]"); w != "" {
		t.Errorf("result lacks %q:\n%s", w, got.res.Content)
	}
	waitDead(t, child, "child")
	waitDead(t, grandchild, "grandchild")
}

func TestRunCommandKillsBackground(t *testing.T) {
	t.Parallel() // waits on processes and timeouts, not the CPU
	// Whatever the command leaves running dies when it ends: with the
	// sandbox helper even what left the process group. The sleeps carry
	// a mark of their own, found from outside (inside the jail's pid
	// namespace their ids are not the ones outside).
	cases := []struct {
		name, script string
		sandboxOnly  bool
	}{
		{"background", "sleep MARK >/dev/null 2>&1 & echo $! > bg.pid; echo hi", false},
		{"nohup", "nohup sleep MARK >/dev/null 2>&1 & echo $! > bg.pid; echo hi", false},
		{"holding the output", "sleep MARK & echo $! > bg.pid; echo hi", false},
		{"setsid", "setsid sh -c 'echo $$ > bg.pid; exec sleep MARK' >/dev/null 2>&1 & while [ ! -s bg.pid ]; do sleep 0.05; done; echo hi", true},
	}
	for i, sandboxed := range []bool{false, true} {
		for j, tc := range cases {
			if tc.sandboxOnly && !sandboxed {
				continue
			}
			t.Run(fmt.Sprintf("%s/sandbox=%v", tc.name, sandboxed), func(t *testing.T) {
				root := tempRoot(t)
				marker := fmt.Sprintf("77%d%d%d.5", i, j, time.Now().UnixNano()%10000)
				script := strings.ReplaceAll(tc.script, "MARK", marker)
				var res Result
				if sandboxed {
					sb := testSandbox(t, root, "")
					defer sb.Close()
					res = runIn(t, Options{Root: root, Sandbox: sb}, safety.ProfileWorkspace, script)
				} else {
					res = run(t, Options{Root: root}, "run_command", cmdArgs(script, 0))
				}
				if res.IsError || res.Content != "hi\n\n[exit code 0]" {
					t.Fatalf("result = %q (IsError %v)", res.Content, res.IsError)
				}
				readPID(t, filepath.Join(root, "bg.pid"))
				if left := agenttest.WaitUnmarked(marker, 5*time.Second); len(left) > 0 {
					t.Errorf("background processes %v outlived the command", left)
				}
			})
		}
	}
}

func TestRunCommandShell(t *testing.T) {
	root := tempRoot(t)
	res := run(t, Options{Root: root, Shell: "/bin/sh"}, "run_command", cmdArgs(`echo "$0"`, 0))
	if res.Content != "/bin/sh\n\n[exit code 0]" {
		t.Errorf("with Shell=/bin/sh, $0 = %q", res.Content)
	}
	res = run(t, Options{Root: root, Shell: "/no/such/shell"}, "run_command", cmdArgs("echo x", 0))
	if !res.IsError || !strings.Contains(res.Content, "could not start the shell /no/such/shell") {
		t.Errorf("missing shell result = %q", res.Content)
	}

	fallback := "/bin/sh"
	if _, err := os.Stat("/bin/bash"); err == nil {
		fallback = "/bin/bash"
	}
	tests := []struct{ env, want string }{
		{"/bin/sh", "/bin/sh"},
		{"/usr/bin/fish", fallback}, // not sh-like
		{"", fallback},
		{"/no/such/bash", fallback}, // sh-like name, but missing
	}
	for _, tt := range tests {
		t.Setenv("SHELL", tt.env)
		if name, args := shellCommand("", "ls"); name != tt.want || strings.Join(args, " ") != "-c ls" {
			t.Errorf("SHELL=%q: shell = %s %v, want %s -c ls", tt.env, name, args, tt.want)
		}
	}
}

func TestRunCommandSummaryAndAccess(t *testing.T) {
	root := tempRoot(t)
	c := decode(t, Options{Root: root}, "run_command", cmdArgs("go test ./...\necho done", 0))
	if got := c.Summary(); got != "run_command go test ./... …" {
		t.Errorf("Summary = %q", got)
	}
	a := c.Access()
	if a.Command != "go test ./...\necho done" || a.Dir != root || a.Reads != nil || a.Writes != nil {
		t.Errorf("Access = %+v", a)
	}
}
