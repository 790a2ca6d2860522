//go:build !windows

package tools

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// verbatimCmdLine does nothing here: the shell gets its arguments as
// they are.
func verbatimCmdLine(*exec.Cmd) {}

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

// dirWritable asks the kernel whether a file may be created in dir. It
// sees permissions, read-only mounts and immutable directories (EPERM),
// also for root, and touches nothing.
func dirWritable(dir string) error {
	if err := unix.Access(dir, unix.W_OK); err != nil {
		return &fs.PathError{Op: "write", Path: dir, Err: err}
	}
	return nil
}
