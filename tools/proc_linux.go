//go:build linux

package tools

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// dieWithParent asks the kernel to send SIGTERM to the command (or the
// sandbox helper, which then kills what it started) if pincer dies first.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGTERM }

// exited reports whether pid is gone or a zombie.
func exited(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}
