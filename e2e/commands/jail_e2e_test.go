//go:build linux

package commands

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"pincer/agent/agenttest"
	sbx "pincer/tools/sandbox"
)

// jailPanes is a tmux session on a socket of the test's own with two
// panes: a victim shell (the person's other terminal) and the shell that
// runs pincer.
type jailPanes struct {
	t      *testing.T
	socket string // the -L name
	path   string // the socket's path, which a jailed command may try
}

func newJailPanes(t *testing.T, env []string) *jailPanes {
	t.Helper()
	switch missing, fail := e2etest.TmuxMissing(); {
	case fail:
		t.Fatal(missing)
	case missing != "":
		t.Skip(missing)
	}
	jp := &jailPanes{t: t, socket: fmt.Sprintf("pincer-jail-%d-%d", os.Getpid(), time.Now().UnixNano())}
	args := []string{"-L", jp.socket, "new-session", "-d", "-s", "j", "-x", "150", "-y", "45"}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	jp.tmux(append(args, "sh")...)
	jp.tmux("split-window", "-t", "j", "-v", "sh")
	t.Cleanup(func() { exec.Command("tmux", "-L", jp.socket, "kill-server").Run() })
	jp.path = strings.TrimSpace(jp.tmux("display", "-p", "-t", "j", "#{socket_path}"))
	return jp
}

func (jp *jailPanes) tmux(args ...string) string {
	jp.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", jp.socket}, args...)...).CombinedOutput()
	if err != nil {
		jp.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

// fresh starts both panes over with new shells and returns their ttys.
func (jp *jailPanes) fresh() (victim, runner string) {
	jp.t.Helper()
	for _, p := range []string{"j:0.0", "j:0.1"} {
		jp.tmux("respawn-pane", "-k", "-t", p, "sh")
		jp.tmux("clear-history", "-t", p)
	}
	time.Sleep(200 * time.Millisecond)
	return strings.TrimSpace(jp.tmux("display", "-p", "-t", "j:0.0", "#{pane_tty}")), strings.TrimSpace(jp.tmux("display", "-p", "-t", "j:0.1", "#{pane_tty}"))
}

func (jp *jailPanes) capture(pane string) string {
	return jp.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", pane)
}

// run types line into the runner pane and waits for "EXIT=".
func (jp *jailPanes) Run(line string) string {
	jp.t.Helper()
	jp.tmux("send-keys", "-t", "j:0.1", line+"; echo EXIT=$?", "Enter")
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if out := jp.capture("j:0.1"); strings.Contains(out, "\nEXIT=") {
			// Typed-in text (TIOCSTI) runs once the runner's shell reads again.
			time.Sleep(500 * time.Millisecond)
			return jp.capture("j:0.1")
		}
		time.Sleep(50 * time.Millisecond)
	}
	jp.t.Fatalf("%q never ended:\n%s", line, jp.capture("j:0.1"))
	return ""
}

// TestJailEndToEnd drives the real binary as a person would: `pincer
// sandbox exec` in one pane of a tmux session tries every escape of the
// self-test against a victim shell in the other pane and against
// stand-ins watched from here. The same script run without the jail gets
// through every one, so each check can fail.
func TestJailEndToEnd(t *testing.T) {
	s := e2etest.NewSandbox(t, "")
	bin := e2etest.Binary(t)
	if sup := sbx.Probe(); !sup.Jailed() {
		if os.Getenv("CI") == "true" && exec.Command("unshare", "--user", "--map-current-user", "true").Run() == nil {
			t.Fatalf("pincer found no jail (%s; %s), but this machine has user namespaces", sup.Reason, sup.NamespacesReason)
		}
		t.Skipf("no full jail on this machine: %s %s", sup.Reason, sup.NamespacesReason)
	}
	for _, p := range []string{"perl", "bash"} {
		if _, err := exec.LookPath(p); err != nil {
			agenttest.Missing(t, "the attack script needs "+p)
		}
	}
	// pincer's own program inside the project, and one in the temp dir.
	projBin := filepath.Join(s.Dir, "bin", "pincer")
	tmpDir, err := os.MkdirTemp("", "pincer-e2e-bin-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmpDir)
	tmpBin := filepath.Join(tmpDir, "pincer")
	program, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	canary := filepath.Join(s.Home, "outside", "canary")
	cache := filepath.Join(s.Home, ".cache", "go-build")
	reset := func() {
		for _, f := range []struct {
			path    string
			content []byte
			mode    os.FileMode
		}{
			{projBin, program, 0o755}, {tmpBin, program, 0o755}, {canary, []byte("keep"), 0o644},
			{filepath.Join(s.Dir, ".env"), []byte("TOKEN=E2E-PROJECT-SECRET"), 0o600},
			{filepath.Join(s.Home, ".ssh", "id_ed25519"), []byte("E2E-HOME-KEY"), 0o600},
			{filepath.Join(cache, "object"), []byte("cached"), 0o644},
		} {
			if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
				t.Fatal(err)
			}
			os.Remove(f.path) // a new file, so it is not busy and gets its mode
			if err := os.WriteFile(f.path, f.content, f.mode); err != nil {
				t.Fatal(err)
			}
		}
		os.Remove(filepath.Join(cache, "planted"))
	}
	var tcpGot, udpGot atomic.Bool
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
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
			tcpGot.Store(true)
			c.Close()
		}
	}()
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	go func() {
		buf := make([]byte, 64)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
			udpGot.Store(true)
		}
	}()

	jp := newJailPanes(t, s.Env)
	script := filepath.Join(s.Dir, "attack.sh")
	attack := func(victimTTY string, victim int) string {
		return strings.Join([]string{
			"printf 'E2E-PTY-WRITE' > " + victimTTY,
			"tmux -S " + jp.path + " send-keys -t j:0.0 'echo E2E-TMUX-''KEYS' Enter",
			`perl -e 'ioctl(STDIN, 0x5412, $_) for split //, "echo E2E-STI-" . "TYPED\n"'`,
			"echo changed > " + canary,
			"cat .env " + filepath.Join(s.Home, ".ssh", "id_ed25519"),
			"echo",
			fmt.Sprintf("bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d'", ln.Addr().(*net.TCPAddr).Port),
			fmt.Sprintf("bash -c 'echo datagram > /dev/udp/127.0.0.1/%d'", pc.LocalAddr().(*net.UDPAddr).Port),
			fmt.Sprintf("tr '\\0' '\\n' < /proc/%d/environ | grep E2E_ENV", victim),
			fmt.Sprintf("kill -KILL %d", victim),
			"for f in " + projBin + " " + tmpBin + `; do echo evil > "$f"; cp /bin/sh "$f"; mv -f "$f" "$f.old"; rm -f "$f"; echo evil > "$f"; done`,
			"mv bin bin.old && mkdir bin && echo evil > bin/pincer",
			"echo planted > " + filepath.Join(cache, "planted"),
			`f=$(mktemp) && echo made > "$f" && echo "E2E-MKTEMP-$(cat "$f")"`,
		}, "\n") + "\n"
	}
	type outcome struct {
		pty, keys, typed, canary, projSecret, homeKey, tcp, udp, killed, environ, binary, cache, mktemp bool
	}
	observe := func(runner string, victim *exec.Cmd) outcome {
		victimPane := jp.capture("j:0.0")
		var o outcome
		o.pty = strings.Contains(victimPane, "E2E-PTY-WRITE")
		o.keys = strings.Contains(victimPane, "E2E-TMUX-KEYS")
		// Typed in, the line is echoed, then run: its output is the
		// occurrence without "echo ".
		o.typed = strings.Count(runner, "E2E-STI-TYPED") > strings.Count(runner, "echo E2E-STI-TYPED")
		data, _ := os.ReadFile(canary)
		o.canary = string(data) != "keep"
		o.projSecret = strings.Contains(runner, "E2E-PROJECT-SECRET")
		o.homeKey = strings.Contains(runner, "E2E-HOME-KEY")
		time.Sleep(100 * time.Millisecond)
		o.tcp, o.udp = tcpGot.Swap(false), udpGot.Swap(false)
		o.killed = !agenttest.Alive(victim.Process.Pid)
		o.environ = strings.Contains(runner, "E2E_ENV_SECRET")
		for _, b := range []string{projBin, tmpBin} {
			if got, err := os.ReadFile(b); err != nil || len(got) != len(program) {
				o.binary = true
			}
		}
		_, err := os.Stat(filepath.Join(cache, "planted"))
		o.cache = err == nil
		o.mktemp = strings.Contains(runner, "E2E-MKTEMP-made")
		return o
	}
	try := func(line string) outcome {
		t.Helper()
		reset()
		os.RemoveAll(filepath.Join(s.Dir, "bin.old"))
		victim := exec.Command("sleep", "300")
		victim.Env = []string{"E2E_ENV_SECRET=1"}
		if err := victim.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { victim.Process.Kill(); victim.Wait() }()
		victimTTY, _ := jp.fresh()
		if err := os.WriteFile(script, []byte(attack(victimTTY, victim.Process.Pid)), 0o644); err != nil {
			t.Fatal(err)
		}
		return observe(jp.Run(line), victim)
	}

	// The control: without the jail, every attack gets through.
	control := try("cd " + s.Dir + " && sh attack.sh")
	if control != (outcome{true, true, true, true, true, true, true, true, true, true, true, true, true}) {
		t.Fatalf("without the jail the attacks should all get through (else the checks below prove nothing): %+v\n%s", control, jp.capture("j:0.1"))
	}
	for _, tt := range []struct {
		profile string
		want    outcome // what gets through
	}{
		{"inspect", outcome{mktemp: true}},
		{"contained", outcome{mktemp: true}},
		// Approved commands read the project's .env, reach the network and
		// write the real caches; nothing else.
		{"workspace", outcome{projSecret: true, tcp: true, udp: true, cache: true, mktemp: true}},
	} {
		t.Run(tt.profile, func(t *testing.T) {
			// The copy in the project runs: its own program lies in the
			// writable tree. (The one in the temp dir is a stand-in for
			// `go build -o /tmp/pincer`.)
			got := try(fmt.Sprintf("cd %s && %s sandbox exec --profile %s -- sh attack.sh", s.Dir, projBin, tt.profile))
			if got != tt.want {
				t.Errorf("got through: %+v\nwant only:   %+v\nrunner pane:\n%s", got, tt.want, jp.capture("j:0.1"))
			}
		})
	}
}

// TestSandboxExec: exec runs the command in the jail it names and exits
// with its status; a name that is no jail is refused.
func TestSandboxExec(t *testing.T) {
	s, canary := newSandboxedProject(t)
	r := s.Run("", "sandbox", "exec", "--profile", "inspect", "--", "sh", "-c", "echo hi; echo x > made.txt; exit 3")
	if r.Code != 3 || !strings.Contains(r.Stdout, "hi") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 3 and the command's output", r.Code, r.Stdout, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "made.txt")); err == nil {
		t.Error("inspect let the command write the project")
	}
	r = s.Run("", "sandbox", "exec", "--", "sh", "-c", "echo x > made.txt && echo y > "+canary)
	if _, err := os.Stat(filepath.Join(s.Dir, "made.txt")); err != nil || r.Code == 0 {
		t.Errorf("workspace (the default): exit %d, made.txt %v; want the project written and the canary refused", r.Code, err)
	}
	if data, _ := os.ReadFile(canary); string(data) != "keep" {
		t.Errorf("the canary became %q", data)
	}
	r = s.Run("", "sandbox", "exec", "--", "sh", "-c", "kill -KILL $$")
	if r.Code != 128+int(syscall.SIGKILL) {
		t.Errorf("a command killed by a signal: exit %d, want %d", r.Code, 128+int(syscall.SIGKILL))
	}
	// pincer's data and config dirs lie in the temp dir here (as
	// PINCER_DATA_DIR under /tmp does): commands still make files there
	// (issue 25), in the full jail and in the flat one.
	for _, env := range []string{"", "PINCER_SANDBOX_NAMESPACES=off"} {
		s2 := *s
		// The temp dir holds home, and so pincer's data dir.
		s2.Env = append(append([]string(nil), s.Env...), env, "TMPDIR="+filepath.Dir(s.Home))
		r = s2.Run("", "sandbox", "exec", "--profile", "inspect", "--", "sh", "-c", `f=$(mktemp) && echo made > "$f" && cat "$f" && mkdir "$TMPDIR/d" && touch "$TMPDIR/d/x"`)
		if r.Code != 0 || !strings.Contains(r.Stdout, "made") {
			t.Errorf("%s: mktemp in the temp dir: exit %d\n%s%s", env, r.Code, r.Stdout, r.Stderr)
		}
	}
	r = s.Run("", "sandbox", "exec", "--", "sh", "-c", "touch /tmp/pincer-exec-x && ls /tmp/pincer-exec-x")
	if r.Code != 0 {
		t.Errorf("touch /tmp/x in the full jail: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if _, err := os.Stat("/tmp/pincer-exec-x"); err == nil {
		os.Remove("/tmp/pincer-exec-x")
		t.Error("a file the jail made in its /tmp reached the machine's /tmp")
	}
	r = s.Run("", "sandbox", "exec", "--profile", "none", "--", "true")
	if r.Code != 2 || !strings.Contains(r.Stderr, "inspect, contained or workspace") {
		t.Errorf("--profile none: exit %d, %q", r.Code, r.Stderr)
	}
	r = s.Run("", "sandbox", "exec", "--sandbox", "off", "--", "true")
	if r.Code != 2 || !strings.Contains(r.Stderr, "there is no jail") {
		t.Errorf("exec with the sandbox off ran unjailed: %q", r.Stdout)
	}
}

// TestRefusesAWorldWritablePlace: pincer will not run from a directory
// every user may write, and says why and where to move it.
func TestRefusesAWorldWritablePlace(t *testing.T) {
	s := e2etest.NewSandbox(t, "")
	dir := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(e2etest.Binary(t))
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dir, "pincer")
	if err := os.WriteFile(copied, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(copied, "--version")
	cmd.Env = s.Env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "every user may write "+dir) || !strings.Contains(string(out), "~/.local/bin") {
		t.Errorf("from %s: %v\n%s", dir, err, out)
	}
}
