//go:build linux

package procgroup

import "syscall"

// dieWithParent asks the kernel to send SIGTERM to the command if pincer
// dies first.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGTERM }
