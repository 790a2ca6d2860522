//go:build !unix

package termscreen

import "os"

// resizeSignals: without SIGWINCH, the console reports a new size as an
// input event.
func resizeSignals() []os.Signal { return nil }

// stopSignals end the program with the terminal put back.
func stopSignals() []os.Signal { return []os.Signal{os.Interrupt} }
