//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the hook in a process group of its own and makes
// cancelling kill the whole group, so what the script started ends with
// it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
