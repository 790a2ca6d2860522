package tools

import (
	"os"
	"testing"

	"pincer/tools/sandbox"
)

// TestMain lets the test binary serve as the sandbox helper, the way
// pincer's main does.
func TestMain(m *testing.M) {
	if sandbox.IsHelper(os.Args) {
		os.Exit(sandbox.HelperMain(os.Args))
	}
	os.Exit(m.Run())
}
