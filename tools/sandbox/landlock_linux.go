//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Probe reports what the kernel can enforce.
func Probe() Support {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		reason := "the kernel has no Landlock (it needs Linux 5.13 or later with Landlock enabled at boot)"
		if errors.Is(err, syscall.EOPNOTSUPP) {
			reason = "Landlock is built into the kernel but not enabled at boot (add landlock to the lsm= boot parameter)"
		}
		return Support{Reason: reason}
	}
	s := Support{Mechanism: "landlock", ABI: abi, Files: true, Network: abi >= 4}
	if !s.Network {
		s.Reason = fmt.Sprintf("Landlock ABI %d cannot block the network (it needs ABI 4, Linux 6.7)", abi)
	}
	return s
}

// HelperMain is the helper's whole life: restrict the thread that will
// start the commands, tell pincer it is ready, then run one command per
// request until pincer closes the socket. It returns the exit code to
// leave with. Call it from main before anything else when
// IsHelper(os.Args).
func HelperMain(args []string) int {
	// Signals are caught from the start, so one that comes while a
	// command runs still kills it.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	spec, err := decodeHelperArgs(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pincer sandbox: %v\n", err)
		return 126
	}
	// The socket must not reach the commands: with it they could read
	// what pincer sends or start commands of their own.
	if _, err := unix.FcntlInt(helperFD, unix.F_SETFD, unix.FD_CLOEXEC); err != nil {
		fmt.Fprintf(os.Stderr, "pincer sandbox: no connection to pincer on fd %d: %v\n", helperFD, err)
		return 126
	}
	// The restriction is per thread, and every command is forked from
	// this one; a locked thread is never used to start other threads.
	runtime.LockOSThread()
	fail := func(what string, err error) int {
		_ = sendFD(helperFD, message{Op: "error", Err: what + ": " + err.Error()})
		return 126
	}
	if err := restrict(spec); err != nil {
		return fail("cannot restrict the commands", err)
	}
	if err := dropCapabilities(); err != nil {
		return fail("cannot drop capabilities", err)
	}
	// Orphans (nohup, setsid, double forks) become our children, so they
	// can be found and killed when the command ends.
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	// Commands may not read the helper's memory through /proc.
	ProtectSelf()
	if err := sendFD(helperFD, message{Op: "ready"}); err != nil {
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
		if !runOne(in, inbox, sigs) {
			return 0
		}
	}
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
func runOne(in inbound, inbox <-chan inbound, sigs <-chan os.Signal) bool {
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

// restrict applies spec to the calling thread with Landlock, best effort
// down to the kernel's ABI.
func restrict(spec Spec) error {
	cfg := landlock.V11
	if spec.Network {
		cfg.HandledAccessNet = 0
	}
	// Signals may not reach processes outside the sandbox (pincer, the
	// person's other programs); abstract sockets are closed with the network.
	cfg.Scoped = ll.ScopeSignal
	if !spec.Network {
		cfg.Scoped |= ll.ScopeAbstractUnixSocket
	}
	cfg = cfg.BestEffort()
	rules := rulesFor(spec, os.ReadDir)
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return err
	}
	if fd < 0 {
		return errors.New("Landlock is not available")
	}
	defer unix.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	return ll.LandlockRestrictSelf(fd, flags)
}

// rulesFor turns spec into Landlock rules: read (and execute) everything
// but the hidden trees, write the writable ones, and use the devices
// every program expects.
func rulesFor(spec Spec, readDir func(string) ([]os.DirEntry, error)) []landlock.Rule {
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
	var rules []landlock.Rule
	whole, parents := cover("/", spec.Hidden, list)
	roDirs, roFiles := byKind(whole)
	read := landlock.RODirs(roDirs...).IgnoreIfMissing()
	if spec.Network {
		read = read.WithResolveUnix()
	}
	rules = append(rules, read, landlock.ROFiles(roFiles...).IgnoreIfMissing(),
		landlock.PathAccess(landlock.AccessFSSet(ll.AccessFSReadDir), parents...).IgnoreIfMissing())
	for _, w := range spec.Writable {
		ws, _ := cover(w, spec.Hidden, list)
		dirs, files := byKind(ws)
		rules = append(rules,
			landlock.RWDirs(dirs...).WithRefer().WithResolveUnix().IgnoreIfMissing(),
			landlock.RWFiles(files...).IgnoreIfMissing())
	}
	devs, _ := byKind(deviceDirs())
	rules = append(rules,
		landlock.RWFiles(devices()...).WithIoctlDev().IgnoreIfMissing(),
		landlock.RWDirs(devs...).WithIoctlDev().IgnoreIfMissing())
	return rules
}

// byKind splits paths into directories and everything else (following
// links, as Landlock does), dropping paths that do not exist.
func byKind(paths []string) (dirs, files []string) {
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case err != nil:
		case info.IsDir():
			dirs = append(dirs, p)
		default:
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
