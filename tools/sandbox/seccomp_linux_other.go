//go:build linux && !amd64 && !arm64

package sandbox

// seccompArch is 0 here: pincer has no seccomp filter for this
// architecture, and Probe says so.
func seccompArch() (audit uint32, x32 bool) { return 0, false }

func archRefused() []uintptr { return nil }
