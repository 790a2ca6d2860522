package e2etest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TmuxScreen drives the real binary in a real terminal: tmux, on a socket
// of its own so it never touches the developer's sessions.
type TmuxScreen struct {
	t      *testing.T
	socket string
	name   string
}

// NewTmuxScreen starts pincer with args in a w×h tmux window in the
// sandbox. Without tmux the test skips, except under CI=true, where it
// fails (a missing tmux would silently drop the screen's tests).
func NewTmuxScreen(t *testing.T, s *Sandbox, w, h int, args ...string) *TmuxScreen {
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
	ts := &TmuxScreen{t: t, socket: fmt.Sprintf("pincer-e2e-%d-%d", os.Getpid(), time.Now().UnixNano()), name: "e2e"}
	var env []string
	for _, e := range s.Env {
		env = append(env, "-e", e)
	}
	// After pincer exits the pane stays, so its last words can be read.
	command := strings.Join(append([]string{Binary(t)}, args...), " ") + "; echo '[pincer exited]'; sleep 30"
	cmdArgs := append([]string{"-L", ts.socket, "new-session", "-d", "-s", ts.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-c", s.Dir}, env...)
	cmdArgs = append(cmdArgs, command)
	if out, err := exec.Command("tmux", cmdArgs...).CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v: %s", err, out)
	}
	t.Cleanup(func() {
		// pincer ends on the hang-up, but may still be writing (a
		// checkpoint of the turn) when the test's directories are
		// removed: wait until it is gone.
		info, _ := exec.Command("tmux", "-L", ts.socket, "display", "-p", "-t", ts.name, "#{pane_pid}\t#{socket_path}").Output()
		pane, socket, _ := strings.Cut(strings.TrimSpace(string(info)), "\t")
		kids := childPids(pane)
		exec.Command("tmux", "-L", ts.socket, "kill-server").Run()
		// tmux leaves its socket file behind; it is this test's to remove.
		if filepath.Base(socket) == ts.socket {
			os.Remove(socket)
		}
		for _, pid := range kids {
			WaitGone(pid)
		}
	})
	return ts
}

// WaitGone waits up to ten seconds for process pid to end: a pane's
// pincer ends on the hang-up of kill-server, but may still be writing (a
// checkpoint of the turn) when a test removes its directories.
func WaitGone(pid int) {
	for deadline := time.Now().Add(10 * time.Second); alive(pid) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
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

// TmuxMissing says why the tests that need tmux cannot run, and whether
// that is a failure: without tmux they skip on a developer's machine, but
// under CI (CI=true) a missing tmux would silently drop them, so it fails.
func TmuxMissing() (why string, fail bool) {
	return tmuxMissing(os.Getenv, exec.LookPath)
}

func tmuxMissing(getenv func(string) string, lookPath func(string) (string, error)) (why string, fail bool) {
	if _, err := lookPath("tmux"); err == nil {
		return "", false
	}
	if getenv("CI") == "true" {
		return "tmux is not installed; CI must run the end-to-end tests of the screen (.ci/run installs it)", true
	}
	return "tmux is not installed (.ci/run installs it)", false
}

// Capture is what the screen shows now.
func (ts *TmuxScreen) Capture() string {
	out, err := exec.Command("tmux", "-L", ts.socket, "capture-pane", "-p", "-t", ts.name).Output()
	if err != nil {
		ts.t.Fatalf("capture-pane: %v", err)
	}
	return string(out)
}

// Keys sends keys as tmux send-keys spells them.
func (ts *TmuxScreen) Keys(keys ...string) {
	ts.t.Helper()
	args := append([]string{"-L", ts.socket, "send-keys", "-t", ts.name}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		ts.t.Fatalf("send-keys: %v: %s", err, out)
	}
}

// WaitFor waits until the screen shows all of want.
func (ts *TmuxScreen) WaitFor(what string, want ...string) string {
	ts.t.Helper()
	return ts.WaitUntil(what, fmt.Sprintf("showed %q", want), func(screen string) bool {
		for _, w := range want {
			if !strings.Contains(screen, w) {
				return false
			}
		}
		return true
	})
}

// WaitUntil waits until the screen satisfies ok; never is what the failure
// says the screen never did.
func (ts *TmuxScreen) WaitUntil(what, never string, ok func(screen string) bool) string {
	ts.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var screen string
	for time.Now().Before(deadline) {
		screen = ts.Capture()
		if ok(screen) {
			return screen
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.t.Fatalf("waiting for %s: the screen never %s:\n%s", what, never, screen)
	return ""
}

// AnswerDialog presses key until the dialog titled title closes: a new
// dialog ignores keys for a moment, so the first press may go unheard.
// After each press it waits for the dialog to go before pressing again, so
// no press reaches the input.
func (ts *TmuxScreen) AnswerDialog(key, title string) {
	ts.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ts.Keys(key)
		for wait := time.Now().Add(600 * time.Millisecond); time.Now().Before(wait); time.Sleep(30 * time.Millisecond) {
			if !strings.Contains(ts.Capture(), title) {
				return
			}
		}
	}
	ts.t.Fatalf("pressing %s never closed %q:\n%s", key, title, ts.Capture())
}

// LineWith is the first line of screen that contains s.
func LineWith(screen, s string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// Paste pastes text into pincer as a terminal's bracketed paste.
func (ts *TmuxScreen) Paste(text string) {
	ts.t.Helper()
	if out, err := exec.Command("tmux", "-L", ts.socket, "set-buffer", "-b", "paste", text).CombinedOutput(); err != nil {
		ts.t.Fatalf("set-buffer: %v %s", err, out)
	}
	if out, err := exec.Command("tmux", "-L", ts.socket, "paste-buffer", "-p", "-b", "paste", "-t", ts.name).CombinedOutput(); err != nil {
		ts.t.Fatalf("paste-buffer: %v %s", err, out)
	}
}
