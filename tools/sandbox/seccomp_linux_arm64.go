package sandbox

import "golang.org/x/sys/unix"

// seccompArch is the audit architecture of this one, and whether it has
// the x32 system calls beside its own.
func seccompArch() (audit uint32, x32 bool) { return unix.AUDIT_ARCH_AARCH64, false }

// archRefused are the system calls refused that only this architecture has.
func archRefused() []uintptr { return nil }
