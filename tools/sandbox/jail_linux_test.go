//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"pincer/agent/agenttest"
)

// probe tries each named system call and prints "name: ok" or the error:
// the test binary runs it inside a jail (PINCER_SANDBOX_PROBE) and, for
// contrast, outside.
func probe(names []string) int {
	for _, n := range names {
		err := try(n)
		res := "ok"
		if err != nil {
			res = err.Error()
			var errno syscall.Errno
			if errors.As(err, &errno) {
				res = unix.ErrnoName(errno)
			}
		}
		fmt.Printf("%s: %s\n", n, res)
	}
	return 0
}

func try(name string) error {
	switch name {
	case "ptrace":
		// A child of the probe's own, so nothing else is ever stopped.
		pid, err := syscall.ForkExec("/bin/sleep", []string{"sleep", "5"}, &syscall.ProcAttr{})
		if err != nil {
			return fmt.Errorf("start a child to trace: %w", err)
		}
		defer func() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, 0, nil)
		}()
		return unix.PtraceAttach(pid)
	case "process_vm_readv":
		buf := make([]byte, 8)
		_, err := unix.ProcessVMReadv(os.Getppid(), []unix.Iovec{{Base: &buf[0], Len: 8}}, []unix.RemoteIovec{{Base: 0x400000, Len: 8}}, 0)
		return err
	case "keyctl":
		_, err := unix.AddKey("user", "pincer-probe", []byte("x"), unix.KEY_SPEC_PROCESS_KEYRING)
		return err
	case "bpf":
		_, _, e := unix.Syscall(unix.SYS_BPF, 0, 0, 0)
		return errnoOf(e)
	case "io_uring":
		params := make([]byte, 120)
		fd, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params[0])), 0)
		if e == 0 {
			unix.Close(int(fd))
		}
		return errnoOf(e)
	case "clone3":
		args := make([]byte, 88)
		_, _, e := unix.RawSyscall(unix.SYS_CLONE3, uintptr(unsafe.Pointer(&args[0])), 4, 0) // a size too small: EINVAL when let through
		return errnoOf(e)
	case "userns":
		pid, err := syscall.ForkExec("/bin/true", []string{"true"}, &syscall.ProcAttr{Sys: &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER}})
		if err == nil {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, 0, nil)
		}
		return err
	case "unshare":
		runtime.LockOSThread() // this thread is left in the namespace
		return unix.Unshare(unix.CLONE_NEWNS)
	case "mount":
		return unix.Mount("tmpfs", os.TempDir(), "tmpfs", 0, "")
	case "openpty":
		// A pty of the jail's own, as a terminal program makes one.
		m, s, err := openPty()
		if err != nil {
			return err
		}
		m.Close()
		return s.Close()
	case "tiocsti", "tioclinux":
		m, s, err := openPty()
		if err != nil {
			return err
		}
		defer m.Close()
		defer s.Close()
		c := byte('x')
		req := uint(unix.TIOCSTI)
		if name == "tioclinux" {
			req = unix.TIOCLINUX
		}
		_, _, e := unix.Syscall(unix.SYS_IOCTL, s.Fd(), uintptr(req), uintptr(unsafe.Pointer(&c)))
		return errnoOf(e)
	case "unix-socket", "vsock", "udp":
		domain, typ := unix.AF_UNIX, unix.SOCK_STREAM
		switch name {
		case "vsock":
			domain = unix.AF_VSOCK
		case "udp":
			domain, typ = unix.AF_INET, unix.SOCK_DGRAM
		}
		fd, err := unix.Socket(domain, typ, 0)
		if err == nil {
			unix.Close(fd)
		}
		return err
	}
	return fmt.Errorf("no probe %q", name)
}

func errnoOf(e syscall.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

// probeIn runs the probe for names in l's jail (the test binary is
// copied into the project, which the jail keeps in view) and returns
// what each got.
func probeIn(t *testing.T, l *Launcher, names ...string) map[string]string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(l.spec.Root, "probe")
	if _, err := os.Stat(bin); err != nil {
		data, err := os.ReadFile(exe)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out, _, err := runEnv(t, l, []string{"PINCER_SANDBOX_PROBE=" + strings.Join(names, " ")}, bin)
	if err != nil {
		t.Fatal(err)
	}
	return parseProbe(out)
}

// probeOutside runs the probe with no jail, for contrast.
func probeOutside(t *testing.T, names ...string) map[string]string {
	t.Helper()
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "PINCER_SANDBOX_PROBE="+strings.Join(names, " "))
	out, _ := cmd.CombinedOutput()
	return parseProbe(string(out))
}

func parseProbe(out string) map[string]string {
	got := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			got[k] = v
		}
	}
	return got
}

// TestJailSystemCalls: inside every jail the system calls that reach
// outside it fail with the filter's answer, where outside (for contrast)
// they do not.
func TestJailSystemCalls(t *testing.T) {
	if audit, _ := seccompArch(); audit == 0 {
		agenttest.Missing(t, "no seccomp filter for "+runtime.GOARCH)
	}
	names := []string{"ptrace", "process_vm_readv", "keyctl", "bpf", "io_uring", "clone3", "userns", "unshare", "mount", "tiocsti", "tioclinux", "unix-socket", "vsock", "udp"}
	// Outside, only what cannot disturb this machine (no mount, no
	// unshare) is tried, for contrast.
	outside := probeOutside(t, slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "mount" || n == "unshare" })...)
	t.Logf("outside the jail: %v", outside)
	for _, layout := range layouts {
		for _, network := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/network=%v", layout.name, network), func(t *testing.T) {
				dir := t.TempDir()
				l := testLauncher(t, Spec{Root: dir, Writable: []string{dir}, Network: network, Unix: UnixNone, Flat: layout.flat})
				got := probeIn(t, l, names...)
				want := map[string]string{
					"ptrace": "EPERM", "process_vm_readv": "EPERM", "keyctl": "EPERM", "bpf": "EPERM", "io_uring": "EPERM",
					"clone3": "ENOSYS", "userns": "EPERM", "unshare": "EPERM", "mount": "EPERM",
					"tiocsti": "EPERM", "tioclinux": "EPERM", "unix-socket": "EPERM",
				}
				if !network {
					want["vsock"] = "EAFNOSUPPORT"
					if layout.flat {
						want["udp"] = "EPERM" // no network namespace: the filter refuses UDP
					}
				}
				if layout.flat {
					// Flat, the jail's /dev/pts is the real one, hidden.
					want["tiocsti"], want["tioclinux"] = "", ""
				}
				for name, w := range want {
					if w != "" && got[name] != w {
						t.Errorf("%s in the jail: %q, want %s (outside: %q)", name, got[name], w, outside[name])
					}
				}
				if network && got["udp"] != "ok" {
					t.Errorf("udp with network: %q", got["udp"])
				}
			})
		}
	}
}

// TestJailView: in the namespaces the jail has its own /tmp, /dev,
// /proc and ptys, and none of /run, $XDG_RUNTIME_DIR or the machine's
// other processes.
func TestJailView(t *testing.T) {
	tr := newTree(t)
	runtimeDir := filepath.Join(tr.base, "runtime")
	if err := os.Mkdir(runtimeDir, 0o700); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(os.TempDir(), fmt.Sprintf("pincer-view-%d", time.Now().UnixNano()))
	if err := os.WriteFile(planted, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(planted)
	sleeper := exec.Command("sleep", "60")
	sleeper.Env = []string{"PINCER_VIEW_SECRET=1"}
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	l := testLauncher(t, Spec{Root: tr.root, Home: tr.home, Writable: []string{tr.root}})
	script := strings.Join([]string{
		"echo dev: $(ls /dev | tr '\\n' ' ')",
		"echo tmp: $(cat " + planted + " 2>&1)",
		"echo run: $(ls -A /run | wc -l) $(ls -A " + runtimeDir + " 2>/dev/null | wc -l)",
		"echo procs: $(ls /proc | grep -c '^[0-9]')",
		"echo env: $(tr '\\0' '\\n' < /proc/" + fmt.Sprint(sleeper.Process.Pid) + "/environ 2>&1)",
		"echo tmpdir: $TMPDIR",
	}, "; ")
	needJail(t, false)
	out, exit, err := runWith(t, l, script)
	if err != nil || exit != (Exit{}) {
		t.Fatalf("%v %+v\n%s", err, exit, out)
	}
	lines := parseProbe(out)
	if got := lines["dev"]; got != "fd full null ptmx pts random shm stderr stdin stdout tty urandom zero" {
		t.Errorf("/dev holds %q", got)
	}
	if strings.Contains(lines["tmp"], "outside") {
		t.Errorf("the jail reads the real /tmp: %q", lines["tmp"])
	}
	if lines["run"] != "0 0" {
		t.Errorf("/run and $XDG_RUNTIME_DIR hold %q entries, want none", lines["run"])
	}
	if lines["procs"] == "" || lines["procs"] > "9" && len(lines["procs"]) > 1 {
		t.Errorf("the jail sees %s processes", lines["procs"])
	}
	if strings.Contains(lines["env"], "PINCER_VIEW_SECRET") {
		t.Errorf("the jail read another process's environment: %q", lines["env"])
	}
	if got := probeIn(t, l, "openpty")["openpty"]; got != "ok" {
		t.Errorf("the jail cannot make a pty of its own: %s", got)
	}
	if lines["tmpdir"] != "/tmp" {
		t.Errorf("TMPDIR = %q", lines["tmpdir"])
	}
}

// TestJailSecretsMasked: the project's secret files, and home's near the
// top, read as nothing; one added (or replaced) while the helper lives is
// masked from the next command on.
func TestJailSecretsMasked(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			tr := newTree(t)
			write := func(p, content string) {
				t.Helper()
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(tr.root, ".env"), "SECRET-ENV")
			write(filepath.Join(tr.root, "sub", "server.key"), "SECRET-KEY")
			write(filepath.Join(tr.home, ".aws", "credentials"), "SECRET-AWS")
			isSecret := func(p string, _ bool) bool {
				b := filepath.Base(p)
				return b == ".env" || b == ".env.local" || strings.HasSuffix(b, ".key") || b == ".aws"
			}
			l := testLauncher(t, Spec{Root: tr.root, Home: tr.home, Writable: []string{tr.root}, SecretRoots: []string{tr.root}, IsSecret: isSecret, Flat: layout.flat})
			read := "cat .env sub/server.key .env.local " + tr.home + "/.aws/credentials README 2>&1; echo; echo x > .env 2>&1; mv .env gone 2>&1; true"
			out, _, err := runWith(t, l, read)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out, "SECRET") || !strings.Contains(out, "readme") {
				t.Errorf("first command:\n%s", out)
			}
			if data, _ := os.ReadFile(filepath.Join(tr.root, ".env")); string(data) != "SECRET-ENV" {
				t.Errorf("the command changed .env: %q", data)
			}
			// Made, and replaced the way an editor saves, while the helper lives.
			write(filepath.Join(tr.root, ".env.local"), "SECRET-NEW")
			write(filepath.Join(tr.root, ".env.tmp"), "SECRET-SAVED")
			if err := os.Rename(filepath.Join(tr.root, ".env.tmp"), filepath.Join(tr.root, ".env")); err != nil {
				t.Fatal(err)
			}
			out, _, err = runWith(t, l, read)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out, "SECRET") || !strings.Contains(out, "readme") {
				t.Errorf("after the secrets changed:\n%s", out)
			}
		})
	}
}

// TestJailPins: a pinned file inside the writable project cannot be
// written, removed, replaced by a rename, or moved away with its
// directory.
func TestJailPins(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			tr := newTree(t)
			bin := filepath.Join(tr.root, "tools", "bin", "pincer")
			if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bin, []byte("PROGRAM"), 0o755); err != nil {
				t.Fatal(err)
			}
			// (Flat, Landlock grants a pinned file's neighbours one by one:
			// a new file beside it cannot be made, an existing one written.)
			if err := os.WriteFile(filepath.Join(filepath.Dir(bin), "other"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			l := testLauncher(t, Spec{Root: tr.root, Home: tr.home, Writable: []string{tr.root}, Pinned: []string{bin}, Flat: layout.flat})
			for _, script := range []string{
				"echo evil > tools/bin/pincer",
				"cp /bin/sh tools/bin/pincer",
				"rm -f tools/bin/pincer",
				"echo evil > x && mv -f x tools/bin/pincer",
				"mv tools/bin tools/old && mkdir tools/bin && echo evil > tools/bin/pincer",
				"mv tools tools.old && mkdir -p tools/bin && echo evil > tools/bin/pincer",
			} {
				out, _, err := runWith(t, l, script)
				if err != nil {
					t.Fatal(err)
				}
				if data, err := os.ReadFile(bin); err != nil || string(data) != "PROGRAM" {
					t.Fatalf("%s: the pinned program became %q, %v:\n%s", script, data, err, out)
				}
			}
			// The rest of the project stays writable.
			if out, exit, err := runWith(t, l, "echo ok > tools/bin/other && cat tools/bin/other"); err != nil || exit != (Exit{}) || out != "ok\n" {
				t.Errorf("beside the pinned program: %q %+v %v", out, exit, err)
			}
		})
	}
}

// TestJailCopies: a cache is seen whole, and a command's changes to it go
// to the jail's own copy, never to the real one.
func TestJailCopies(t *testing.T) {
	tr := newTree(t)
	cache := filepath.Join(tr.home, ".cache", "go-build")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, "object"), []byte("cached"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := testLauncher(t, Spec{Root: tr.root, Home: tr.home, Copies: []string{cache}, ScratchTemp: true})
	needJail(t, false)
	out, exit, err := runWith(t, l, "cat "+cache+"/object && echo planted > "+cache+"/object && echo new > "+cache+"/new && rm "+cache+"/object && ls "+cache)
	if err != nil || exit != (Exit{}) {
		t.Fatalf("%v %+v:\n%s %s", err, exit, out, l.Note())
	}
	if !strings.HasPrefix(out, "cached") || !strings.Contains(out, "new") {
		t.Errorf("the copy: %q", out)
	}
	if data, _ := os.ReadFile(filepath.Join(cache, "object")); string(data) != "cached" {
		t.Errorf("the real cache changed: %q", data)
	}
	if _, err := os.Stat(filepath.Join(cache, "new")); err == nil {
		t.Error("a file planted in the copy reached the real cache")
	}
}

// TestJailNetwork: without network a jail reaches nothing outside, not
// even this machine's loopback, but talks to itself on its own.
func TestJailNetwork(t *testing.T) {
	// perl, not python3: it starts in milliseconds where python3 is a
	// version manager's shim that takes a second.
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("the check uses perl")
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan bool, 8)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			got <- true
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	script := fmt.Sprintf(`perl -MIO::Socket::INET - <<'EOF'
my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => %d, Timeout => 2);
print($s ? "outside: reached\n" : "outside: $!\n");
my $srv = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 1) or die "listen: $!";
IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $srv->sockport) or die "connect: $!";
print "own loopback: ok\n";
EOF`, port)
	for _, network := range []bool{false, true} {
		t.Run(fmt.Sprintf("network=%v", network), func(t *testing.T) {
			dir := t.TempDir()
			l := testLauncher(t, Spec{Root: dir, Network: network, ScratchTemp: true})
			needJail(t, false)
			out, _, err := runWith(t, l, script)
			if err != nil {
				t.Fatal(err)
			}
			reached := false
			select {
			case reached = <-got:
			case <-time.After(200 * time.Millisecond):
			}
			if reached != network || strings.Contains(out, "reached") != network {
				t.Errorf("reached this machine = %v, want %v:\n%s", reached, network, out)
			}
			if !strings.Contains(out, "own loopback: ok") {
				t.Errorf("the jail cannot talk to itself:\n%s", out)
			}
		})
	}
}

// TestJailSockets: a socket in the machine's temp dir is out of view; one
// elsewhere is out of reach unless the jail may use sockets it can see.
func TestJailSockets(t *testing.T) {
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("the check uses perl")
	}
	tr := newTree(t)
	inHome := filepath.Join(tr.home, "s.sock")
	inTemp := filepath.Join(os.TempDir(), fmt.Sprintf("pincer-sock-%d", time.Now().UnixNano()))
	for _, p := range []string{inHome, inTemp} {
		ln, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
	}
	connect := `for s in "$@"; do perl -MIO::Socket::UNIX -e 'print IO::Socket::UNIX->new(Peer => $ARGV[0]) ? "reached\n" : $!{EPERM} ? "EPERM\n" : "other\n"' "$s"; done`
	for _, tt := range []struct {
		unix UnixAccess
		home string // what connecting to the socket in home gives
	}{
		{UnixNone, "EPERM"},
		{UnixJail, "EPERM"},
		{UnixListed, "reached"},
	} {
		t.Run(fmt.Sprint(tt.unix), func(t *testing.T) {
			l := testLauncher(t, Spec{Root: tr.root, Home: tr.home, Writable: []string{tr.root}, Unix: tt.unix, Network: true})
			needJail(t, false)
			out, _, err := runWith(t, l, "sh -c '"+strings.ReplaceAll(connect, "'", `'"'"'`)+"' sh "+inHome+" "+inTemp)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Fields(out)
			want := tt.home
			if Probe().UnixByPath && tt.unix == UnixJail {
				want = "EPERM"
			}
			if len(lines) != 2 || lines[0] != want || lines[1] == "reached" {
				t.Errorf("home socket, temp socket: %q; want %s and not reached", lines, want)
			}
		})
	}
}

// TestPlan: what a helper is asked to build on this machine.
func TestPlan(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "project")
	home := filepath.Join(base, "home")
	runtimeDir := filepath.Join(base, "runtime")
	toolchain := filepath.Join(base, "go")
	for _, d := range []string{root, home, runtimeDir, filepath.Join(toolchain, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sock := filepath.Join(home, "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	env := []string{"PATH=" + filepath.Join(toolchain, "bin") + ":/usr/bin", "XDG_RUNTIME_DIR=" + runtimeDir, "SSH_AUTH_SOCK=" + sock, "DOCKER_HOST=unix://" + sock, "TMPDIR="}
	sup := Support{Files: true, Namespaces: true, Seccomp: true}
	spec := Spec{Root: root, Home: home, Writable: []string{root, "relative"}, Hidden: []string{filepath.Join(home, ".ssh")}}
	st := plan(spec, sup, env, []string{filepath.Join(root, ".env")})
	if !slices.Contains(st.Hidden, sock) || !slices.Contains(st.Hidden, filepath.Join(root, ".env")) {
		t.Errorf("Hidden = %v: want the agent's socket and the secret found", st.Hidden)
	}
	if slices.Contains(st.Writable, "relative") {
		t.Errorf("a relative writable path survived: %v", st.Writable)
	}
	if !slices.Contains(st.TempRoots, "/tmp") {
		t.Errorf("TempRoots = %v", st.TempRoots)
	}
	if _, err := os.Stat("/run"); err == nil && !slices.Contains(st.Covers, "/run") {
		t.Errorf("Covers = %v: want /run", st.Covers)
	}
	// The test's directories are in /tmp, which the jail replaces: the
	// project, home and the toolchain on PATH stay; the runtime dir not.
	if realBase, _ := filepath.EvalSymlinks(base); strings.HasPrefix(realBase, "/tmp/") {
		for _, k := range []string{root, home, toolchain} {
			if !slices.Contains(st.Keep, k) {
				t.Errorf("Keep = %v lacks %s", st.Keep, k)
			}
		}
		if slices.Contains(st.Keep, runtimeDir) {
			t.Errorf("Keep = %v holds the covered runtime dir", st.Keep)
		}
	}
	// A socket the person allows is not hidden.
	spec.Sockets = []string{sock}
	if st := plan(spec, sup, env, nil); slices.Contains(st.Hidden, sock) {
		t.Errorf("an allowed socket is hidden: %v", st.Hidden)
	}
	// The temp dir the person made writable is shared, not replaced.
	spec.Writable = []string{root, "/tmp"}
	if st := plan(spec, sup, env, nil); slices.Contains(st.TempRoots, "/tmp") {
		t.Errorf("TempRoots = %v with /tmp writable", st.TempRoots)
	}
	// Flat: nothing to replace.
	spec.Flat = true
	if st := plan(spec, sup, env, nil); st.Namespaces || len(st.TempRoots)+len(st.Covers)+len(st.Keep) > 0 {
		t.Errorf("flat plan %+v", st)
	}
}

// TestSecretScan: the scan finds what the predicate calls secret, does
// not enter .git, and notices new, removed and renamed entries.
func TestSecretScan(t *testing.T) {
	for _, w := range []struct {
		name string
		new  func(root string) dirWatcher
	}{{"inotify", newDirWatcher}, {"times", func(string) dirWatcher { return noWatcher{} }}} {
		t.Run(w.name, func(t *testing.T) { testSecretScan(t, w.new) })
	}
}

func testSecretScan(t *testing.T, newWatcher func(string) dirWatcher) {
	root := t.TempDir()
	mk := func(rel string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	mk(".env")
	mk("a/b/c.key")
	mk(".git/x.key")
	mk("a/plain.go")
	isSecret := func(rel string) bool { return strings.HasSuffix(rel, ".env") || strings.HasSuffix(rel, ".key") }
	s := scanWith(root, isSecret, newWatcher(root))
	defer s.close()
	rel := func() []string {
		var out []string
		for _, f := range s.found() {
			r, _ := filepath.Rel(root, f)
			out = append(out, r)
		}
		return out
	}
	if got := strings.Join(rel(), " "); got != ".env a/b/c.key" {
		t.Fatalf("found %q", got)
	}
	if s.refresh() {
		t.Error("refresh reports a change where there was none")
	}
	// Directory times have a resolution; make the change visible.
	time.Sleep(10 * time.Millisecond)
	mk("a/b/d/new.env")
	if err := os.Rename(filepath.Join(root, ".env"), filepath.Join(root, "moved")); err != nil {
		t.Fatal(err)
	}
	if !s.refresh() {
		t.Error("refresh missed the changes")
	}
	if got := strings.Join(rel(), " "); got != "a/b/c.key a/b/d/new.env" {
		t.Errorf("found %q after the changes", got)
	}
	if err := os.RemoveAll(filepath.Join(root, "a")); err != nil {
		t.Fatal(err)
	}
	if !s.refresh() || len(rel()) != 0 {
		t.Errorf("after removing the tree: %v", rel())
	}
}

// TestHomeSecrets: what is looked for near the top of home.
func TestHomeSecrets(t *testing.T) {
	home := t.TempDir()
	for _, rel := range []string{".aws/credentials", ".config/gh/hosts.yml", ".local/share/keyrings/login", "work/project/.env", "work/id_rsa", ".cache/deep/x.key", ".cargo/credentials.toml", ".cargo/registry/cache/x.key"} {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	isSecret := func(p string) bool {
		return strings.HasSuffix(p, "/.aws") || strings.HasSuffix(p, "/gh") || strings.HasSuffix(p, "/keyrings") || strings.HasSuffix(p, "/id_rsa") || strings.HasSuffix(p, ".env") || strings.HasSuffix(p, ".key") || strings.HasSuffix(p, "/credentials.toml")
	}
	got := homeSecrets(home, []string{filepath.Join(home, "work", "project")}, isSecret, 1000, nil)
	for _, want := range []string{".aws", ".config/gh", ".local/share/keyrings", "work/id_rsa", ".cargo/credentials.toml"} {
		if !slices.Contains(got, filepath.Join(home, want)) {
			t.Errorf("homeSecrets lacks ~/%s: %v", want, got)
		}
	}
	for _, not := range []string{"work/project/.env", ".cache/deep/x.key", ".cargo/registry/cache/x.key"} {
		if slices.Contains(got, filepath.Join(home, not)) {
			t.Errorf("homeSecrets went into ~/%s (the project, or a cache)", not)
		}
	}
	if n := len(homeSecrets(home, nil, isSecret, 2, nil)); n > 1 {
		t.Errorf("a limit of 2 entries still found %d", n)
	}
}

// TestProbeNamespaces: the switches distributions use to forbid user
// namespaces are read and named.
func TestProbeNamespaces(t *testing.T) {
	files := func(m map[string]string) func(string) ([]byte, error) {
		return func(p string) ([]byte, error) {
			if v, ok := m[p]; ok {
				return []byte(v + "\n"), nil
			}
			return nil, os.ErrNotExist
		}
	}
	ok := map[string]string{"/proc/self/ns/user": "", "/proc/sys/user/max_user_namespaces": "100"}
	tests := []struct {
		name  string
		env   string
		files map[string]string
		uid   int
		want  string // "" when available, else a part of the reason
	}{
		{"available", "", ok, 1000, ""},
		{"turned off for tests", "off", ok, 1000, "PINCER_SANDBOX_NAMESPACES=off"},
		{"no user namespaces at all", "", map[string]string{}, 1000, "no user namespaces"},
		{"max 0", "", map[string]string{"/proc/self/ns/user": "", "/proc/sys/user/max_user_namespaces": "0"}, 1000, "user.max_user_namespaces is 0"},
		{"Debian's switch", "", map[string]string{"/proc/self/ns/user": "", "/proc/sys/kernel/unprivileged_userns_clone": "0"}, 1000, "kernel.unprivileged_userns_clone is 0"},
		{"Debian's switch, root", "", map[string]string{"/proc/self/ns/user": "", "/proc/sys/kernel/unprivileged_userns_clone": "0"}, 0, ""},
		{"AppArmor", "", map[string]string{"/proc/self/ns/user": "", "/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"}, 1000, "AppArmor"},
	}
	for _, tt := range tests {
		got, why := probeNamespaces(func(string) string { return tt.env }, files(tt.files), tt.uid)
		if got != (tt.want == "") || !strings.Contains(why, tt.want) {
			t.Errorf("%s: %v %q, want %q", tt.name, got, why, tt.want)
		}
	}
}

// BenchmarkSecretScanRefresh is what a jail that hides a project's
// secrets adds before each command: looking whether a directory of the
// project changed, here in a project of 50,000 files in 5,000
// directories, with nothing changed and with one new file.
func BenchmarkSecretScanRefresh(b *testing.B) {
	root := b.TempDir()
	writeTree(b, root, 5000, 10, 100)
	isSecret := func(rel string) bool { return strings.HasSuffix(rel, ".env") }
	s := newSecretScan(root, isSecret)
	b.Run("unchanged", func(b *testing.B) {
		for b.Loop() {
			if s.refresh() {
				b.Fatal("a change where there was none")
			}
		}
	})
	b.Run("one new file", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			if err := os.WriteFile(filepath.Join(root, "d7", "e700", fmt.Sprintf("new%d", i)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
			s.refresh()
		}
	})
}

// TestJailAttributesOutsideWritable: Landlock governs a file's content,
// not its mode or times; in the jail a command cannot chmod or touch a
// file outside the paths it may write (a read-only project under the
// inspect profile included), while inside them it still can.
func TestJailAttributesOutsideWritable(t *testing.T) {
	for _, tc := range []struct {
		name         string
		writable     bool
		projectFixed bool // the project's file must keep its mode and time
	}{{"inspect", false, true}, {"workspace", true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTreeOutsideTemp(t)
			readme := filepath.Join(tr.root, "README")
			spec := Spec{Root: tr.root, Home: tr.home}
			if tc.writable {
				spec.Writable = []string{tr.root}
			}
			l := testLauncher(t, spec)
			needJail(t, false)
			script := "chmod 0666 " + tr.canary + "; touch -d 2001-01-01 " + tr.canary + "; chmod 0644 " + readme + "; touch -d 2001-01-01 " + readme + "; echo done"
			out, _, err := runWith(t, l, script)
			if err != nil || !strings.Contains(out, "done") {
				t.Fatalf("%v\n%s", err, out)
			}
			check := func(p string, fixed bool) {
				t.Helper()
				info, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				changed := info.Mode().Perm() != 0o600 || info.ModTime().Year() == 2001
				if fixed && changed {
					t.Errorf("the jail changed %s: mode %v, time %v\n%s", p, info.Mode().Perm(), info.ModTime(), out)
				}
				if !fixed && !changed {
					t.Errorf("the jail could not change %s, which it may write:\n%s", p, out)
				}
			}
			check(tr.canary, true)
			check(readme, tc.projectFixed)
		})
	}
}

// TestLauncherHomeScanLeavesTheProject: a project near the top of home
// is not looked through as part of home, so a profile that lets commands
// read the project's secrets (workspace: what you approve) gets them
// wherever the project lies, and one that masks them (SecretRoots) does.
func TestLauncherHomeScanLeavesTheProject(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, "proj")
	env := filepath.Join(root, ".env")
	key := filepath.Join(home, "id_rsa")
	for _, p := range []string{env, key} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	isSecret := func(p string, _ bool) bool { return strings.HasSuffix(p, ".env") || strings.HasSuffix(p, "id_rsa") }
	for _, tc := range []struct {
		name   string
		roots  []string
		masked bool
	}{{"workspace", nil, false}, {"contained", []string{root}, true}} {
		l := NewLauncher("/nonexistent", Spec{Root: root, Home: home, SecretRoots: tc.roots, IsSecret: isSecret})
		found, _, _ := l.secrets()
		l.Close()
		if !slices.Contains(found, key) {
			t.Errorf("%s: the key in home is not hidden: %v", tc.name, found)
		}
		if slices.Contains(found, env) != tc.masked {
			t.Errorf("%s: the project's .env hidden = %v, want %v: %v", tc.name, !tc.masked, tc.masked, found)
		}
	}
}

// openPty makes a pty of the jail's own, as a terminal program does, and
// returns its two ends.
func openPty() (master, pts *os.File, err error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open /dev/ptmx: %w", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		return nil, nil, err
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, nil, fmt.Errorf("open the pty: %w", err)
	}
	return m, s, nil
}
