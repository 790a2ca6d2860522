//go:build !linux

package sandbox

import (
	"fmt"
	"os"
	"runtime"
)

// Probe reports what can be enforced: nothing, on this system.
func Probe() Support {
	return Support{Reason: fmt.Sprintf("pincer has no sandbox for %s yet", runtime.GOOS)}
}

// HelperMain refuses: there is no sandbox to apply here.
func HelperMain(args []string) int {
	fmt.Fprintf(os.Stderr, "pincer sandbox: not available on %s\n", runtime.GOOS)
	return 126
}

// ProtectSelf does nothing here.
func ProtectSelf() {}
