//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
)

// Own makes cmd, once started, the leader of a process group of its own,
// so Kill reaches everything it starts. It replaces cmd.SysProcAttr.
func Own(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// Detach makes cmd, once started, the leader of a session of its own: a
// process group as with Own, and no controlling terminal, so a program
// that opens /dev/tty to prompt fails instead of stealing the screen. On
// Linux the kernel also sends it SIGTERM if pincer dies first. It replaces
// cmd.SysProcAttr.
func Detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	dieWithParent(cmd.SysProcAttr)
}

// Kill kills cmd's process group (started with Own or Detach) with
// SIGKILL, or cmd's process alone when the group cannot be signalled. It
// does nothing for a command that never started. cmd.ProcessState is not
// read, so Kill is safe while another goroutine waits for cmd; killing a
// process that has been waited for does nothing (os.ErrProcessDone).
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		return cmd.Process.Kill()
	}
	return nil
}

// Stop ends a command that is still running (a timeout, Esc) with
// everything it started; on Unix that is Kill.
func Stop(cmd *exec.Cmd) error { return Kill(cmd) }
