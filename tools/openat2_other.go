//go:build unix && !linux

package tools

import "golang.org/x/sys/unix"

// openBeneath is openat2 where the system has it; elsewhere the caller
// walks the path one component at a time.
func openBeneath(int, string) (int, error) { return -1, unix.ENOSYS }
