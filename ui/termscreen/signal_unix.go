//go:build unix

package termscreen

import (
	"os"
	"syscall"
)

// resizeSignals are the signals that say the terminal changed size.
func resizeSignals() []os.Signal { return []os.Signal{syscall.SIGWINCH} }

// stopSignals end the program with the terminal put back: SIGINT from
// another process (Ctrl+C itself arrives as a key in raw mode), SIGTERM
// and SIGHUP.
func stopSignals() []os.Signal {
	return []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}
}
