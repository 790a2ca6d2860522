//go:build unix

package session

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f for reading, so checking the
// pages touches only the bytes it looks at (headers and element tables),
// not the whole file. A fault while reading the map is turned into a panic
// by the store's run, and from there into an error.
func mapFile(f *os.File, size int64) ([]byte, func(), error) {
	if size == 0 {
		return nil, func() {}, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, mapFlags)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}
