package landlock

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Filesystem access rights, as the kernel names them.
const (
	FSExecute     = unix.LANDLOCK_ACCESS_FS_EXECUTE
	FSWriteFile   = unix.LANDLOCK_ACCESS_FS_WRITE_FILE
	FSReadFile    = unix.LANDLOCK_ACCESS_FS_READ_FILE
	FSReadDir     = unix.LANDLOCK_ACCESS_FS_READ_DIR
	FSRemoveDir   = unix.LANDLOCK_ACCESS_FS_REMOVE_DIR
	FSRemoveFile  = unix.LANDLOCK_ACCESS_FS_REMOVE_FILE
	FSMakeChar    = unix.LANDLOCK_ACCESS_FS_MAKE_CHAR
	FSMakeDir     = unix.LANDLOCK_ACCESS_FS_MAKE_DIR
	FSMakeReg     = unix.LANDLOCK_ACCESS_FS_MAKE_REG
	FSMakeSock    = unix.LANDLOCK_ACCESS_FS_MAKE_SOCK
	FSMakeFifo    = unix.LANDLOCK_ACCESS_FS_MAKE_FIFO
	FSMakeBlock   = unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK
	FSMakeSym     = unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	FSRefer       = unix.LANDLOCK_ACCESS_FS_REFER        // ABI 2
	FSTruncate    = unix.LANDLOCK_ACCESS_FS_TRUNCATE     // ABI 3
	FSIoctlDev    = unix.LANDLOCK_ACCESS_FS_IOCTL_DEV    // ABI 5
	FSResolveUnix = unix.LANDLOCK_ACCESS_FS_RESOLVE_UNIX // ABI 9
)

// Network access rights and scopes, as the kernel names them.
const (
	NetBindTCP        = unix.LANDLOCK_ACCESS_NET_BIND_TCP         // ABI 4
	NetConnectTCP     = unix.LANDLOCK_ACCESS_NET_CONNECT_TCP      // ABI 4
	NetBindUDP        = unix.LANDLOCK_ACCESS_NET_BIND_UDP         // ABI 10
	NetConnectSendUDP = unix.LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP // ABI 10

	ScopeAbstractUnixSocket = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET // ABI 6
	ScopeSignal             = unix.LANDLOCK_SCOPE_SIGNAL               // ABI 6
)

// Rights groups the sandbox grants.
const (
	// FileRights are the only rights a rule on a file (rather than a
	// directory) may carry; the kernel refuses any other with EINVAL.
	FileRights = FSExecute | FSWriteFile | FSReadFile | FSTruncate | FSIoctlDev | FSResolveUnix

	// Read is reading files and listing directories, and running
	// programs.
	Read = FSExecute | FSReadFile | FSReadDir

	// Write is everything that changes a tree but moving files out of
	// it (FSRefer), using devices (FSIoctlDev) and connecting to Unix
	// sockets (FSResolveUnix), which are granted on their own.
	Write = FSWriteFile | FSRemoveDir | FSRemoveFile | FSMakeChar | FSMakeDir | FSMakeReg |
		FSMakeSock | FSMakeFifo | FSMakeBlock | FSMakeSym | FSTruncate
)

// Newest is the newest ABI this package knows; a newer kernel is used
// as this one.
const Newest = 11

// erratumSignalScope is the bit of the errata mask saying the kernel
// scopes signals correctly (erratum 2, fixed in 6.12's stable updates).
const erratumSignalScope = 1 << 1

// Rights are the three masks of a ruleset: the filesystem and network
// rights it handles (denies unless a rule grants them) and its scopes.
type Rights struct {
	FS, Net, Scoped uint64
}

// And returns the rights in both r and o.
func (r Rights) And(o Rights) Rights {
	return Rights{FS: r.FS & o.FS, Net: r.Net & o.Net, Scoped: r.Scoped & o.Scoped}
}

// Empty reports whether r restricts nothing.
func (r Rights) Empty() bool { return r.FS == 0 && r.Net == 0 && r.Scoped == 0 }

// Supported returns what Landlock ABI abi can handle; below 1 nothing,
// above Newest what Newest can.
func Supported(abi int) Rights {
	var r Rights
	if abi >= 1 {
		r.FS = FSExecute | FSWriteFile | FSReadFile | FSReadDir | FSRemoveDir | FSRemoveFile |
			FSMakeChar | FSMakeDir | FSMakeReg | FSMakeSock | FSMakeFifo | FSMakeBlock | FSMakeSym
	}
	if abi >= 2 {
		r.FS |= FSRefer
	}
	if abi >= 3 {
		r.FS |= FSTruncate
	}
	if abi >= 4 {
		r.Net = NetBindTCP | NetConnectTCP
	}
	if abi >= 5 {
		r.FS |= FSIoctlDev
	}
	if abi >= 6 {
		r.Scoped = ScopeAbstractUnixSocket | ScopeSignal
	}
	if abi >= 9 {
		r.FS |= FSResolveUnix
	}
	if abi >= 10 {
		r.Net |= NetBindUDP | NetConnectSendUDP
	}
	return r
}

// All is every right the newest known ABI handles.
func All() Rights { return Supported(Newest) }

// Rule grants Access beneath each of Paths. A path that does not exist
// is skipped, and one that is not a directory gets only the FileRights
// of Access.
type Rule struct {
	Access uint64
	Paths  []string
}

// Version returns the running kernel's Landlock ABI (1 or more), or an
// error: ENOSYS without Landlock, EOPNOTSUPP when it is built in but not
// enabled at boot.
func Version() (int, error) {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0, errno
	}
	return int(v), nil
}

// usableABI returns the ABI to plan for: Version, or 0 without
// Landlock, and 5 on a kernel of ABI 6 or later whose signal scoping
// still has erratum 2, so its scopes are left alone as before.
func usableABI() int {
	v, err := Version()
	if err != nil || v < 1 {
		return 0
	}
	if v >= 6 {
		errata, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_ERRATA)
		if errno != 0 || errata&erratumSignalScope == 0 {
			v = 5
		}
	}
	return v
}

// Plan lowers want and rules to what ABI abi can enforce, best effort:
// rights the kernel does not know are neither handled nor granted, and
// rules left with no right are dropped.
//
// Refer is special: below ABI 2 the kernel denies moving files between
// directories whatever the rules say, so a rule asking for it loses it
// and the sandbox is only stricter.
func Plan(want Rights, rules []Rule, abi int) (Rights, []Rule) {
	handled := want.And(Supported(abi))
	var out []Rule
	for _, r := range rules {
		if a := r.Access & handled.FS; a != 0 && len(r.Paths) > 0 {
			out = append(out, Rule{Access: a, Paths: r.Paths})
		}
	}
	return handled, out
}

// Restrict restricts the calling thread (and what it starts) to rules,
// handling want lowered to the running kernel's ABI (see Plan). Only the
// calling thread is restricted, so the caller locks it
// (runtime.LockOSThread) and forks from it; it must have set
// no_new_privs (or hold CAP_SYS_ADMIN).
func Restrict(want Rights, rules []Rule) error {
	abi := usableABI()
	handled, rules := Plan(want, rules, abi)
	if abi == 0 || handled.Empty() {
		return errors.New("Landlock is not available")
	}
	fd, err := create(handled)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	for _, r := range rules {
		for _, p := range r.Paths {
			if err := addPath(fd, p, r.Access); err != nil {
				return err
			}
		}
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", errno)
	}
	return nil
}

// create makes a ruleset handling h.
func create(h Rights) (int, error) {
	attr := unix.LandlockRulesetAttr{Handled_access_fs: h.FS, Handled_access_net: h.Net, Scoped: h.Scoped}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return -1, fmt.Errorf("landlock_create_ruleset (handling fs %#x, net %#x, scopes %#x): %w", h.FS, h.Net, h.Scoped, errno)
	}
	return int(fd), nil
}

// addPath grants access beneath path, or only its FileRights when path
// is not a directory; a missing path is skipped.
func addPath(ruleset int, path string, access uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return nil
	}
	if err != nil {
		return &os.PathError{Op: "landlock: open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &os.PathError{Op: "landlock: stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= FileRights
	}
	if access == 0 {
		return nil
	}
	attr := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(fd)}
	_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_add_rule %s (access %#x): %w", path, access, errno)
	}
	return nil
}
