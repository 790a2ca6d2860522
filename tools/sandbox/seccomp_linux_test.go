//go:build linux

package sandbox

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccompData is struct seccomp_data for a system call, laid out for
// x/net's interpreter: it loads words big-endian where the kernel loads
// them in the machine's order, so each 32-bit word is written big-endian
// at the place the kernel reads it (an argument's low half first, as on
// the little-endian machines the filter is built for).
func seccompData(arch uint32, nr uint32, args ...uint64) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[dataNr:], nr)
	binary.BigEndian.PutUint32(b[dataArch:], arch)
	for i, a := range args {
		binary.BigEndian.PutUint32(b[dataArg0+8*i:], uint32(a))
		binary.BigEndian.PutUint32(b[dataArg0+8*i+4:], uint32(a>>32))
	}
	return b
}

// TestSeccompProgram runs the filter in x/net's BPF interpreter: what
// each system call gets, with the argument checks reading only the 32
// bits the kernel reads.
func TestSeccompProgram(t *testing.T) {
	audit, x32 := seccompArch()
	if audit == 0 {
		t.Skip("no seccomp filter for this architecture")
	}
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }
	junk := uint64(0xdead) << 32 // upper halves the kernel ignores
	tests := []struct {
		name string
		f    filter
		data []byte
		want uint32
	}{
		{"an ordinary call", filter{}, seccompData(audit, unix.SYS_WRITE, 1), allow},
		{"another architecture", filter{}, seccompData(audit^1, unix.SYS_WRITE), errno(unix.ENOSYS)},
		{"ptrace", filter{}, seccompData(audit, unix.SYS_PTRACE), errno(unix.EPERM)},
		{"process_vm_readv", filter{}, seccompData(audit, unix.SYS_PROCESS_VM_READV), errno(unix.EPERM)},
		{"keyctl", filter{}, seccompData(audit, unix.SYS_KEYCTL), errno(unix.EPERM)},
		{"bpf", filter{}, seccompData(audit, unix.SYS_BPF), errno(unix.EPERM)},
		{"mount", filter{}, seccompData(audit, unix.SYS_MOUNT), errno(unix.EPERM)},
		{"move_mount", filter{}, seccompData(audit, unix.SYS_MOVE_MOUNT), errno(unix.EPERM)},
		{"unshare", filter{}, seccompData(audit, unix.SYS_UNSHARE, unix.CLONE_NEWUSER), errno(unix.EPERM)},
		{"setns", filter{}, seccompData(audit, unix.SYS_SETNS), errno(unix.EPERM)},
		{"io_uring_setup", filter{}, seccompData(audit, unix.SYS_IO_URING_SETUP), errno(unix.EPERM)},
		{"clone3", filter{}, seccompData(audit, unix.SYS_CLONE3), errno(unix.ENOSYS)},
		{"clone, a thread", filter{}, seccompData(audit, unix.SYS_CLONE, unix.CLONE_VM|unix.CLONE_THREAD|unix.CLONE_SIGHAND), allow},
		{"clone, a process with a pidfd", filter{}, seccompData(audit, unix.SYS_CLONE, unix.CLONE_VFORK|unix.CLONE_VM|unix.CLONE_PIDFD|uint64(unix.SIGCHLD)), allow},
		{"clone into a user namespace", filter{}, seccompData(audit, unix.SYS_CLONE, unix.CLONE_NEWUSER|uint64(unix.SIGCHLD)), errno(unix.EPERM)},
		{"clone into a network namespace", filter{}, seccompData(audit, unix.SYS_CLONE, unix.CLONE_NEWNET), errno(unix.EPERM)},
		{"TIOCSTI", filter{}, seccompData(audit, unix.SYS_IOCTL, 0, unix.TIOCSTI), errno(unix.EPERM)},
		{"TIOCSTI with junk above", filter{}, seccompData(audit, unix.SYS_IOCTL, 0, junk|unix.TIOCSTI), errno(unix.EPERM)},
		{"TIOCLINUX", filter{}, seccompData(audit, unix.SYS_IOCTL, 0, unix.TIOCLINUX), errno(unix.EPERM)},
		{"another ioctl", filter{}, seccompData(audit, unix.SYS_IOCTL, 0, unix.TIOCGWINSZ), allow},
		{"a Unix socket", filter{noUnix: true}, seccompData(audit, unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_STREAM), errno(unix.EPERM)},
		{"a Unix socket with junk above", filter{noUnix: true}, seccompData(audit, unix.SYS_SOCKET, junk|unix.AF_UNIX, unix.SOCK_STREAM), errno(unix.EPERM)},
		{"a Unix socket where allowed", filter{families: true}, seccompData(audit, unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_STREAM), allow},
		{"socketpair where sockets are not", filter{noUnix: true}, seccompData(audit, unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_STREAM), allow},
		{"vsock without network", filter{families: true}, seccompData(audit, unix.SYS_SOCKET, unix.AF_VSOCK, unix.SOCK_STREAM), errno(unix.EAFNOSUPPORT)},
		{"IPv6 without network (its own namespace)", filter{families: true}, seccompData(audit, unix.SYS_SOCKET, unix.AF_INET6, unix.SOCK_DGRAM), allow},
		{"vsock with network", filter{}, seccompData(audit, unix.SYS_SOCKET, unix.AF_VSOCK, unix.SOCK_STREAM), allow},
		{"UDP, flat without network", filter{families: true, noUDP: true}, seccompData(audit, unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC), errno(unix.EPERM)},
		{"UDP over IPv6, flat without network", filter{families: true, noUDP: true}, seccompData(audit, unix.SYS_SOCKET, unix.AF_INET6, unix.SOCK_DGRAM), errno(unix.EPERM)},
		{"TCP, flat without network (Landlock's)", filter{families: true, noUDP: true}, seccompData(audit, unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_STREAM), allow},
		{"netlink, flat without network", filter{families: true, noUDP: true}, seccompData(audit, unix.SYS_SOCKET, unix.AF_NETLINK, unix.SOCK_DGRAM), allow},
	}
	if x32 {
		tests = append(tests, struct {
			name string
			f    filter
			data []byte
			want uint32
		}{"an x32 call", filter{}, seccompData(audit, x32Bit|unix.SYS_PTRACE), errno(unix.ENOSYS)})
	}
	for _, tt := range tests {
		vm, err := bpf.NewVM(program(tt.f, audit, x32))
		if err != nil {
			t.Fatalf("the program does not assemble: %v", err)
		}
		got, err := vm.Run(tt.data)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if uint32(got) != tt.want {
			t.Errorf("%s: %#x, want %#x", tt.name, got, tt.want)
		}
	}
}

// TestFilterFor: which filter each jail gets.
func TestFilterFor(t *testing.T) {
	tests := []struct {
		name string
		st   setup
		want filter
	}{
		{"inspect", setup{Spec: Spec{Unix: UnixNone}, Namespaces: true}, filter{noUnix: true, families: true}},
		{"contained, Landlock cannot limit sockets by path", setup{Spec: Spec{Unix: UnixJail}, Namespaces: true}, filter{noUnix: true, families: true}},
		{"contained, Landlock can", setup{Spec: Spec{Unix: UnixJail}, Namespaces: true, UnixByPath: true}, filter{families: true}},
		{"workspace", setup{Spec: Spec{Unix: UnixListed, Network: true}, Namespaces: true}, filter{}},
		{"flat without network", setup{Spec: Spec{Unix: UnixNone}}, filter{noUnix: true, families: true, noUDP: true}},
	}
	for _, tt := range tests {
		if got := filterFor(tt.st); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
