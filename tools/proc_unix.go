//go:build !windows

package tools

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// startInOwnGroup makes cmd the leader of a new session, so it has no
// controlling terminal (a program that opens /dev/tty to prompt fails
// instead of stealing the screen) and it and every process it starts share
// one process group, which cancellation kills as a whole.
func startInOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
}

// exitStatus words how a finished command ended.
func exitStatus(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("killed by signal %s", ws.Signal())
	}
	return fmt.Sprintf("exit code %d", ps.ExitCode())
}

// shLike lists the shells that accept "-c command" the POSIX way.
var shLike = map[string]bool{"bash": true, "zsh": true, "sh": true, "dash": true, "ksh": true, "mksh": true, "ash": true}

// shellCommand returns the program and arguments that run command: shell
// when given, else $SHELL when it is sh-like, else /bin/bash, else /bin/sh.
func shellCommand(shell, command string) (string, []string) {
	if shell == "" {
		shell = defaultShell()
	}
	return shell, []string{"-c", command}
}

func defaultShell() string {
	if sh := os.Getenv("SHELL"); sh != "" && shLike[filepath.Base(sh)] {
		if _, err := os.Stat(sh); err == nil {
			return sh
		}
	}
	if _, err := os.Stat("/bin/bash"); err == nil {
		return "/bin/bash"
	}
	return "/bin/sh"
}
