//go:build !linux && !windows

package tools

import "syscall"

// dieWithParent does nothing: only Linux has a parent-death signal.
func dieWithParent(*syscall.SysProcAttr) {}

// exited reports whether pid is gone (a zombie cannot be told apart here,
// so this waits out the grace period for it).
func exited(pid int) bool { return syscall.Kill(pid, 0) != nil }
