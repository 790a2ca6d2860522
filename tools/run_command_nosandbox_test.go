//go:build !linux && !windows

package tools

import "testing"

// testSandbox skips: there is no sandbox on this system.
func testSandbox(t *testing.T, _ string) *CommandSandbox {
	t.Helper()
	t.Skip("no sandbox on this system")
	return nil
}
