//go:build !windows

package agenttest

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Alive reports whether pid is a running process; a zombie (ended, not
// yet reaped) counts as gone. Tests use it to check that what a command
// or server started did not outlive it.
func Alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		s := string(data)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		return len(fields) > 0 && fields[0] != "Z"
	}
	out, err := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	return err == nil && !strings.HasPrefix(strings.TrimSpace(string(out)), "Z")
}

// Marked lists the live processes (zombies left out) one of whose
// arguments is marker, read from /proc: how a test finds what a command
// in a pid namespace of its own started, whose ids inside are not the
// ones outside. It is empty where there is no /proc.
func Marked(marker string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		for _, arg := range strings.Split(string(data), "\x00") {
			if arg == marker && Alive(pid) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// WaitUnmarked waits up to limit for every process marked with marker to
// be gone, and returns those still alive then.
func WaitUnmarked(marker string, limit time.Duration) []int {
	deadline := time.Now().Add(limit)
	for {
		left := Marked(marker)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(10 * time.Millisecond)
	}
}
