//go:build windows

package procgroup

import (
	"os/exec"
	"strconv"
	"syscall"
)

// Own does nothing on Windows: there are no process groups to kill, and
// the program keeps receiving the console's Ctrl+C like pincer.
func Own(*exec.Cmd) {}

// Detach starts cmd in a new console process group, so the console's
// Ctrl+C reaches pincer and not the command; Stop ends its tree. It keeps
// the rest of cmd.SysProcAttr.
func Detach(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= syscall.CREATE_NEW_PROCESS_GROUP
}

// Kill kills cmd's process: Windows cannot find the tree of a program
// that has exited, so what it started may outlive it. It does nothing for
// a command that never started.
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

// Stop ends a running command's whole process tree with taskkill, falling
// back to the process itself.
func Stop(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run(); err != nil {
		return cmd.Process.Kill()
	}
	return nil
}
