//go:build !unix && !windows

package procgroup

import "os/exec"

// Own does nothing where there are no process groups.
func Own(*exec.Cmd) {}

// Detach does nothing where there are no sessions.
func Detach(*exec.Cmd) {}

// Kill kills cmd's process; it does nothing for a command that never
// started.
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

// Stop is Kill.
func Stop(cmd *exec.Cmd) error { return Kill(cmd) }
