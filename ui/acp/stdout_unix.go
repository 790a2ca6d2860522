//go:build unix

package acp

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// ClaimStdout keeps standard output for the protocol: it returns a file on
// what standard output was, and points descriptor 1 at standard error, so
// that nothing else — a stray print, a child process that inherits the
// descriptor, an MCP server's or hook's noise — can put a byte between
// two messages.
func ClaimStdout() (*os.File, error) {
	fd, err := unix.Dup(1)
	if err != nil {
		return nil, fmt.Errorf("keep standard output for the protocol: %w", err)
	}
	unix.CloseOnExec(fd)
	if err := unix.Dup2(2, 1); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("send other output to standard error: %w", err)
	}
	return os.NewFile(uintptr(fd), "acp-stdout"), nil
}
