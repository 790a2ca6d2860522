package sandbox

import "golang.org/x/sys/unix"

// seccompArch is the audit architecture of this one, and whether it has
// the x32 system calls beside its own.
func seccompArch() (audit uint32, x32 bool) { return unix.AUDIT_ARCH_X86_64, true }

// archRefused are the system calls refused that only this architecture has.
func archRefused() []uintptr { return []uintptr{unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_USELIB} }
