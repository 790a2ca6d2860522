//go:build unix && !linux

package tools

import (
	"os"

	"golang.org/x/sys/unix"
)

// openBeneath is openat2 where the system has it; elsewhere the caller
// walks the path one component at a time.
func openBeneath(int, string) (int, error) { return -1, unix.ENOSYS }

// openJudged opens for reading the file at abs, whose links were resolved
// when the policy judged it: a link swapped into its place since is
// refused, and a named pipe swapped in does not block.
func openJudged(abs string) (*os.File, error) {
	return os.OpenFile(abs, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
}
