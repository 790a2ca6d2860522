//go:build !unix

package acp

import "os"

// ClaimStdout returns standard output; elsewhere than on Unix other
// output is not moved away from it.
func ClaimStdout() (*os.File, error) { return os.Stdout, nil }
