//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"pincer/agent/agenttest"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary serve as the sandbox helper, as pincer does.
func TestMain(m *testing.M) {
	if IsHelper(os.Args) {
		os.Exit(HelperMain(os.Args))
	}
	os.Exit(m.Run())
}

// runSandboxed runs a shell script under spec through this test binary
// as the helper, with a launcher of its own.
func runSandboxed(t *testing.T, spec Spec, script string) (string, Exit, error) {
	t.Helper()
	l := testLauncher(t, spec, false)
	return runWith(t, l, script)
}

// testLauncher is a launcher with this test binary as the helper; it
// skips the test where the kernel has no Landlock.
func testLauncher(t *testing.T, spec Spec, privateTemp bool) *Launcher {
	t.Helper()
	if !Probe().Available() {
		agenttest.Missing(t, "no Landlock on this kernel")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l := NewLauncher(exe, spec, privateTemp)
	t.Cleanup(l.Close)
	return l
}

// runWith runs a shell script through l and returns its output.
func runWith(t *testing.T, l *Launcher, script string) (string, Exit, error) {
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
	p, err := l.Start(Request{Path: "/bin/sh", Argv: []string{"sh", "-c", script}, Dir: t.TempDir(), Stdin: null, Stdout: pw, Stderr: pw})
	pw.Close()
	if err != nil {
		return "", Exit{}, err
	}
	out, _ := io.ReadAll(pr)
	exit, err := p.Wait()
	return string(out), exit, err
}

func TestHelperEnforces(t *testing.T) {
	base := t.TempDir()
	inside := filepath.Join(base, "project")
	outside := filepath.Join(base, "outside")
	home := filepath.Join(base, "home")
	secret := filepath.Join(home, ".ssh")
	for _, d := range []string{inside, outside, secret, filepath.Join(home, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	canary := filepath.Join(outside, "canary")
	if err := os.WriteFile(canary, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secret, "key"), []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	port := agenttest.ClosingListener(t)
	connect := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo CONNECTED", port)
	spec := Spec{Writable: []string{inside}, Hidden: []string{secret}}
	// A hidden tree inside a writable one stays hidden; the rest stays writable.
	homeSpec := Spec{Writable: []string{inside, home}, Hidden: []string{secret}}
	tests := []struct {
		name    string
		spec    Spec
		script  string
		ok      bool
		want    string
		canary  bool // the canary must still say "keep"
		needNet bool
	}{
		{"write inside", spec, "echo hi > " + inside + "/a && cat " + inside + "/a", true, "hi", false, false},
		{"mkdir and rename inside", spec, "mkdir -p " + inside + "/d/e && touch " + inside + "/x && mv " + inside + "/x " + inside + "/d/e/y && echo moved", true, "moved", false, false},
		{"write outside", spec, "echo bad > " + canary, false, "", true, false},
		{"rm outside", spec, "rm -f " + canary, false, "", true, false},
		{"touch outside", spec, "touch " + outside + "/new", false, "", true, false},
		{"read outside", spec, "cat " + canary, true, "keep", false, false},
		{"read hidden", spec, "cat " + secret + "/key", false, "", false, false},
		{"write hidden", spec, "echo x > " + secret + "/key2", false, "", false, false},
		{"write beside hidden", homeSpec, "echo ok > " + home + "/src/f && cat " + home + "/src/f", true, "ok", false, false},
		{"write hidden inside writable", homeSpec, "echo x > " + secret + "/authorized_keys", false, "", false, false},
		{"read hidden inside writable", homeSpec, "cat " + secret + "/key", false, "", false, false},
		{"dev null", spec, "echo x > /dev/null && echo fine", true, "fine", false, false},
		{"child stays inside", spec, "sh -c 'echo bad > " + canary + "'", false, "", true, false},
		{"background child stays inside", spec, "(sleep 0.1; echo bad > " + canary + ") & wait $!", false, "", true, false},
		{"network off", Spec{Writable: []string{inside}}, connect, false, "", false, true},
		{"network on", Spec{Writable: []string{inside}, Network: true}, connect, true, "CONNECTED", false, false},
		{"no sudo escalation", spec, "test $(cat /proc/self/status | grep NoNewPrivs | tr -dc 0-9) = 1 && echo nnp", true, "nnp", false, false},
	}
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Log("no bash: the network cases use /dev/tcp")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.needNet && !Probe().Network {
				agenttest.Missing(t, "the kernel cannot block the network")
			}
			script := tt.script
			if strings.Contains(script, "/dev/tcp") {
				script = "bash -c '" + script + "'"
			}
			out, exit, err := runSandboxed(t, tt.spec, script)
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
				if data, err := os.ReadFile(canary); err != nil || string(data) != "keep" {
					t.Errorf("canary = %q, %v; want it untouched", data, err)
				}
			}
		})
	}
}

// TestHelperKillsLeftovers: every process the command leaves behind dies
// with it, including those that left its process group.
func TestHelperKillsLeftovers(t *testing.T) {
	for _, tt := range []struct{ name, script string }{
		{"background", "sleep 7777 & echo $! > PIDFILE"},
		{"nohup", "nohup sleep 7777 >/dev/null 2>&1 & echo $! > PIDFILE"},
		{"setsid", "setsid sh -c 'echo $$ > PIDFILE; exec sleep 7777' >/dev/null 2>&1 & while [ ! -s PIDFILE ]; do sleep 0.05; done"},
		{"double fork", "(sh -c 'sleep 7777 & echo $! > PIDFILE' &) ; while [ ! -s PIDFILE ]; do sleep 0.05; done"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			pidfile := filepath.Join(dir, "pid")
			script := strings.ReplaceAll(tt.script, "PIDFILE", pidfile)
			out, exit, err := runSandboxed(t, Spec{Writable: []string{dir}}, script)
			if err != nil || exit != (Exit{}) {
				t.Fatalf("%v %+v: %s", err, exit, out)
			}
			data, err := os.ReadFile(pidfile)
			if err != nil {
				t.Fatal(err)
			}
			var pid int
			if _, err := fmt.Sscan(string(data), &pid); err != nil || pid <= 0 {
				t.Fatalf("pid file %q", data)
			}
			deadline := time.Now().Add(10 * time.Second)
			for agenttest.Alive(pid) {
				if time.Now().After(deadline) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("process %d outlived the command", pid)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// TestHelperPassesOnACrash: a command that dies of a signal is reported
// as killed by that signal, as it would be outside the sandbox, and the
// helper adds no crash dump of its own.
func TestHelperPassesOnACrash(t *testing.T) {
	dir := t.TempDir()
	l := testLauncher(t, Spec{Writable: []string{dir}, Network: true}, false)
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
}

// TestLauncherReusesOneHelper: commands in a row are served by one
// helper (the cost of starting one is paid once), each sees only its own
// stdin, stdout and stderr (not the helper's socket), and exit codes come
// back as they were.
func TestLauncherReusesOneHelper(t *testing.T) {
	dir := t.TempDir()
	l := testLauncher(t, Spec{Writable: []string{dir}}, false)
	var helpers []int
	for i, code := range []int{0, 3, 0} {
		out, exit, err := runWith(t, l, fmt.Sprintf("echo $PPID; for f in /proc/$$/fd/*; do readlink $f; done | tr '\\n' ' '; exit %d", code))
		if err != nil {
			t.Fatal(err)
		}
		if exit.Code != code || exit.Signal != 0 {
			t.Errorf("run %d: exit %+v, want code %d", i, exit, code)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 2 {
			t.Fatalf("run %d: output %q", i, out)
		}
		var ppid int
		fmt.Sscan(lines[0], &ppid)
		helpers = append(helpers, ppid)
		// The shell keeps descriptors of its own; none may be a socket.
		if strings.Contains(lines[1], "socket:") {
			t.Errorf("run %d: the command holds a socket: %s", i, lines[1])
		}
	}
	if helpers[0] != helpers[1] || helpers[1] != helpers[2] {
		t.Errorf("helpers %v: want one helper for commands in a row", helpers)
	}
}

// TestLauncherOverlapping: commands that run at the same time each get a
// helper, and each one's leftovers die with it, not with the other.
func TestLauncherOverlapping(t *testing.T) {
	dir := t.TempDir()
	l := testLauncher(t, Spec{Writable: []string{dir}}, false)
	gate := filepath.Join(dir, "gate")
	done := make(chan string, 1)
	go func() {
		out, _, err := runWith(t, l, "while [ ! -e "+gate+" ]; do sleep 0.02; done; echo first $PPID")
		if err != nil {
			out = err.Error()
		}
		done <- out
	}()
	out, exit, err := runWith(t, l, "echo second $PPID; touch "+gate)
	if err != nil || exit != (Exit{}) {
		t.Fatalf("%v %+v %s", err, exit, out)
	}
	first := <-done
	var a, b int
	fmt.Sscanf(first, "first %d", &a)
	fmt.Sscanf(out, "second %d", &b)
	if a == 0 || b == 0 || a == b {
		t.Errorf("first %q, second %q: want two helpers", first, out)
	}
}

// TestLauncherKill: Kill ends a running command and what it started.
func TestLauncherKill(t *testing.T) {
	dir := t.TempDir()
	l := testLauncher(t, Spec{Writable: []string{dir}}, false)
	pidfile := filepath.Join(dir, "pid")
	pr, pw, _ := os.Pipe()
	defer pr.Close()
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	p, err := l.Start(Request{Path: "sh", Argv: []string{"sh", "-c", "setsid sleep 7777 & echo $! > " + pidfile + "; sleep 7777"}, Dir: dir, Stdin: null, Stdout: pw, Stderr: pw})
	pw.Close()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 500; i++ {
		if data, _ := os.ReadFile(pidfile); len(data) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	data, _ := os.ReadFile(pidfile)
	var left int
	fmt.Sscan(string(data), &left)
	p.Kill()
	exit, err := p.Wait()
	if err != nil || exit.Signal != syscall.SIGKILL {
		t.Errorf("exit %+v, %v; want killed", exit, err)
	}
	if left == 0 || agenttest.Alive(left) || agenttest.Alive(p.Pid) {
		t.Errorf("after Kill: leftover %d alive %v, command alive %v", left, left != 0 && agenttest.Alive(left), agenttest.Alive(p.Pid))
	}
	// The helper serves the next command.
	if out, exit, err := runWith(t, l, "echo next"); err != nil || exit != (Exit{}) || out != "next\n" {
		t.Errorf("after Kill: %q %+v %v", out, exit, err)
	}
}

// TestLauncherPrivateTemp: in read-only mode the command writes only to
// its helper's temp dir, which is empty again for the next command.
func TestLauncherPrivateTemp(t *testing.T) {
	l := testLauncher(t, Spec{}, true)
	out, exit, err := runWith(t, l, `echo hi > "$TMPDIR/x" && ls "$TMPDIR" && echo $TMPDIR`)
	if err != nil || exit != (Exit{}) || !strings.HasPrefix(out, "x\n") {
		t.Fatalf("first: %q %+v %v", out, exit, err)
	}
	tmp := strings.TrimSpace(strings.TrimPrefix(out, "x\n"))
	if !strings.Contains(tmp, "pincer-cmd-") {
		t.Errorf("TMPDIR = %q", tmp)
	}
	out, exit, err = runWith(t, l, `ls -A "$TMPDIR"; echo x > /tmp/pincer-ro-test-$$`)
	if err != nil || exit == (Exit{}) || strings.Contains(out, "x\n") && !strings.Contains(out, "ermission") {
		t.Errorf("second: %q %+v %v; want an empty temp dir and the write elsewhere refused", out, exit, err)
	}
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

// TestLauncherBrokenHelper: a helper that cannot start is a clear error,
// not a hang.
func TestLauncherBrokenHelper(t *testing.T) {
	if !Probe().Available() {
		agenttest.Missing(t, "no Landlock on this kernel")
	}
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	for _, helper := range []string{"/bin/false", filepath.Join(t.TempDir(), "missing")} {
		l := NewLauncher(helper, Spec{}, false)
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
	dir := t.TempDir()
	l := testLauncher(t, Spec{Writable: []string{dir}}, false)
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	start := func(script string) (*Process, *os.File) {
		pr, pw, _ := os.Pipe()
		p, err := l.Start(Request{Path: "/bin/sh", Argv: []string{"sh", "-c", script}, Dir: dir, Stdin: null, Stdout: pw, Stderr: pw})
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
}
