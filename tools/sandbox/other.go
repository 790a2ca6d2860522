//go:build !linux

package sandbox

import (
	"fmt"
	"os"
	"runtime"
)

// Probe reports what can be enforced: nothing, on this system. (A
// macOS jail would be a Seatbelt profile written from the same Spec,
// applied by a helper started the same way: a launcher_darwin.go and a
// HelperMain of its own; Support.Mechanism "seatbelt".)
func Probe() Support {
	return Support{Reason: fmt.Sprintf("pincer has no sandbox for %s yet: commands run with your full rights, and auto approvals ask as ask does", runtime.GOOS)}
}

// HelperMain refuses: there is no sandbox to apply here.
func HelperMain(args []string) int {
	fmt.Fprintf(os.Stderr, "pincer sandbox: not available on %s\n", runtime.GOOS)
	return 126
}

// ProtectSelf does nothing here.
func ProtectSelf() {}

// Launcher cannot start anything here: there is no sandbox.
type Launcher struct{}

// NewLauncher returns a launcher whose Start always fails.
func NewLauncher(helper string, spec Spec) *Launcher { return &Launcher{} }

// Support is what the launcher's jails are built with: nothing here.
func (l *Launcher) Support() Support { return Probe() }

// Request is one command to start.
type Request struct {
	Path                  string
	Argv                  []string
	Env                   []string
	Dir                   string
	Stdin, Stdout, Stderr *os.File
}

// Process is never started here.
type Process struct {
	Pid  int
	Spec Spec
}

// Warm does nothing here.
func (l *Launcher) Warm() {}

// Close does nothing here.
func (l *Launcher) Close() {}

// Shutdown does nothing here.
func (l *Launcher) Shutdown() {}

// Start refuses: there is no sandbox to apply here.
func (l *Launcher) Start(Request) (*Process, error) {
	return nil, fmt.Errorf("pincer has no sandbox for %s yet", runtime.GOOS)
}

// Wait is never reached here.
func (p *Process) Wait() (Exit, error) { return Exit{}, fmt.Errorf("no sandbox on %s", runtime.GOOS) }

// Kill does nothing here.
func (p *Process) Kill() {}

// GitPlaces has no scan to answer from here: the caller walks.
func (l *Launcher) GitPlaces() ([]string, bool) { return nil, false }
