// Package sandbox runs a shell command under a kernel sandbox: pincer
// re-executes itself as a small helper, the helper restricts itself
// (Landlock on Linux) and then starts the command, which inherits the
// restriction. pincer itself is never restricted.
//
// The helper also makes itself a child subreaper, so when the command ends
// every process it left behind — in the background, under nohup, or after
// setsid — is killed with it.
//
// The package enforces a Spec; which paths belong in it is decided by the
// caller's policy (safety.SandboxPolicy).
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// HelperName is the stand-alone helper binary, looked for next to pincer.
const HelperName = "pincer-sandbox"

// FindHelper returns the binary to run as the helper: pincer-sandbox in
// the same directory as exe when it is there (it starts much faster),
// else exe itself, whose main must call HelperMain.
func FindHelper(exe string) string {
	if exe == "" {
		return ""
	}
	name := HelperName
	if filepath.Ext(exe) == ".exe" {
		name += ".exe"
	}
	p := filepath.Join(filepath.Dir(exe), name)
	if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0 {
		return p
	}
	return exe
}

// IsHelper reports whether args (os.Args) ask for the helper.
func IsHelper(args []string) bool { return len(args) > 1 && args[1] == HelperArg }

// Command returns the command that runs prog with args under spec, using
// helper (the path of a binary whose main calls HelperMain) as the
// restricted intermediary.
//
// The spec travels as plain arguments (-w PATH, -h PATH, -n, then --),
// one argument per path, so any path survives unchanged and the helper
// decodes it without a JSON decoder's start-up cost.
func Command(helper string, spec Spec, prog string, args ...string) (*exec.Cmd, error) {
	if helper == "" {
		return nil, errors.New("sandbox: no helper binary")
	}
	argv := make([]string, 0, 4+2*(len(spec.Writable)+len(spec.Hidden))+len(args))
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
	argv = append(argv, "--", prog)
	return exec.Command(helper, append(argv, args...)...), nil
}

// decodeHelperArgs splits the helper's os.Args into the spec and the
// command to run.
func decodeHelperArgs(args []string) (Spec, []string, error) {
	var spec Spec
	usage := errors.New("usage: " + HelperArg + " [-w PATH]... [-h PATH]... [-n] -- PROGRAM [ARG...]")
	if len(args) < 2 || args[1] != HelperArg {
		return spec, nil, usage
	}
	for i := 2; i < len(args); i++ {
		switch args[i] {
		case "--":
			if i+1 == len(args) {
				return spec, nil, usage
			}
			return spec, args[i+1:], nil
		case "-n":
			spec.Network = true
		case "-w", "-h":
			if i+1 == len(args) {
				return spec, nil, usage
			}
			if args[i] == "-w" {
				spec.Writable = append(spec.Writable, args[i+1])
			} else {
				spec.Hidden = append(spec.Hidden, args[i+1])
			}
			i++
		default:
			return spec, nil, fmt.Errorf("unknown argument %q; %w", args[i], usage)
		}
	}
	return spec, nil, usage
}

// devices are the device files ordinary commands write to, sandboxed or not.
func devices() []string {
	return []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/random", "/dev/urandom"}
}

// deviceDirs are the device directories ordinary commands write in.
func deviceDirs() []string { return []string{"/dev/pts", "/dev/shm"} }
