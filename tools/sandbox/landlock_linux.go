//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
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

// HelperMain is the helper's whole life: restrict this thread, start the
// command on it, wait, then kill everything the command left behind. It
// returns the exit code to leave with (or re-raises the command's fatal
// signal). Call it from main before anything else when IsHelper(os.Args).
func HelperMain(args []string) int {
	// Signals are caught from the start, so one that comes before the
	// command is started still kills it.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	spec, argv, err := decodeHelperArgs(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pincer sandbox: %v\n", err)
		return 126
	}
	// The restriction is per thread; the command is forked from this one.
	runtime.LockOSThread()
	if err := restrict(spec); err != nil {
		fmt.Fprintf(os.Stderr, "pincer sandbox: cannot restrict the command: %v\n", err)
		return 126
	}
	if err := dropCapabilities(); err != nil {
		fmt.Fprintf(os.Stderr, "pincer sandbox: cannot drop capabilities: %v\n", err)
		return 126
	}
	// Orphans (nohup, setsid, double forks) become our children, so they
	// can be found and killed when the command ends.
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

	// syscall.ForkExec rather than os/exec: the helper needs none of its
	// pipes or pidfds, and os/exec's first start forks a probe child.
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "pincer sandbox: %v\n", err)
		return 127
	}
	pid, err := syscall.ForkExec(prog, argv, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pincer sandbox: %s: %v\n", argv[0], err)
		return 127
	}
	// A signal kills the command; the wait below then returns, and
	// killAll takes whatever else is left. The command is left a zombie
	// until the lock is taken, so its pid (and group id) cannot have been
	// reused by another process when the signal arrives late.
	var mu sync.Mutex
	ended := false
	killed := make(chan struct{})
	go func() {
		<-sigs
		mu.Lock()
		defer mu.Unlock()
		if !ended {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		close(killed)
	}()
	awaitExit(pid)
	mu.Lock()
	ended = true
	mu.Unlock()
	// While the command is a zombie its group id is still its own.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	ws := reap(pid)
	killAll()
	select {
	case <-killed:
		return 128 + int(syscall.SIGKILL)
	default:
	}
	if ws.Signaled() {
		if !runtimeDumps(ws.Signal()) {
			signal.Reset(ws.Signal())
			_ = syscall.Kill(os.Getpid(), ws.Signal())
		}
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
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

// runtimeDumps reports whether the Go runtime answers sig, raised on the
// helper itself, with a crash dump of the helper's goroutines instead of
// dying quietly: the command's crash would then read as the helper's. For
// those the helper exits with the shell's code for the signal (128+n).
func runtimeDumps(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGFPE, syscall.SIGILL,
		syscall.SIGTRAP, syscall.SIGSYS, syscall.SIGABRT, syscall.SIGQUIT:
		return true
	}
	return false
}
