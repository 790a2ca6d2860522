//go:build linux

package cli

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/creack/pty"

	"pincer/safety"
	"pincer/tools"
)

// selfTest is one check of `pincer sandbox`, in one profile.
type selfTest struct {
	Profile string `json:"profile"`
	Name    string `json:"name"`
	Want    string `json:"want"`   // "blocked" or "allowed"
	Result  string `json:"result"` // "blocked", "allowed" or "skipped"
	Detail  string `json:"detail,omitempty"`
	OK      bool   `json:"ok"`
}

// jailCheck is one thing a jailed command tries. What happened is judged
// from outside the jail (a file on disk, a connection that arrived, a
// signal that came), never from what the command says.
type jailCheck struct {
	name   string
	script string
	// want is "blocked" or "allowed" for the profile's rights, with a
	// reason to show when it is allowed on purpose; "" skips the check.
	want func(r safety.ProfileRights) (want, why string)
	// happened reports, after the command, whether the thing got through.
	happened func(out string, ok bool) bool
	skip     string // why the check cannot run here
}

// sandboxSelfTest runs every check in every profile through the real
// jails, in a scratch project inside p with stand-ins for what must be
// protected: a canary and a key in the home directory, an .env file, a
// terminal, listening sockets, a process with a secret in its
// environment, copies of pincer's program inside the project and in the
// temp dir, and a build cache.
func (c *cli) sandboxSelfTest(ctx context.Context, p *project, st *sandboxState) []selfTest {
	if !st.Active {
		return nil
	}
	fx, err := newJailFixture(ctx, p.root, st.home)
	if err != nil {
		return []selfTest{{Name: "set up", Want: "allowed", Result: "failed", Detail: err.Error()}}
	}
	defer fx.close()
	checks := fx.checks(ctx, *st)
	var out []selfTest
	for _, pr := range safety.Profiles() {
		// A check that failed in one profile must not fail the next.
		if err := fx.reset(); err != nil {
			return append(out, selfTest{Profile: string(pr), Name: "set up", Want: "allowed", Result: "failed", Detail: err.Error()})
		}
		pol := st.policy
		pol.Root, pol.Caches, pol.Binary = fx.project, []string{fx.cache}, fx.decoyInside
		pol.Writable = nil
		r, ok := pol.Rights(pr)
		if !ok {
			continue
		}
		cs := newCommandSandbox(*st, pol)
		if cs == nil {
			continue
		}
		for k, spec := range cs.Specs {
			spec.Pinned = append(spec.Pinned, fx.decoyTemp)
			cs.Specs[k] = spec
		}
		reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: fx.project, Sandbox: cs, CommandTimeout: 15 * time.Second})...)
		if err != nil {
			return append(out, selfTest{Profile: string(pr), Name: "set up", Want: "allowed", Result: "failed", Detail: err.Error()})
		}
		tool, _ := reg.Get("run_command")
		run := func(script string) (string, bool) {
			call, err := tool.Decode(fmt.Sprintf(`{"command": %q}`, script))
			if err != nil {
				return err.Error(), false
			}
			if pc, ok := call.(tools.Profiled); ok {
				call = pc.InProfile(pr)
			}
			res, err := call.Run(ctx)
			if err != nil {
				return err.Error(), false
			}
			return res.Content, !res.IsError
		}
		// The scratch project lies inside the real one: where that is
		// home, or holds it, home stays in view for real, and the check
		// would prove nothing about it.
		actual, _ := st.policy.Rights(pr)
		for _, chk := range checks {
			t := selfTest{Profile: string(pr), Name: chk.name}
			want, why := chk.want(r)
			switch {
			case chk.name == otherProjectCheck && actual.HomeNote != "":
				t.Want, t.Result, t.Detail, t.OK = "allowed", "skipped", actual.HomeNote, true
			case chk.skip != "":
				t.Want, t.Result, t.Detail, t.OK = want, "skipped", chk.skip, true
			case want == "":
				continue
			default:
				text, ok := run(chk.script)
				t.Want, t.Result = want, "blocked"
				if chk.happened(text, ok) {
					t.Result = "allowed"
				}
				t.OK = t.Result == t.Want
				switch {
				case !t.OK:
					t.Detail = firstLineOf(text)
				case t.Result == "allowed" && why != "":
					t.Detail = why
				}
			}
			out = append(out, t)
		}
		if l := cs.Launcher(pr); l != nil && st.Jailed && !l.Support().Namespaces {
			// The kernel offered namespaces, but this machine refused them.
			st.Support = l.Support()
			st.Jailed = false
			st.Note = partialNote(st.Support)
		}
		cs.Close()
	}
	return out
}

// jailFixture is what the self-test sets up outside the jail.
type jailFixture struct {
	project, outside, tmp  string // a scratch project, a directory in home, one in the temp dir
	canary, homeKey, cache string
	otherProject           string // a file of another project in home, no secret by its name
	decoyInside, decoyTemp string
	envChild               *exec.Cmd
	closers                []func()

	tcp, udp, sockTemp, sockHome atomic.Bool
	ptyMu                        sync.Mutex
	ptyGot                       bytes.Buffer
	ptyName                      string
	// dns says why the DNS check cannot run ("" when it can): whether
	// names resolve outside the jail, looked up while the rest is set up.
	dns chan string
}

const (
	decoy = "DECOY-PROGRAM"
	// otherProjectCheck names the check that another project's files in
	// home are out of reach of commands that run unasked.
	otherProjectCheck = "read another project's files in home"
	secretMark        = "PINCER-SELFTEST-SECRET"
	envMark           = "PINCER_SELFTEST_ENV=in-the-environment"
)

func newJailFixture(ctx context.Context, root, home string) (*jailFixture, error) {
	fx := &jailFixture{dns: make(chan string, 1)}
	go func() {
		lookup, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		if _, err := net.DefaultResolver.LookupHost(lookup, "example.com"); err != nil {
			fx.dns <- "no DNS answers here outside the jail either"
			return
		}
		fx.dns <- ""
	}()
	var err error
	if fx.project, err = os.MkdirTemp(root, ".pincer-sandbox-test-"); err != nil {
		return nil, err
	}
	fx.closers = append(fx.closers, func() { _ = os.RemoveAll(fx.project) })
	if fx.outside, err = os.MkdirTemp(home, ".pincer-sandbox-test-"); err != nil {
		fx.close()
		return nil, err
	}
	fx.closers = append(fx.closers, func() { _ = os.RemoveAll(fx.outside) })
	if fx.tmp, err = os.MkdirTemp("", "pincer-sandbox-test-"); err != nil {
		fx.close()
		return nil, err
	}
	fx.closers = append(fx.closers, func() { _ = os.RemoveAll(fx.tmp) })
	fx.canary = filepath.Join(fx.outside, "canary")
	fx.homeKey = filepath.Join(fx.outside, "id_ed25519")
	fx.otherProject = filepath.Join(fx.outside, "src", "other", "config", "settings.yml")
	fx.cache = filepath.Join(fx.outside, "cache")
	fx.decoyInside = filepath.Join(fx.project, "bin", "pincer")
	fx.decoyTemp = filepath.Join(fx.tmp, "pincer")
	for _, f := range []struct {
		path, content string
		mode          os.FileMode
	}{
		{fx.canary, "keep", 0o644},
		{fx.homeKey, secretMark, 0o600},
		{fx.otherProject, "api: " + secretMark, 0o600},
		{filepath.Join(fx.project, ".env"), "TOKEN=" + secretMark, 0o600},
		{filepath.Join(fx.cache, "object"), "cached", 0o644},
		{filepath.Join(fx.project, "work", "README"), "a directory to write in", 0o644},
		{fx.decoyInside, decoy, 0o755},
		{fx.decoyTemp, decoy, 0o755},
		// A git dir with a submodule's, its settings holding a CI token.
		{filepath.Join(fx.project, ".git", "HEAD"), "ref: refs/heads/main\n", 0o644},
		{filepath.Join(fx.project, ".git", "objects", "info", "packs"), "", 0o644},
		{filepath.Join(fx.project, ".git", "config"), "[http]\n\textraheader = AUTHORIZATION: basic " + secretMark + "\n", 0o644},
		{filepath.Join(fx.project, ".git", "modules", "sub", "HEAD"), "ref: refs/heads/main\n", 0o644},
		{filepath.Join(fx.project, ".git", "modules", "sub", "objects", "info", "packs"), "", 0o644},
		{filepath.Join(fx.project, ".git", "modules", "sub", "config"), "[core]\n", 0o644},
		{filepath.Join(fx.project, ".git", "modules", "sub", "hooks", "README"), "", 0o644},
	} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err == nil {
			err = os.WriteFile(f.path, []byte(f.content), f.mode)
		}
		if err != nil {
			fx.close()
			return nil, err
		}
	}
	return fx, nil
}

// reset puts back the files a check may have changed.
func (fx *jailFixture) reset() error {
	for _, f := range []struct{ path, content string }{{fx.canary, "keep"}, {fx.decoyInside, decoy}, {fx.decoyTemp, decoy}} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(f.path, []byte(f.content), 0o755); err != nil {
			return err
		}
	}
	// A check that changed the canary's mode or times must not decide
	// the next one.
	if err := os.Chmod(fx.canary, 0o644); err != nil {
		return err
	}
	now := time.Now()
	return os.Chtimes(fx.canary, now, now)
}

func (fx *jailFixture) close() {
	for i := len(fx.closers) - 1; i >= 0; i-- {
		fx.closers[i]()
	}
}

// listen starts the listeners and the terminal the checks try to reach.
func (fx *jailFixture) listen() (tcpPort, udpPort int, sockTemp, sockHome string, err error) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return 0, 0, "", "", err
	}
	fx.closers = append(fx.closers, func() { ln.Close() })
	go acceptAll(ln, &fx.tcp)
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		return 0, 0, "", "", err
	}
	fx.closers = append(fx.closers, func() { pc.Close() })
	go func() {
		buf := make([]byte, 64)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
			fx.udp.Store(true)
		}
	}()
	sockTemp, sockHome = filepath.Join(fx.tmp, "s.sock"), filepath.Join(fx.outside, "s.sock")
	for _, s := range []struct {
		path string
		flag *atomic.Bool
	}{{sockTemp, &fx.sockTemp}, {sockHome, &fx.sockHome}} {
		ul, err := net.Listen("unix", s.path)
		if err != nil {
			return 0, 0, "", "", err
		}
		fx.closers = append(fx.closers, func() { ul.Close() })
		go acceptAll(ul, s.flag)
	}
	master, slave, err := pty.Open()
	if err != nil {
		return 0, 0, "", "", err
	}
	fx.ptyName = slave.Name()
	fx.closers = append(fx.closers, func() { master.Close(); slave.Close() })
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := master.Read(buf)
			fx.ptyMu.Lock()
			fx.ptyGot.Write(buf[:n])
			fx.ptyMu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port, pc.LocalAddr().(*net.UDPAddr).Port, sockTemp, sockHome, nil
}

func acceptAll(ln net.Listener, got *atomic.Bool) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		got.Store(true)
		conn.Close()
	}
}

// checks are the self-test's checks, each set up and judged from here.
func (fx *jailFixture) checks(ctx context.Context, st sandboxState) []jailCheck {
	tcpPort, udpPort, sockTemp, sockHome, lerr := fx.listen()
	q := shellQuote
	always := func(want string) func(safety.ProfileRights) (string, string) {
		return func(safety.ProfileRights) (string, string) { return want, "" }
	}
	ifNetwork := func(r safety.ProfileRights) (string, string) {
		if r.Network {
			return "allowed", "sandbox_network is on for these commands"
		}
		return "blocked", ""
	}
	writes := func(path string) func(safety.ProfileRights) (string, string) {
		return func(r safety.ProfileRights) (string, string) {
			if slices.ContainsFunc(r.Writable, func(w string) bool { return path == w || strings.HasPrefix(path, w+"/") }) {
				return "allowed", ""
			}
			return "blocked", ""
		}
	}
	has := func(what string) func(string, bool) bool {
		return func(out string, _ bool) bool { return strings.Contains(out, what) }
	}
	ran := func(_ string, ok bool) bool { return ok }
	fileIs := func(path, content string) bool {
		data, err := os.ReadFile(path)
		return err == nil && string(data) == content
	}
	bash := ""
	if _, err := exec.LookPath("bash"); err != nil {
		bash = "the check needs bash"
	}
	netSkip := bash
	if lerr != nil {
		netSkip = "cannot listen here: " + lerr.Error()
	}
	unixClient := `if command -v perl >/dev/null; then perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "connect: $!\n"' "$0";
elif command -v nc >/dev/null; then nc -U -z "$0";
elif command -v python3 >/dev/null; then python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1])' "$0";
else echo no Unix socket client; exit 3; fi`
	unixSkip := netSkip
	if unixSkip == "" && !haveAny("perl", "nc", "python3") {
		unixSkip = "the check needs perl, nc or python3"
	}
	homeSocket := func(r safety.ProfileRights) (string, string) {
		if r.Sockets == safety.SocketsListed && !st.Support.UnixByPath {
			return "allowed", fmt.Sprintf("approved commands may use Unix sockets outside the usual places: Landlock ABI %d cannot limit them by path", st.Support.ABI)
		}
		return "blocked", ""
	}
	tempSocket := func(r safety.ProfileRights) (string, string) {
		if r.Sockets == safety.SocketsListed && !st.Support.UnixByPath && !st.Support.Namespaces {
			return "allowed", fmt.Sprintf("without namespaces the machine's temp dir is shared, and Landlock ABI %d cannot limit Unix sockets by path", st.Support.ABI)
		}
		return "blocked", ""
	}
	metadata := func(safety.ProfileRights) (string, string) {
		if !st.Support.Namespaces {
			return "allowed", "without namespaces only Landlock holds the jail, and it does not govern a file's mode or times (the content stays safe)"
		}
		return "blocked", ""
	}
	dnsSkip := <-fx.dns
	if dnsSkip == "" && !haveAny("getent") {
		dnsSkip = "the check needs getent"
	}
	envSkip := ""
	fx.envChild = exec.Command("sleep", "120")
	fx.envChild.Env = append(os.Environ(), envMark)
	if err := fx.envChild.Start(); err != nil {
		envSkip = "cannot start a process to read: " + err.Error()
	} else {
		child := fx.envChild
		fx.closers = append(fx.closers, func() { _ = child.Process.Kill(); _ = child.Wait() })
	}
	childPid := 0
	if fx.envChild.Process != nil {
		childPid = fx.envChild.Process.Pid
	}
	ptySkip := ""
	if fx.ptyName == "" {
		ptySkip = "cannot open a terminal here"
	}
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGWINCH)
	fx.closers = append(fx.closers, func() { signal.Stop(signals) })
	signalled := func(string, bool) bool {
		select {
		case <-signals:
			return true
		case <-time.After(100 * time.Millisecond):
			return false
		}
	}
	settle := func(flag *atomic.Bool) func(string, bool) bool {
		return func(string, bool) bool {
			for deadline := time.Now().Add(100 * time.Millisecond); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				if flag.Load() {
					break
				}
			}
			return flag.Swap(false)
		}
	}
	inside := filepath.Join(fx.project, "work", "inside.txt")
	planted := filepath.Join(fx.cache, "planted")
	tmpPlanted := filepath.Join(fx.tmp, "planted")
	return []jailCheck{
		{name: "write outside the project", script: "echo changed > " + q(fx.canary), want: always("blocked"),
			happened: func(string, bool) bool { return !fileIs(fx.canary, "keep") }},
		{name: "chmod or touch outside the project", script: "chmod 0600 " + q(fx.canary) + "; touch -d 2001-01-01 " + q(fx.canary), want: metadata,
			happened: func(string, bool) bool {
				info, err := os.Stat(fx.canary)
				return err == nil && (info.Mode().Perm() != 0o644 || info.ModTime().Year() == 2001)
			}},
		{name: "plant a git hook or setting in a submodule", script: "echo 'touch x' > .git/modules/sub/hooks/post-checkout; echo '[core] fsmonitor = x' >> .git/modules/sub/config",
			want: func(r safety.ProfileRights) (string, string) {
				if r.Profile == safety.ProfileWorkspace {
					return "allowed", "commands you approve may change git's settings and hooks"
				}
				return "blocked", ""
			},
			happened: func(string, bool) bool {
				subGit := filepath.Join(fx.project, ".git", "modules", "sub")
				defer os.Remove(filepath.Join(subGit, "hooks", "post-checkout"))
				defer os.WriteFile(filepath.Join(subGit, "config"), []byte("[core]\n"), 0o644)
				_, err := os.Stat(filepath.Join(subGit, "hooks", "post-checkout"))
				return err == nil || !fileIs(filepath.Join(subGit, "config"), "[core]\n")
			}},
		{name: "read a token in the project's git settings", script: "cat .git/config", happened: has(secretMark),
			want: func(r safety.ProfileRights) (string, string) {
				if !r.HideHome {
					return "allowed", "these commands read the project's git settings as they are"
				}
				return "blocked", ""
			}},
		{name: "write inside the project", script: "echo written > work/inside.txt", want: writes(fx.project),
			happened: func(string, bool) bool { defer os.Remove(inside); return fileIs(inside, "written\n") }},
		{name: "read a secret in the project (.env)", script: "cat .env", happened: has(secretMark),
			want: func(r safety.ProfileRights) (string, string) {
				if r.MaskProjectSecrets {
					return "blocked", ""
				}
				return "allowed", "commands you approve may read the project's .env"
			}},
		{name: "read a secret in your home", script: "cat " + q(fx.homeKey), want: always("blocked"), happened: has(secretMark)},
		{name: otherProjectCheck, script: "cat " + q(fx.otherProject), happened: has(secretMark),
			want: func(r safety.ProfileRights) (string, string) {
				if r.HideHome {
					return "blocked", ""
				}
				return "allowed", "commands you approve read your files, but for credentials"
			}},
		{name: "write to another terminal", script: "printf PINCER-PTY > " + q(fx.ptyName), want: always("blocked"), skip: ptySkip,
			happened: func(string, bool) bool {
				time.Sleep(100 * time.Millisecond)
				fx.ptyMu.Lock()
				defer fx.ptyMu.Unlock()
				return strings.Contains(fx.ptyGot.String(), "PINCER-PTY")
			}},
		{name: "a Unix socket in the temp dir", script: "sh -c " + q(unixClient) + " " + q(sockTemp), want: tempSocket, skip: unixSkip, happened: settle(&fx.sockTemp)},
		{name: "a Unix socket in your home", script: "sh -c " + q(unixClient) + " " + q(sockHome), want: homeSocket, skip: unixSkip, happened: settle(&fx.sockHome)},
		{name: "TCP to this machine", script: fmt.Sprintf("bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d'", tcpPort), want: ifNetwork, skip: netSkip, happened: settle(&fx.tcp)},
		{name: "UDP to this machine", script: fmt.Sprintf("bash -c 'echo datagram >/dev/udp/127.0.0.1/%d'", udpPort), want: ifNetwork, skip: netSkip, happened: settle(&fx.udp)},
		{name: "DNS", script: "getent hosts example.com", want: ifNetwork, skip: dnsSkip, happened: ran},
		{name: "signal pincer", script: fmt.Sprintf("kill -WINCH %d", os.Getpid()), want: always("blocked"), happened: signalled},
		{name: "read another process's environment", script: fmt.Sprintf("tr '\\0' '\\n' < /proc/%d/environ", childPid), want: always("blocked"), skip: envSkip, happened: has(envMark)},
		{name: "replace pincer's program", want: always("blocked"),
			script:   fmt.Sprintf("for f in %[1]s %[2]s; do echo evil > \"$f\"; cp /bin/sh \"$f\"; mv \"$f\" \"$f.old\"; rm -f \"$f\"; echo evil > \"$f\"; done; mv bin bin.old && mkdir bin && echo evil > %[1]s", q(fx.decoyInside), q(fx.decoyTemp)),
			happened: func(string, bool) bool { return !fileIs(fx.decoyInside, decoy) || !fileIs(fx.decoyTemp, decoy) }},
		{name: "write a build cache", script: "echo planted > " + q(planted), want: writes(fx.cache),
			happened: func(string, bool) bool { defer os.Remove(planted); _, err := os.Stat(planted); return err == nil }},
		{name: "mktemp in the temp dir", script: `f=$(mktemp) && echo made > "$f" && cat "$f" && mkdir "${TMPDIR:-/tmp}/d.$$" && touch "${TMPDIR:-/tmp}/d.$$/x"`, want: always("allowed"),
			happened: func(out string, ok bool) bool { return ok && strings.Contains(out, "made") }},
		{name: "write the real temp dir", script: "echo planted > " + q(tmpPlanted), want: always("blocked"),
			happened: func(string, bool) bool { _, err := os.Stat(tmpPlanted); return err == nil }},
	}
}

// haveAny reports whether one of the programs is on PATH.
func haveAny(programs ...string) bool {
	for _, p := range programs {
		if _, err := exec.LookPath(p); err == nil {
			return true
		}
	}
	return false
}

// firstLineOf is the first line of s, for a short detail.
func firstLineOf(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
