//go:build linux

package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
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

// runSandboxed runs a shell script under spec through this test binary.
func runSandboxed(t *testing.T, spec Spec, script string) (string, error) {
	t.Helper()
	if !Probe().Available() {
		agenttest.Missing(t, "no Landlock on this kernel")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := Command(exe, spec, "/bin/sh", "-c", script)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Run()
	return out.String(), err
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
			out, err := runSandboxed(t, tt.spec, script)
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok=%v; output:\n%s", err, tt.ok, out)
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
			out, err := runSandboxed(t, Spec{Writable: []string{dir}}, script)
			if err != nil {
				t.Fatalf("%v: %s", err, out)
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
			for alive(pid) {
				if time.Now().After(deadline) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("process %d outlived the command", pid)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// alive reports whether pid runs (a zombie counts as dead).
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndex(s, ")")
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// TestHelperPassesOnACrash: a command that dies of a signal the Go runtime
// would turn into a crash dump ends with the shell's code for it (128+n),
// and the helper adds no dump of its own.
func TestHelperPassesOnACrash(t *testing.T) {
	dir := t.TempDir()
	for _, sig := range []syscall.Signal{syscall.SIGSEGV, syscall.SIGABRT, syscall.SIGTERM} {
		out, err := runSandboxed(t, Spec{Writable: []string{dir}, Network: true}, fmt.Sprintf("kill -%d $$", int(sig)))
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("signal %v: the helper ended with %v, want an exit status", sig, err)
		}
		if strings.Contains(out, "goroutine") || strings.Contains(out, "SIGSEGV: segmentation violation") {
			t.Errorf("signal %v: the helper printed a crash dump:\n%s", sig, out)
		}
		ws := exit.Sys().(syscall.WaitStatus)
		code := ws.ExitStatus()
		if ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
		if code != 128+int(sig) {
			t.Errorf("signal %v: status %d, want %d", sig, code, 128+int(sig))
		}
	}
}
