//go:build !windows

package sandbox

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// couldWrite reports whether pincer, unrestricted, may write p: the file
// if it exists, else the nearest existing directory above it.
func couldWrite(p string) bool {
	for {
		err := unix.Access(p, unix.W_OK)
		if err == nil {
			return true
		}
		if err != unix.ENOENT {
			return false
		}
		parent := filepath.Dir(p)
		if parent == p {
			return false
		}
		p = parent
	}
}
