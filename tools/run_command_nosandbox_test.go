//go:build !linux && !windows

package tools

import (
	"testing"

	"pincer/safety"
)

// runIn is never reached here.
func runIn(t *testing.T, _ Options, _ safety.Profile, _ string) Result {
	t.Helper()
	t.Skip("no sandbox on this system")
	return Result{}
}

// testSandbox skips: there is no sandbox on this system.
func testSandbox(t *testing.T, _, _ string) *CommandSandbox {
	t.Helper()
	t.Skip("no sandbox on this system")
	return nil
}
