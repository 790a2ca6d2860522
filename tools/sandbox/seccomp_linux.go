package sandbox

import (
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The seccomp filter is a short classic BPF program written by hand
// (with golang.org/x/net/bpf, which the module already uses, as the
// assembler): it is a list of system calls refused outright and three
// whose arguments are looked at, so a library that knows every system
// call would add more than it saves, and here every argument check reads
// exactly the 32 bits the kernel reads (a cmd or flags argument with
// junk in its upper half cannot slip past). Its tests run it in x/net's
// BPF interpreter.

// Offsets into struct seccomp_data.
const (
	dataNr   = 0
	dataArch = 4
	dataArg0 = 16 // args[i] at 16 + 8*i; the low half first (little-endian)
)

// x32Bit marks the x32 system calls on amd64, which share its audit arch.
const x32Bit = 0x40000000

// cloneNamespaces are clone's flags that make new namespaces. In clone
// (not clone3) the low byte is the exit signal, so CLONE_NEWTIME (0x80)
// cannot be asked for there.
const cloneNamespaces = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// filter is what the seccomp filter refuses beyond the system calls
// always refused (see refused).
type filter struct {
	// noUnix refuses Unix sockets (socket(AF_UNIX, …); socketpair works).
	noUnix bool
	// families allows only Unix, IPv4, IPv6 and netlink sockets (no
	// vsock to the host of a virtual machine, no Bluetooth, no packet
	// sockets), for jails without network.
	families bool
	// noUDP refuses IPv4 and IPv6 datagram sockets: a flat jail without
	// network, where Landlock limits only TCP (before ABI 10).
	noUDP bool
}

// filterFor is the filter for a jail.
func filterFor(st setup) filter {
	f := filter{families: !st.Network}
	switch st.Unix {
	case UnixNone:
		f.noUnix = true
	case UnixJail:
		f.noUnix = !st.UnixByPath
	}
	f.noUDP = !st.Network && !st.Namespaces
	return f
}

// refused are the system calls no jailed command may make: they reach
// other processes (ptrace, process_vm_*, kcmp, pidfd_getfd), the kernel's
// keyrings, BPF and perf, the mount tree and namespaces (the jail's shape
// is fixed before a command runs), io_uring (whose operations seccomp
// cannot see), and the machine itself.
func refused() []uint32 {
	nrs := []uintptr{
		unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_KCMP, unix.SYS_PIDFD_GETFD,
		unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
		unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
		unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_MOVE_MOUNT, unix.SYS_OPEN_TREE,
		unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK, unix.SYS_MOUNT_SETATTR,
		unix.SYS_UNSHARE, unix.SYS_SETNS,
		unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
		unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD, unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
		unix.SYS_REBOOT, unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_ACCT, unix.SYS_QUOTACTL, unix.SYS_QUOTACTL_FD,
		unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_SYSLOG, unix.SYS_LOOKUP_DCOOKIE,
	}
	nrs = append(nrs, archRefused()...)
	out := make([]uint32, len(nrs))
	for i, n := range nrs {
		out[i] = uint32(n)
	}
	return out
}

// program is the filter as BPF for the architecture audit (0 when there
// is none for this one). Every branch ends in a return, so the checks
// follow each other without jumps over more than a few instructions.
func program(f filter, audit uint32, x32 bool) []bpf.Instruction {
	errno := func(e unix.Errno) bpf.Instruction {
		return bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(e)}
	}
	allow := bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW}
	p := []bpf.Instruction{
		bpf.LoadAbsolute{Off: dataArch, Size: 4},
		// System calls of another architecture (32-bit programs) do not run.
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: audit, SkipTrue: 1},
		errno(unix.ENOSYS),
		bpf.LoadAbsolute{Off: dataNr, Size: 4},
	}
	if x32 {
		p = append(p, bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: x32Bit, SkipFalse: 1}, errno(unix.ENOSYS))
	}
	for _, nr := range refused() {
		p = append(p, bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: nr, SkipTrue: 1}, errno(unix.EPERM))
	}
	// clone3 passes its flags in memory the filter cannot read: it is
	// "not implemented", and the C library and Go fall back to clone.
	p = append(p, bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: uint32(unix.SYS_CLONE3), SkipTrue: 1}, errno(unix.ENOSYS))
	p = append(p,
		bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: uint32(unix.SYS_CLONE), SkipTrue: 4},
		bpf.LoadAbsolute{Off: dataArg0, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: cloneNamespaces, SkipFalse: 1},
		errno(unix.EPERM),
		allow,
	)
	// TIOCSTI types into a terminal as if the person had; TIOCLINUX can
	// read a console's screen.
	p = append(p,
		bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: uint32(unix.SYS_IOCTL), SkipTrue: 5},
		bpf.LoadAbsolute{Off: dataArg0 + 8, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.TIOCSTI, SkipTrue: 1},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.TIOCLINUX, SkipFalse: 1},
		errno(unix.EPERM),
		allow,
	)
	var sock []bpf.Instruction
	if f.noUnix {
		sock = append(sock, bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: unix.AF_UNIX, SkipTrue: 1}, errno(unix.EPERM))
	}
	if f.noUDP {
		// The type's low bits, without SOCK_NONBLOCK and SOCK_CLOEXEC.
		sock = append(sock,
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.AF_INET, SkipTrue: 1},
			bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: unix.AF_INET6, SkipTrue: 5},
			bpf.LoadAbsolute{Off: dataArg0 + 8, Size: 4},
			bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: 0xf},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SOCK_DGRAM, SkipFalse: 1},
			errno(unix.EPERM),
			allow,
		)
	}
	if f.families {
		sock = append(sock,
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.AF_UNIX, SkipTrue: 4},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.AF_INET, SkipTrue: 3},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.AF_INET6, SkipTrue: 2},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.AF_NETLINK, SkipTrue: 1},
			errno(unix.EAFNOSUPPORT),
		)
	}
	if len(sock) > 0 {
		sock = append(sock, allow)
		p = append(p, bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: uint32(unix.SYS_SOCKET), SkipTrue: uint8(len(sock) + 1)},
			bpf.LoadAbsolute{Off: dataArg0, Size: 4})
		p = append(p, sock...)
	}
	return append(p, allow)
}
