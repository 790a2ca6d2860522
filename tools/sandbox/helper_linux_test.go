//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// TestMain lets the test binary serve as the sandbox helper, as pincer
// does, and as the probe that tries system calls inside a jail.
func TestMain(m *testing.M) {
	if IsHelper(os.Args) {
		os.Exit(HelperMain(os.Args))
	}
	if p := os.Getenv("PINCER_SANDBOX_PROBE"); p != "" {
		os.Exit(probe(strings.Fields(p)))
	}
	os.Exit(m.Run())
}

// layouts are the two ways a jail is built: flat (Landlock, seccomp, no
// capabilities) and with namespaces too.
var layouts = []struct {
	name string
	flat bool
}{{"flat", true}, {"jail", false}}

// needJail stops a test of a layer the machine lacks: it says which, and
// fails under CI only when the machine does have it (so a broken probe of
// pincer's own cannot turn the test into a skip).
func needJail(t testing.TB, flat bool) {
	t.Helper()
	sup := Probe()
	if !sup.Available() {
		agenttest.Missing(t, "no Landlock on this kernel")
	}
	if flat || sup.Namespaces {
		return
	}
	if os.Getenv("CI") == "true" && machineHasUserNamespaces() {
		t.Fatalf("pincer found no namespaces (%s), but this machine has them", sup.NamespacesReason)
	}
	t.Skipf("this machine has no user namespaces for the jail (%s)", sup.NamespacesReason)
}

// machineHasUserNamespaces asks util-linux, not pincer, whether this
// user may make a user namespace; false where unshare is missing.
func machineHasUserNamespaces() bool {
	return exec.Command("unshare", "--user", "--map-current-user", "true").Run() == nil
}

// testLauncher is a launcher with this test binary as the helper.
func testLauncher(t *testing.T, spec Spec) *Launcher {
	t.Helper()
	needJail(t, spec.Flat)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l := NewLauncher(exe, spec)
	t.Cleanup(func() { closeAndWait(t, l) })
	return l
}

// closeAndWait closes l and waits until its helpers are gone and its
// directory removed, which Close leaves to happen in the background for a
// helper still busy with a command: a test binary that exits first leaves
// a pincer-jail-* directory in the machine's temp dir each run, and every
// flat jail later lists that directory entry by entry.
func closeAndWait(t testing.TB, l *Launcher) {
	l.Close()
	for deadline := time.Now().Add(killTimeout + 2*time.Second); ; time.Sleep(5 * time.Millisecond) {
		l.mu.Lock()
		state := l.state
		l.mu.Unlock()
		if state == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("the launcher's directory %s is still there %s after Close", state, killTimeout+2*time.Second)
			return
		}
	}
}

// runWith runs a shell script through l in its root (or /) and returns
// its output.
func runWith(t *testing.T, l *Launcher, script string) (string, Exit, error) {
	t.Helper()
	return runEnv(t, l, nil, script)
}

func runEnv(t *testing.T, l *Launcher, env []string, script string) (string, Exit, error) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	dir := "/"
	if l.spec.Root != "" {
		dir = l.spec.Root
	}
	env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	p, err := l.Start(Request{Path: "/bin/sh", Argv: []string{"sh", "-c", script}, Env: env, Dir: dir, Stdin: null, Stdout: pw, Stderr: pw})
	pw.Close()
	if err != nil {
		return "", Exit{}, err
	}
	out, _ := io.ReadAll(pr)
	exit, err := p.Wait()
	return string(out), exit, err
}

// tree is a project, a home beside it with a key and a canary outside
// the project, all in a test's temp dir (which the jail must keep in
// view although it replaces /tmp).
type tree struct {
	base, root, home, canary, key string
}

func newTree(t *testing.T) tree {
	t.Helper()
	return newTreeIn(t, t.TempDir())
}

// newTreeOutsideTemp is newTree in a directory of the test's own under
// the user's cache dir: not inside a temp dir, which the jail replaces
// and keeps paths of read-only, so what holds for the real home holds
// for it.
func newTreeOutsideTemp(t *testing.T) tree {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	base, err := os.MkdirTemp(cache, "pincer-jail-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	return newTreeIn(t, base)
}

func newTreeIn(t *testing.T, base string) tree {
	t.Helper()
	tr := tree{base: base, root: filepath.Join(base, "project"), home: filepath.Join(base, "home")}
	tr.canary = filepath.Join(tr.home, "outside", "canary")
	tr.key = filepath.Join(tr.home, ".ssh", "id_ed25519")
	for _, f := range []struct{ path, content string }{
		{tr.canary, "keep"}, {tr.key, "s3cret"}, {filepath.Join(tr.root, "README"), "readme"}, {filepath.Join(tr.home, "src", "f"), ""},
	} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, []byte(f.content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

func TestHelperEnforces(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			tr := newTree(t)
			secret := filepath.Dir(tr.key)
			port := agenttest.ClosingListener(t)
			connect := fmt.Sprintf("bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d' && echo CONNECTED", port)
			spec := Spec{Root: tr.root, Home: tr.home, Writable: []string{tr.root}, Hidden: []string{secret}, Flat: layout.flat}
			// A hidden tree inside a writable one stays hidden; the rest stays writable.
			homeSpec := spec
			homeSpec.Writable = []string{tr.root, tr.home}
			online := spec
			online.Network = true
			// One launcher per spec, as pincer keeps one: the first case of
			// each builds the jail, the later ones run in it again, so the
			// cases check a reused helper as well as a fresh one.
			// A launcher starts its helper at its first command.
			launchers := map[string]*Launcher{"spec": testLauncher(t, spec), "homeSpec": testLauncher(t, homeSpec), "online": testLauncher(t, online)}
			tests := []struct {
				name   string
				spec   string // a key of launchers
				script string
				ok     bool
				want   string
				canary bool // the canary must still say "keep"
			}{
				{"write inside", "spec", "echo hi > a && cat a", true, "hi", false},
				{"mkdir and rename inside", "spec", "mkdir -p d/e && touch x && mv x d/e/y && echo moved", true, "moved", false},
				{"write outside", "spec", "echo bad > " + tr.canary, false, "", true},
				{"rm outside", "spec", "rm " + tr.canary, false, "", true},
				{"touch outside", "spec", "touch " + filepath.Dir(tr.canary) + "/new", false, "", true},
				{"read outside", "spec", "cat " + tr.canary, true, "keep", false},
				{"read hidden", "spec", "cat " + tr.key, false, "", false},
				{"write hidden", "spec", "echo x > " + secret + "/key2", false, "", false},
				{"write beside hidden", "homeSpec", "echo ok > " + tr.home + "/src/f && cat " + tr.home + "/src/f", true, "ok", false},
				{"write hidden inside writable", "homeSpec", "echo x > " + secret + "/authorized_keys", false, "", false},
				{"read hidden inside writable", "homeSpec", "cat " + tr.key, false, "", false},
				{"dev null", "spec", "echo x > /dev/null && echo fine", true, "fine", false},
				{"child stays inside", "spec", "sh -c 'echo bad > " + tr.canary + "'", false, "", true},
				{"background child stays inside", "spec", "(sleep 0.1; echo bad > " + tr.canary + ") & wait $!", false, "", true},
				{"network off", "spec", connect, false, "", false},
				{"network on", "online", connect, true, "CONNECTED", false},
				{"no privileges", "spec", "grep -E '^(NoNewPrivs|CapEff|CapBnd)' /proc/self/status", true, "NoNewPrivs:\t1", false},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					if strings.Contains(tt.script, "/dev/tcp") && !Probe().Network {
						agenttest.Missing(t, "the kernel cannot take the network away")
					}
					out, exit, err := runWith(t, launchers[tt.spec], tt.script)
					if err != nil {
						t.Fatal(err)
					}
					if (exit == Exit{}) != tt.ok {
						t.Fatalf("exit = %+v, want ok=%v; output:\n%s", exit, tt.ok, out)
					}
					if !strings.Contains(out, tt.want) {
						t.Errorf("output %q lacks %q", out, tt.want)
					}
					if tt.canary {
						if data, err := os.ReadFile(tr.canary); err != nil || string(data) != "keep" {
							t.Errorf("canary = %q, %v; want it untouched", data, err)
						}
					}
				})
			}
		})
	}
}

// TestHelperKillsLeftovers: every process the command leaves behind dies
// with it, including those that left its process group. The sleeps are
// marked so the test finds them from outside a pid namespace.
func TestHelperKillsLeftovers(t *testing.T) {
	for _, layout := range layouts {
		for i, tt := range []struct{ name, script string }{
			{"background", "sleep MARK & echo $! > PIDFILE"},
			{"nohup", "nohup sleep MARK >/dev/null 2>&1 & echo $! > PIDFILE"},
			{"setsid", "setsid sh -c 'echo $$ > PIDFILE; exec sleep MARK' >/dev/null 2>&1 & while [ ! -s PIDFILE ]; do sleep 0.05; done"},
			{"double fork", "(sh -c 'sleep MARK & echo $! > PIDFILE' &) ; while [ ! -s PIDFILE ]; do sleep 0.05; done"},
		} {
			t.Run(layout.name+"/"+tt.name, func(t *testing.T) {
				dir := t.TempDir()
				marker := fmt.Sprintf("88%d%d.5", i, time.Now().UnixNano()%100000)
				script := strings.NewReplacer("PIDFILE", filepath.Join(dir, "pid"), "MARK", marker).Replace(tt.script)
				out, exit, err := runWith(t, testLauncher(t, Spec{Root: dir, Writable: []string{dir}, Flat: layout.flat}), script)
				if err != nil || exit != (Exit{}) {
					t.Fatalf("%v %+v: %s", err, exit, out)
				}
				if _, err := os.Stat(filepath.Join(dir, "pid")); err != nil {
					t.Fatalf("the command did not start its leftover: %v", err)
				}
				if left := agenttest.WaitUnmarked(marker, 10*time.Second); len(left) > 0 {
					for _, pid := range left {
						syscall.Kill(pid, syscall.SIGKILL)
					}
					t.Fatalf("processes %v outlived the command", left)
				}
			})
		}
	}
}

// TestHelperPassesOnACrash: a command that dies of a signal is reported
// as killed by that signal, as it would be outside the sandbox, and the
// helper adds no crash dump of its own.
func TestHelperPassesOnACrash(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			dir := t.TempDir()
			l := testLauncher(t, Spec{Root: dir, Writable: []string{dir}, Network: true, Flat: layout.flat})
			for _, sig := range []syscall.Signal{syscall.SIGSEGV, syscall.SIGABRT, syscall.SIGTERM} {
				out, exit, err := runWith(t, l, fmt.Sprintf("kill -%d $$", int(sig)))
				if err != nil {
					t.Fatalf("signal %v: %v", sig, err)
				}
				if strings.Contains(out, "goroutine") || strings.Contains(out, "SIGSEGV: segmentation violation") {
					t.Errorf("signal %v: the helper printed a crash dump:\n%s", sig, out)
				}
				if exit.Signal != sig {
					t.Errorf("signal %v: exit %+v", sig, exit)
				}
			}
			// The helper lived through all three and still serves.
			if out, exit, err := runWith(t, l, "echo still"); err != nil || exit != (Exit{}) || out != "still\n" {
				t.Errorf("after the crashes: %q %+v %v", out, exit, err)
			}
		})
	}
}

// whichHelper is a shell snippet that names the helper serving the
// command: its pid, and its pid namespace (in the namespaces every helper
// is 1 of a namespace of its own).
const whichHelper = `echo "helper $PPID $(readlink /proc/$$/ns/pid)"`

// TestLauncherReusesOneHelper: commands in a row are served by one
// helper (the cost of starting one is paid once), each sees only its own
// stdin, stdout and stderr (not the helper's socket), and exit codes come
// back as they were.
func TestLauncherReusesOneHelper(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			dir := t.TempDir()
			l := testLauncher(t, Spec{Root: dir, Writable: []string{dir}, Flat: layout.flat})
			var helpers []string
			for i, code := range []int{0, 3, 0} {
				out, exit, err := runWith(t, l, fmt.Sprintf("%s; for f in /proc/$$/fd/*; do readlink $f; done | tr '\\n' ' '; exit %d", whichHelper, code))
				if err != nil {
					t.Fatal(err)
				}
				if exit.Code != code || exit.Signal != 0 {
					t.Errorf("run %d: exit %+v, want code %d", i, exit, code)
				}
				lines := strings.Split(strings.TrimSpace(out), "\n")
				if len(lines) != 2 || !strings.HasPrefix(lines[0], "helper ") {
					t.Fatalf("run %d: output %q", i, out)
				}
				helpers = append(helpers, lines[0])
				// The shell keeps descriptors of its own; none may be a socket.
				if strings.Contains(lines[1], "socket:") {
					t.Errorf("run %d: the command holds a socket: %s", i, lines[1])
				}
			}
			if helpers[0] != helpers[1] || helpers[1] != helpers[2] {
				t.Errorf("helpers %v: want one helper for commands in a row", helpers)
			}
		})
	}
}

// launcherInOwnTemp is a launcher for a fresh project dir whose helpers
// make their directories in tmp, a TMPDIR of the test's own, so what they
// leave behind can be counted.
func launcherInOwnTemp(t *testing.T, flat bool) (tmp, dir string, l *Launcher) {
	t.Helper()
	needJail(t, flat)
	tmp = t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir = t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return tmp, dir, NewLauncher(exe, Spec{Root: dir, Writable: []string{dir}, Flat: flat})
}

// TestLauncherCloseRemovesItsDirectory: once Close returns, the
// launcher's pincer-jail-* directory is gone, whether its helper was
// idle after a command, still starting for Warm, or both; a process that
// exits right after Close leaves nothing in the temp dir.
func TestLauncherCloseRemovesItsDirectory(t *testing.T) {
	for _, layout := range layouts {
		for _, tt := range []struct {
			name      string
			run, warm bool
		}{
			{"idle after a command", true, false},
			{"warming", false, true},
			{"idle and warming", true, true},
		} {
			t.Run(layout.name+"/"+tt.name, func(t *testing.T) {
				tmp, dir, l := launcherInOwnTemp(t, layout.flat)
				gate := filepath.Join(dir, "gate")
				var busy *Process
				if tt.run {
					// The command holds its helper while Warm starts another,
					// so both are there at Close: one idle, one warming.
					null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
					if err != nil {
						t.Fatal(err)
					}
					defer null.Close()
					script := "while [ ! -e " + gate + " ]; do sleep 0.01; done"
					busy, err = l.Start(Request{Path: "/bin/sh", Argv: []string{"sh", "-c", script}, Dir: dir, Stdin: null, Stdout: null, Stderr: null})
					if err != nil {
						t.Fatal(err)
					}
				}
				if tt.warm {
					l.Warm()
					next := 1
					if tt.run {
						next = 2
					}
					waitForGlob(t, filepath.Join(tmp, "pincer-jail-*", fmt.Sprintf("h%d", next)))
				}
				if tt.run {
					if err := os.WriteFile(gate, nil, 0o600); err != nil {
						t.Fatal(err)
					}
					if exit, err := busy.Wait(); err != nil || exit != (Exit{}) {
						t.Fatalf("the command ended with %+v, %v", exit, err)
					}
				}
				l.Close()
				if left, _ := filepath.Glob(filepath.Join(tmp, "pincer-jail-*")); len(left) > 0 {
					t.Errorf("left after Close returned: %v", left)
				}
			})
		}
	}
}

// TestLauncherShutdownStopsBusyHelpers: Shutdown, for a process about to
// exit, also ends a command still running, and returns once every
// directory is removed; Close alone leaves a busy helper to its command.
func TestLauncherShutdownStopsBusyHelpers(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			tmp, dir, l := launcherInOwnTemp(t, layout.flat)
			null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer null.Close()
			p, err := l.Start(Request{Path: "/bin/sh", Argv: []string{"sh", "-c", "while :; do sleep 1; done"}, Dir: dir, Stdin: null, Stdout: null, Stderr: null})
			if err != nil {
				t.Fatal(err)
			}
			l.Shutdown()
			if left, _ := filepath.Glob(filepath.Join(tmp, "pincer-jail-*")); len(left) > 0 {
				t.Errorf("left after Shutdown returned: %v", left)
			}
			if exit, err := p.Wait(); err == nil && exit == (Exit{}) {
				t.Errorf("the command ran on to a clean exit; want it ended")
			}
		})
	}
}

// waitForGlob waits until something matches pattern.
func waitForGlob(t *testing.T, pattern string) {
	t.Helper()
	for deadline := time.Now().Add(readyTimeout); ; time.Sleep(time.Millisecond) {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing matches %s after %s", pattern, readyTimeout)
		}
	}
}

// TestLauncherOverlapping: commands that run at the same time each get a
// helper.
func TestLauncherOverlapping(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			dir := t.TempDir()
			l := testLauncher(t, Spec{Root: dir, Writable: []string{dir}, Flat: layout.flat})
			gate := filepath.Join(dir, "gate")
			done := make(chan string, 1)
			go func() {
				out, _, err := runWith(t, l, "while [ ! -e "+gate+" ]; do sleep 0.02; done; "+whichHelper)
				if err != nil {
					out = err.Error()
				}
				done <- out
			}()
			out, exit, err := runWith(t, l, whichHelper+"; touch "+gate)
			if err != nil || exit != (Exit{}) {
				t.Fatalf("%v %+v %s", err, exit, out)
			}
			first := <-done
			if !strings.HasPrefix(first, "helper ") || !strings.HasPrefix(out, "helper ") || first == out {
				t.Errorf("first %q, second %q: want two helpers", first, out)
			}
		})
	}
}

// TestLauncherKill: Kill ends a running command and what it started.
func TestLauncherKill(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			dir := t.TempDir()
			l := testLauncher(t, Spec{Root: dir, Writable: []string{dir}, Flat: layout.flat})
			marker := fmt.Sprintf("99%d.5", time.Now().UnixNano()%100000)
			pidfile := filepath.Join(dir, "pid")
			pr, pw, _ := os.Pipe()
			defer pr.Close()
			null, _ := os.Open(os.DevNull)
			defer null.Close()
			p, err := l.Start(Request{Path: "sh", Argv: []string{"sh", "-c", "setsid sleep " + marker + " & echo $! > " + pidfile + "; exec sleep " + marker},
				Env: []string{"PATH=" + os.Getenv("PATH")}, Dir: dir, Stdin: null, Stdout: pw, Stderr: pw})
			pw.Close()
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 500 && len(agenttest.Marked(marker)) < 2; i++ {
				time.Sleep(10 * time.Millisecond)
			}
			if n := len(agenttest.Marked(marker)); n != 2 {
				t.Fatalf("%d marked processes, want the command and its leftover", n)
			}
			p.Kill()
			exit, err := p.Wait()
			if err != nil || exit.Signal != syscall.SIGKILL {
				t.Errorf("exit %+v, %v; want killed", exit, err)
			}
			if left := agenttest.WaitUnmarked(marker, 5*time.Second); len(left) > 0 {
				t.Errorf("after Kill %v still run", left)
			}
			// The helper serves the next command.
			if out, exit, err := runWith(t, l, "echo next"); err != nil || exit != (Exit{}) || out != "next\n" {
				t.Errorf("after Kill: %q %+v %v", out, exit, err)
			}
		})
	}
}

// TestLauncherScratchTemp: a scratch temp dir is the only place a command
// without writable paths may write, and is empty again for the next one.
func TestLauncherScratchTemp(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			dir := t.TempDir()
			l := testLauncher(t, Spec{Root: dir, ScratchTemp: true, Flat: layout.flat})
			out, exit, err := runWith(t, l, `echo hi > "$TMPDIR/x" && f=$(mktemp) && echo "$f" && ls "$TMPDIR" && echo "TMPDIR=$TMPDIR"`)
			if err != nil || exit != (Exit{}) || !strings.Contains(out, "\nx\n") {
				t.Fatalf("first: %q %+v %v", out, exit, err)
			}
			tmp := out[strings.LastIndex(out, "TMPDIR=")+len("TMPDIR="):]
			tmp = strings.TrimSpace(tmp)
			if layout.flat == (tmp == "/tmp") {
				t.Errorf("TMPDIR = %q: in the namespaces /tmp is the jail's own, flat a directory of its own", tmp)
			}
			out, exit, err = runWith(t, l, `ls -A "$TMPDIR" | grep -v "^`+strings.Split(strings.TrimPrefix(dir, "/tmp/"), "/")[0]+`$"; echo x > `+dir+`/made`)
			if err != nil || exit == (Exit{}) || strings.Contains(out, "x\n") && !strings.Contains(out, "ermission") && !strings.Contains(out, "ead-only") {
				t.Errorf("second: %q %+v %v; want an empty temp dir and the write to the project refused", out, exit, err)
			}
			if _, err := os.Stat(filepath.Join(dir, "made")); err == nil {
				t.Error("the write to the project landed")
			}
			if layout.flat {
				l.Close()
				// Closing the launcher removes the dir (once its helper has exited).
				for i := 0; i < 300; i++ {
					if _, err := os.Stat(tmp); errors.Is(err, os.ErrNotExist) {
						return
					}
					time.Sleep(10 * time.Millisecond)
				}
				t.Errorf("%s outlived the launcher", tmp)
			}
		})
	}
}

// TestLauncherBrokenHelper: a helper that cannot start is a clear error,
// not a hang.
func TestLauncherBrokenHelper(t *testing.T) {
	needJail(t, true)
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	for _, helper := range []string{"/bin/false", filepath.Join(t.TempDir(), "missing")} {
		l := NewLauncher(helper, Spec{Flat: true})
		_, err := l.Start(Request{Path: "/bin/true", Argv: []string{"true"}, Stdin: null, Stdout: null, Stderr: null})
		if err == nil || !strings.Contains(err.Error(), "helper") {
			t.Errorf("%s: err = %v, want it to name the helper", helper, err)
		}
		l.Close()
	}
}

// TestKillAfterTheEndReachesNoOtherCommand: a Kill that comes after its
// command ended (an Esc racing the end) does not stop the next command
// the same helper runs.
func TestKillAfterTheEndReachesNoOtherCommand(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			dir := t.TempDir()
			l := testLauncher(t, Spec{Root: dir, Writable: []string{dir}, Flat: layout.flat})
			null, _ := os.Open(os.DevNull)
			defer null.Close()
			start := func(script string) (*Process, *os.File) {
				pr, pw, _ := os.Pipe()
				p, err := l.Start(Request{Path: "/bin/sh", Argv: []string{"sh", "-c", script}, Env: []string{"PATH=" + os.Getenv("PATH")}, Dir: dir, Stdin: null, Stdout: pw, Stderr: pw})
				pw.Close()
				if err != nil {
					t.Fatal(err)
				}
				return p, pr
			}
			first, out1 := start("true")
			if _, err := first.Wait(); err != nil {
				t.Fatal(err)
			}
			out1.Close()
			second, out2 := start("sleep 0.3; echo survived")
			defer out2.Close()
			first.Kill() // late: the first command is over
			data, _ := io.ReadAll(out2)
			exit, err := second.Wait()
			if err != nil || exit != (Exit{}) || string(data) != "survived\n" {
				t.Errorf("the second command: %q %+v %v; a late Kill of the first reached it", data, exit, err)
			}
		})
	}
}

// BenchmarkLauncher is the cost of one `/bin/true` through a warm helper,
// flat (Landlock, seccomp) and in the full jail (namespaces too): the
// namespaces' cost per command, apart from the shell's.
func BenchmarkLauncher(b *testing.B) {
	isSecret := func(p string, _ bool) bool { return strings.HasSuffix(p, ".env") }
	for _, tc := range []struct {
		name                string
		flat, secrets, home bool
		hideHome            bool
	}{
		{"flat", true, false, false, false}, {"jail", false, false, false, false}, {"jail, hiding the project's secrets", false, true, false, false},
		{"jail, project in home", false, true, true, false}, {"jail, project in a hidden home", false, true, true, true},
		{"flat, project in a hidden home", true, true, true, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			dir := b.TempDir()
			needJail(b, tc.flat)
			exe, _ := os.Executable()
			spec := Spec{Root: dir, Writable: []string{dir}, Flat: tc.flat}
			if tc.secrets {
				spec.SecretRoots, spec.IsSecret = []string{dir}, isSecret
			}
			if tc.home {
				// A home outside the temp dir, as a real one is, with the
				// project and toolchain paths in it.
				cache, _ := os.UserCacheDir()
				home, err := os.MkdirTemp(cache, "pincer-bench-home-")
				if err != nil {
					b.Fatal(err)
				}
				defer os.RemoveAll(home)
				dir = filepath.Join(home, "src", "proj")
				for _, d := range []string{dir, filepath.Join(home, "go", "bin"), filepath.Join(home, ".config", "git"), filepath.Join(home, "src", "other")} {
					if err := os.MkdirAll(d, 0o755); err != nil {
						b.Fatal(err)
					}
				}
				spec.Root, spec.Writable, spec.SecretRoots = dir, nil, []string{dir}
				spec.Home, spec.HideHome = home, tc.hideHome
				spec.HomeKeep = []string{filepath.Join(home, "go", "bin"), filepath.Join(home, ".config", "git")}
			}
			l := NewLauncher(exe, spec)
			defer closeAndWait(b, l)
			null, _ := os.Open(os.DevNull)
			defer null.Close()
			run := func() {
				p, err := l.Start(Request{Path: "/bin/true", Argv: []string{"true"}, Dir: dir, Stdin: null, Stdout: null, Stderr: null})
				if err != nil {
					b.Fatal(err)
				}
				if exit, err := p.Wait(); err != nil || exit != (Exit{}) {
					b.Fatal(exit, err)
				}
			}
			run() // the helper starts
			for b.Loop() {
				run()
			}
		})
	}
}

// BenchmarkHelperStart is the cost of a new helper, paid once per jail
// and session in the background (Warm), flat and in the full jail, and
// in the full jail around a project in a home it hides or keeps in view
// (the home's kept paths are mounts of their own).
func BenchmarkHelperStart(b *testing.B) {
	for _, tc := range []struct {
		name           string
		flat           bool
		home, hideHome bool
	}{{"flat", true, false, false}, {"jail", false, false, false}, {"jail, project in home", false, true, false}, {"jail, project in a hidden home", false, true, true}} {
		b.Run(tc.name, func(b *testing.B) {
			dir := b.TempDir()
			needJail(b, tc.flat)
			exe, _ := os.Executable()
			null, _ := os.Open(os.DevNull)
			defer null.Close()
			spec := Spec{Root: dir, Writable: []string{dir}, Flat: tc.flat}
			if tc.home {
				cache, _ := os.UserCacheDir()
				home, err := os.MkdirTemp(cache, "pincer-bench-home-")
				if err != nil {
					b.Fatal(err)
				}
				defer os.RemoveAll(home)
				var keep []string
				for _, d := range []string{"src/proj", "src/other", "go/bin", "go/pkg/mod", ".config/git", ".config/go", ".cargo/bin", ".rustup", ".local/bin", ".local/lib", ".nvm", ".pyenv"} {
					keep = append(keep, filepath.Join(home, d))
					if err := os.MkdirAll(keep[len(keep)-1], 0o755); err != nil {
						b.Fatal(err)
					}
				}
				dir = keep[0]
				spec = Spec{Root: dir, Writable: []string{dir}, Home: home, HideHome: tc.hideHome, HomeKeep: keep[2:]}
			}
			for b.Loop() {
				l := NewLauncher(exe, spec)
				p, err := l.Start(Request{Path: "/bin/true", Argv: []string{"true"}, Dir: dir, Stdin: null, Stdout: null, Stderr: null})
				if err != nil {
					b.Fatal(err)
				}
				p.Wait()
				l.Close()
			}
		})
	}
}
