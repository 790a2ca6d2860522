//go:build !unix

package safefile

import "os"

// openNonBlocking opens a resolved path for reading; Read checks its type
// before and after.
func openNonBlocking(path string) (*os.File, error) {
	return os.Open(path)
}
