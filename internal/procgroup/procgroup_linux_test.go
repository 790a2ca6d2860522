package procgroup

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// dead reports whether pid has ended: gone, or a zombie nobody reaped yet.
func dead(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the command name, which is in parentheses.
	s := string(data)
	return strings.HasPrefix(strings.TrimSpace(s[strings.LastIndexByte(s, ')')+1:]), "Z")
}

// startWithChild starts a shell that backgrounds a sleep, and returns the
// sleep's pid.
func startWithChild(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("pid %q: %v", line, err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

func TestKillEndsWhatTheCommandStarted(t *testing.T) {
	for _, tc := range []struct {
		name       string
		group      func(*exec.Cmd)
		survives   bool // the backgrounded child outlives Kill
		ownSession bool
	}{
		{"own group", Own, false, false},
		{"detached", Detach, false, true},
		{"no group: only the shell is killed", func(*exec.Cmd) {}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("/bin/sh", "-c", "sleep 60 & echo $!; wait")
			tc.group(cmd)
			child := startWithChild(t, cmd)
			if sid, _ := unix.Getsid(cmd.Process.Pid); (sid == cmd.Process.Pid) != tc.ownSession {
				t.Errorf("session %d of %d: want own session %v", sid, cmd.Process.Pid, tc.ownSession)
			}
			if err := Kill(cmd); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			// SIGKILL is delivered at once, but the kernel may take a
			// moment to tear the process down.
			for deadline := time.Now().Add(5 * time.Second); !tc.survives && !dead(child) && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			if dead(child) == tc.survives {
				t.Errorf("background child dead = %v, want %v", dead(child), !tc.survives)
			}
			// Once waited for, killing again does nothing.
			if err := Kill(cmd); err != nil && !errors.Is(err, os.ErrProcessDone) {
				t.Errorf("Kill after Wait: %v", err)
			}
		})
	}
}

func TestKillBeforeStartDoesNothing(t *testing.T) {
	cmd := exec.Command("/bin/true")
	Own(cmd)
	if err := Kill(cmd); err != nil {
		t.Errorf("Kill of a command never started: %v", err)
	}
	if err := Stop(cmd); err != nil {
		t.Errorf("Stop of a command never started: %v", err)
	}
}

// TestDetachDiesWithParent: the kernel is asked to end a detached command
// when pincer dies.
func TestDetachDiesWithParent(t *testing.T) {
	cmd := exec.Command("/bin/true")
	Detach(cmd)
	if cmd.SysProcAttr.Pdeathsig != syscall.SIGTERM || !cmd.SysProcAttr.Setsid {
		t.Errorf("SysProcAttr %+v, want Setsid and Pdeathsig SIGTERM", cmd.SysProcAttr)
	}
}
