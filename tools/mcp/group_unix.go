//go:build !windows

package mcp

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd as the leader of a process group of its own, so the
// processes a server starts (npx starts node, a shell script starts its
// program) can be stopped with it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills what is left of cmd's process group once the server
// has been closed.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
