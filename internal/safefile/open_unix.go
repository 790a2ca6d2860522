//go:build unix && !linux

package safefile

import (
	"os"
	"syscall"
)

// openNonBlocking opens a resolved path for reading without waiting for a
// writer (a named pipe swapped in after the check) and without following a
// link swapped into its last component.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}
