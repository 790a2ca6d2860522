//go:build !unix

package hooks

import "os/exec"

// ownGroup leaves the default: cancelling kills the hook's process.
func ownGroup(*exec.Cmd) {}
