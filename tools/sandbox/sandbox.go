// Package sandbox runs shell commands under a kernel sandbox: pincer
// re-executes itself once as a helper, the helper restricts itself
// (Landlock on Linux) and from then on starts each command pincer sends
// it, and every command inherits the restriction. pincer itself is never
// restricted. Because the helper lives as long as the session, a command
// costs one fork and exec, not the start of another pincer.
//
// A helper runs one command at a time and is a child subreaper, so when
// the command ends every process it left behind — in the background,
// under nohup, or after setsid — is killed with it. Commands that run at
// the same time get a helper each (see Launcher).
//
// The package enforces a Spec; which paths belong in it is decided by the
// caller's policy (safety.SandboxPolicy).
package sandbox

import (
	"errors"
	"fmt"
	"syscall"
)

// HelperArg is the first argument that turns a pincer (or test) binary
// into the sandbox helper. main calls IsHelper and HelperMain before
// anything else.
const HelperArg = "__pincer-sandbox-exec"

// Spec is what a sandboxed command may do.
type Spec struct {
	// Writable are the files and directories the command may change; the
	// rest of the file system is read-only.
	Writable []string `json:"writable"`
	// Hidden are directories that stay neither writable nor readable even
	// when they lie inside Writable or the readable tree (secrets, and
	// pincer's own config and data).
	Hidden []string `json:"hidden"`
	// Network allows TCP connect and bind; false blocks both where the
	// kernel can (Landlock ABI 4 and later).
	Network bool `json:"network"`
}

// Exit is how a sandboxed command ended.
type Exit struct {
	// Code is the exit code, when the command exited.
	Code int
	// Signal is the signal that killed it; 0 when it exited.
	Signal syscall.Signal
}

// Support says what the sandbox can enforce on this machine.
type Support struct {
	// Mechanism names what enforces the sandbox, e.g. "landlock"; "" when
	// nothing can.
	Mechanism string `json:"mechanism"`
	// ABI is the Landlock ABI version the kernel offers (0 without it).
	ABI int `json:"abi"`
	// Files reports whether writes (and reads of hidden paths) can be limited.
	Files bool `json:"files"`
	// Network reports whether TCP connect and bind can be blocked.
	Network bool `json:"network"`
	// Reason says why there is no sandbox or why part of it is missing.
	Reason string `json:"reason,omitempty"`
}

// Available reports whether commands can be contained at all.
func (s Support) Available() bool { return s.Files }

// IsHelper reports whether args (os.Args) ask for the helper.
func IsHelper(args []string) bool { return len(args) > 1 && args[1] == HelperArg }

// helperArgs are the arguments that start a helper serving commands
// under spec: -w PATH, -h PATH and -n, one argument per path, so any path
// survives unchanged and the helper decodes it without a decoder's
// start-up cost.
func helperArgs(spec Spec) []string {
	argv := make([]string, 0, 2+2*(len(spec.Writable)+len(spec.Hidden)))
	argv = append(argv, HelperArg)
	for _, w := range spec.Writable {
		argv = append(argv, "-w", w)
	}
	for _, h := range spec.Hidden {
		argv = append(argv, "-h", h)
	}
	if spec.Network {
		argv = append(argv, "-n")
	}
	return append(argv, "--serve")
}

// decodeHelperArgs reads the spec back from the helper's os.Args.
func decodeHelperArgs(args []string) (Spec, error) {
	var spec Spec
	usage := errors.New("usage: " + HelperArg + " [-w PATH]... [-h PATH]... [-n] --serve")
	if len(args) < 2 || args[1] != HelperArg {
		return spec, usage
	}
	for i := 2; i < len(args); i++ {
		switch args[i] {
		case "--serve":
			if i+1 != len(args) {
				return spec, usage
			}
			return spec, nil
		case "-n":
			spec.Network = true
		case "-w", "-h":
			if i+1 == len(args) {
				return spec, usage
			}
			if args[i] == "-w" {
				spec.Writable = append(spec.Writable, args[i+1])
			} else {
				spec.Hidden = append(spec.Hidden, args[i+1])
			}
			i++
		default:
			return spec, fmt.Errorf("unknown argument %q; %w", args[i], usage)
		}
	}
	return spec, usage
}

// devices are the device files ordinary commands write to, sandboxed or not.
func devices() []string {
	return []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/random", "/dev/urandom"}
}

// deviceDirs are the device directories ordinary commands write in.
func deviceDirs() []string { return []string{"/dev/pts", "/dev/shm"} }
