//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"pincer/tools/sandbox/internal/landlock"
)

// Probe reports what the kernel can enforce.
func Probe() Support {
	abi, err := landlock.Version()
	if err != nil || abi < 1 {
		reason := "the kernel has no Landlock (it needs Linux 5.13 or later with Landlock enabled at boot)"
		if errors.Is(err, syscall.EOPNOTSUPP) {
			reason = "Landlock is built into the kernel but not enabled at boot (add landlock to the lsm= boot parameter)"
		}
		return Support{Reason: reason}
	}
	s := Support{Mechanism: "landlock", ABI: abi, Files: true, Network: abi >= 4, UnixByPath: abi >= 9}
	s.Namespaces, s.NamespacesReason = probeNamespaces(os.Getenv, os.ReadFile, os.Getuid())
	s.Seccomp, s.SeccompReason = probeSeccomp()
	if s.Namespaces {
		s.Network = true // a network namespace of its own
	}
	if !s.Network {
		s.Reason = fmt.Sprintf("Landlock ABI %d cannot block the network (it needs ABI 4, Linux 6.7), and there are no namespaces: %s", abi, s.NamespacesReason)
	}
	return s
}

// probeNamespaces reports whether this user may make the namespaces the
// jail needs, reading the switches distributions use to forbid them.
func probeNamespaces(getenv func(string) string, readFile func(string) ([]byte, error), uid int) (bool, string) {
	if getenv("PINCER_SANDBOX_NAMESPACES") == "off" {
		return false, "turned off by PINCER_SANDBOX_NAMESPACES=off"
	}
	if _, err := readFile("/proc/self/ns/user"); err != nil && errors.Is(err, os.ErrNotExist) {
		return false, "the kernel has no user namespaces"
	}
	value := func(p string) string {
		data, err := readFile(p)
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(data))
	}
	if value("/proc/sys/user/max_user_namespaces") == "0" {
		return false, "user namespaces are turned off (the sysctl user.max_user_namespaces is 0)"
	}
	if uid != 0 && value("/proc/sys/kernel/unprivileged_userns_clone") == "0" {
		return false, "user namespaces are turned off for users (the sysctl kernel.unprivileged_userns_clone is 0)"
	}
	if uid != 0 && value("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1" {
		return false, "AppArmor keeps users from using namespaces (the sysctl kernel.apparmor_restrict_unprivileged_userns is 1)"
	}
	return true, ""
}

// probeSeccomp reports whether the system call filter can be applied.
func probeSeccomp() (bool, string) {
	if audit, _ := seccompArch(); audit == 0 {
		return false, "pincer has no seccomp filter for " + runtime.GOARCH
	}
	if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err != nil {
		return false, "the kernel has no seccomp (" + err.Error() + ")"
	}
	return true, ""
}

// HelperMain is the helper's whole life: build the jail, restrict the
// thread that will start the commands, tell pincer it is ready, then run
// one command per request until pincer closes the socket. It returns the
// exit code to leave with. Call it from main before anything else when
// IsHelper(os.Args).
func HelperMain(args []string) int {
	// Signals are caught from the start, so one that comes while a
	// command runs still kills it.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if len(args) != 3 || args[1] != HelperArg || args[2] != "--serve" {
		fmt.Fprintf(os.Stderr, "pincer sandbox: usage: %s --serve (pincer starts it)\n", HelperArg)
		return 126
	}
	// The socket must not reach the commands: with it they could read
	// what pincer sends or start commands of their own.
	if _, err := unix.FcntlInt(helperFD, unix.F_SETFD, unix.FD_CLOEXEC); err != nil {
		fmt.Fprintf(os.Stderr, "pincer sandbox: no connection to pincer on fd %d: %v\n", helperFD, err)
		return 126
	}
	m, fds, err := recvFD(helperFD)
	closeAll(fds)
	if err != nil || m.Op != "setup" || m.Setup == nil {
		fmt.Fprintf(os.Stderr, "pincer sandbox: no setup from pincer (%q, %v)\n", m.Op, err)
		return 126
	}
	st := *m.Setup
	fail := func(what string, err error) int {
		_ = sendFD(helperFD, message{Op: "error", Err: what + ": " + err.Error()})
		return 126
	}
	j := &jail{}
	if st.Namespaces {
		if j, err = build(st); err != nil {
			return fail(buildFailed, err)
		}
	}
	// The restriction is per thread, and every command is forked from
	// this one; a locked thread is never used to start other threads.
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fail("cannot set no_new_privs", err)
	}
	if err := restrict(st); err != nil {
		return fail("cannot restrict the commands", err)
	}
	if err := dropCapabilities(); err != nil {
		return fail("cannot drop capabilities", err)
	}
	if st.Seccomp {
		if err := installFilter(filterFor(st)); err != nil {
			return fail("cannot install the seccomp filter", err)
		}
	}
	// Orphans (nohup, setsid, double forks) become our children, so they
	// can be found and killed when the command ends. (In a pid namespace
	// the helper is its first process, which they go to anyway.)
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	// Commands may not read the helper's memory through /proc.
	ProtectSelf()
	if err := sendFD(helperFD, message{Op: "ready", Err: strings.Join(j.notes, "; ")}); err != nil {
		return 126
	}
	inbox := make(chan inbound)
	go receive(helperFD, inbox)
	for {
		in, ok := <-inbox
		if !ok {
			return 0
		}
		if in.m.Op != "run" {
			closeAll(in.fds)
			continue
		}
		if !runOne(in, inbox, sigs, j) {
			return 0
		}
	}
}

// buildFailed starts the error of a helper that could not build its
// namespaces' mounts, which makes the launcher fall back to a flat jail.
const buildFailed = "cannot build the jail"

// installFilter applies the seccomp filter f to the calling thread (and
// so to every command forked from it).
func installFilter(f filter) error {
	audit, x32 := seccompArch()
	raw, err := bpf.Assemble(program(f, audit, x32))
	if err != nil {
		return err
	}
	prog := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		prog[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	return unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0)
}

// inbound is a message the helper received and the descriptors with it.
type inbound struct {
	m   message
	fds []int
}

// receive passes the messages on fd to inbox until the socket closes.
func receive(fd int, inbox chan<- inbound) {
	defer close(inbox)
	for {
		m, fds, err := recvFD(fd)
		if err != nil {
			closeAll(fds)
			return
		}
		inbox <- inbound{m, fds}
	}
}

func closeAll(fds []int) {
	for _, fd := range fds {
		_ = unix.Close(fd)
	}
}

// runOne starts the command in, waits for it while listening for a kill
// (from pincer, a signal, or pincer going away), kills everything it
// left behind, and reports how it ended. It returns false when the
// helper should stop.
func runOne(in inbound, inbox <-chan inbound, sigs <-chan os.Signal, j *jail) bool {
	m := in.m
	if len(in.fds) != 3 || len(m.Argv) == 0 || m.Path == "" {
		closeAll(in.fds)
		return sendFD(helperFD, message{Op: "error", Err: "a malformed request (it needs a program, its arguments and three descriptors)"}) == nil
	}
	// syscall.ForkExec rather than os/exec: the helper needs none of its
	// pipes, and this is the restricted thread.
	pid, err := syscall.ForkExec(m.Path, m.Argv, &syscall.ProcAttr{
		Dir:   m.Dir,
		Env:   m.Env,
		Files: []uintptr{uintptr(in.fds[0]), uintptr(in.fds[1]), uintptr(in.fds[2])},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	closeAll(in.fds)
	if err != nil {
		return sendFD(helperFD, message{Op: "error", Err: fmt.Sprintf("%s: %v", m.Path, err)}) == nil
	}
	if err := sendFD(helperFD, message{Op: "started", Pid: pid}); err != nil {
		kill(pid)
		killAll()
		return false
	}
	exited := make(chan struct{})
	go func() { awaitExit(pid); close(exited) }()
	// Until the command is reaped below its pid and group id stay its
	// own, so a late kill cannot reach another process.
	keep := true
wait:
	for {
		select {
		case <-exited:
			break wait
		case in, ok := <-inbox:
			if ok {
				closeAll(in.fds)
			}
			if !ok || in.m.Op == "kill" {
				kill(pid)
				keep = keep && ok
			}
			if !ok {
				inbox = nil
			}
		case <-sigs:
			kill(pid)
			keep = false
		}
	}
	// While the command is a zombie its group id is still its own.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	ws := reap(pid)
	killAll()
	j.emptyScratch()
	if !keep {
		return false
	}
	return sendFD(helperFD, message{Op: "ended", Status: uint32(ws)}) == nil
}

// kill kills the command and its process group.
func kill(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// awaitExit waits for the command to end without reaping it.
func awaitExit(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

// reap collects the ended command and returns how it ended.
func reap(pid int) syscall.WaitStatus {
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if !errors.Is(err, syscall.EINTR) {
			return ws
		}
	}
}

// killAll kills every process still below the helper (what is left of
// the command's group, and through the subreaper the orphans that left
// it), and reaps them.
//
// It returns as soon as the helper has no child left: every process below
// it descends from one of its children, so none can be alive then. Only
// while killed processes are still dying does it pause, briefly.
func killAll() {
	self := os.Getpid()
	pause := 100 * time.Microsecond
	deadline := time.Now().Add(3 * time.Second)
	for {
		for {
			pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if errors.Is(err, syscall.ECHILD) {
				return
			}
			if pid <= 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			return
		}
		for _, pid := range descendants(self) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(pause)
		pause = min(2*pause, 2*time.Millisecond)
	}
}

// descendants lists the live processes below pid, parents first.
func descendants(pid int) []int {
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := strconv.Itoa(queue[0])
		queue = queue[1:]
		tasks, err := os.ReadDir("/proc/" + p + "/task")
		if err != nil {
			continue
		}
		for _, t := range tasks {
			data, err := os.ReadFile("/proc/" + p + "/task/" + t.Name() + "/children")
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(data)) {
				if c, err := strconv.Atoi(f); err == nil {
					out = append(out, c)
					queue = append(queue, c)
				}
			}
		}
	}
	return out
}

// restrict applies st to the calling thread with Landlock, best effort
// down to the kernel's ABI.
func restrict(st setup) error {
	want := landlock.All()
	if st.Network || st.Namespaces {
		// With network nothing is limited; without it, in the namespaces,
		// there is nothing but the jail's own loopback to reach.
		want.Net = 0
	}
	// Signals may not reach processes outside the jail (pincer, the
	// person's other programs), nor abstract Unix sockets (an X server,
	// a D-Bus bus).
	want.Scoped = landlock.ScopeSignal | landlock.ScopeAbstractUnixSocket
	return landlock.Restrict(want, rulesFor(st, os.ReadDir))
}

// rulesFor turns st into Landlock rules: read (and execute) everything
// but the hidden trees, write the writable ones, and use the devices
// every program expects.
//
// In the namespaces the hidden paths are already covered by empty mounts
// and the pinned ones read-only, so the whole tree is granted for reading
// and each writable path whole. Flat, Landlock must do both itself: it
// grants the tree around each hidden or pinned path entry by entry.
func rulesFor(st setup, readDir func(string) ([]os.DirEntry, error)) []landlock.Rule {
	list := func(dir string) ([]string, error) {
		es, err := readDir(dir)
		if err != nil {
			return nil, err
		}
		out := make([]string, len(es))
		for i, e := range es {
			out[i] = filepath.Join(dir, e.Name())
		}
		return out, nil
	}
	var hidden, pinned []string
	writable := slices.Clone(st.Writable)
	if st.Namespaces {
		writable = append(append(writable, st.TempRoots...), st.Copies...)
	} else {
		// A flat jail hides the ptys: every terminal of the person's is one.
		hidden = append(slices.Clone(st.Hidden), "/dev/pts")
		pinned = st.Pinned
	}
	const (
		readWrite = landlock.Read | landlock.Write
		device    = readWrite | landlock.FSIoctlDev
	)
	unixToo := st.UnixByPath && st.Unix != UnixNone
	var rules []landlock.Rule
	readable := func(top string, hide []string) {
		whole, parents := cover(top, hide, list)
		roDirs, roFiles := byKind(whole)
		rules = append(rules,
			landlock.Rule{Access: landlock.Read, Paths: roDirs},
			landlock.Rule{Access: landlock.Read & landlock.FileRights, Paths: roFiles},
			landlock.Rule{Access: landlock.FSReadDir, Paths: parents})
	}
	if !st.Namespaces && st.HiddenHome != "" {
		// Home is left out whole, and what it shows granted one by one
		// (Landlock rules only add): their contents are readable, the
		// rest of home is not, though names and metadata stay visible
		// to stat, which Landlock does not govern.
		readable("/", append(slices.Clone(hidden), st.HiddenHome))
		for _, k := range st.HomeShown {
			readable(k, hidden)
		}
	} else {
		readable("/", hidden)
	}
	for _, w := range writable {
		ws, _ := cover(w, append(slices.Clone(hidden), pinned...), list)
		dirs, files := byKind(ws)
		rw := landlock.Rule{Access: readWrite | landlock.FSRefer, Paths: dirs}
		if unixToo {
			rw.Access |= landlock.FSResolveUnix
		}
		rules = append(rules, rw, landlock.Rule{Access: readWrite & landlock.FileRights, Paths: files})
	}
	if unixToo && st.Unix == UnixListed && len(st.Sockets) > 0 {
		rules = append(rules, landlock.Rule{Access: landlock.FSResolveUnix, Paths: st.Sockets})
	}
	devDirs := []string{"/dev/shm"}
	if st.Namespaces {
		devDirs = append(devDirs, "/dev/pts") // the jail's own
	}
	rules = append(rules,
		landlock.Rule{Access: device & landlock.FileRights, Paths: devices()},
		landlock.Rule{Access: device, Paths: devDirs})
	return rules
}

// byKind splits paths into directories and files (regular files and
// devices), dropping what does not exist, links (Landlock judges the
// file a link leads to, granted where it lies) and pipes and sockets
// (/dev/stderr may lead to one, and Landlock takes no rule for it).
func byKind(paths []string) (dirs, files []string) {
	for _, p := range paths {
		info, err := os.Lstat(p)
		switch {
		case err != nil:
		case info.IsDir():
			dirs = append(dirs, p)
		case info.Mode().IsRegular(), info.Mode()&os.ModeDevice != 0:
			files = append(files, p)
		}
	}
	return dirs, files
}

// dropCapabilities clears this thread's capabilities and bounding set, so
// a command run as root cannot read pincer's memory or environment
// (CAP_SYS_PTRACE), override file permissions, or gain them back through
// exec. For other users it changes nothing.
func dropCapabilities() error {
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EPERM) && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("drop capability %d from the bounding set: %w", c, err)
		}
	}
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	return unix.Capset(&hdr, &data[0])
}

// ProtectSelf makes pincer's own process undumpable, so a command cannot
// read its memory or its environment (where the API key may be) through
// /proc: the kernel then allows that only with CAP_SYS_PTRACE, which
// sandboxed commands do not have.
func ProtectSelf() { _ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }
