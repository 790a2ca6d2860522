//go:build linux

package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"pincer/agent/agenttest"
	"slices"
	"strings"
	"testing"
	"time"

	"pincer/safety"
	"pincer/tools/sandbox"
)

// testSandbox is a set of jails around root with this test binary as
// the helper, as pincer's policy would make them: home (for the canary
// outside the project) stays in view; it skips the test where the kernel
// has no Landlock.
func testSandbox(t *testing.T, root, home string) *CommandSandbox {
	t.Helper()
	if !sandbox.Probe().Available() {
		agenttest.Missing(t, "no Landlock on this kernel")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &CommandSandbox{Helper: exe, Specs: map[safety.Profile]sandbox.Spec{
		safety.ProfileInspect:   {Root: root, Home: home, ScratchTemp: true},
		safety.ProfileContained: {Root: root, Home: home, Writable: []string{root}, Unix: sandbox.UnixJail},
		safety.ProfileWorkspace: {Root: root, Home: home, Writable: []string{root}, Network: true, Unix: sandbox.UnixListed},
	}}
}

// runIn runs a command through run_command in one profile.
func runIn(t *testing.T, o Options, p safety.Profile, command string) Result {
	t.Helper()
	call := decode(t, o, "run_command", cmdArgs(command, 0))
	pc, ok := call.(Profiled)
	if !ok {
		t.Fatal("run_command calls have no profile")
	}
	res, err := pc.InProfile(p).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRunCommandSandbox(t *testing.T) {
	t.Parallel() // waits on processes and timeouts, not the CPU
	base := tempRoot(t)
	root := filepath.Join(base, "proj")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	canary := filepath.Join(outside, "canary")
	port := agenttest.ClosingListener(t)
	connect := fmt.Sprintf("bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d' && echo CONNECTED", port)
	sb := testSandbox(t, root, base)
	defer sb.Close()
	tests := []struct {
		name    string
		profile safety.Profile
		cmd     string
		isErr   bool
		want    string
		blocked string
	}{
		{"write inside", safety.ProfileWorkspace, "echo hi > a.txt && cat a.txt", false, "hi\n", ""},
		{"rm outside", safety.ProfileWorkspace, "rm -f " + canary, true, "[exit code 1]", "write to " + canary},
		{"touch outside", safety.ProfileWorkspace, "touch " + canary + ".new", true, "blocked by the sandbox: write to " + canary + ".new", "write to " + canary},
		{"redirect outside", safety.ProfileContained, "echo bad > " + canary, true, "", "write to " + canary},
		{"inspect blocks the project", safety.ProfileInspect, "echo hi > a.txt", true, "ran read-only, in the inspect jail", "write to " + filepath.Join(root, "a.txt")},
		{"inspect has a private temp", safety.ProfileInspect, `echo hi > "$TMPDIR/x" && cat "$TMPDIR/x" && mktemp >/dev/null && echo private`, false, "hi\nprivate\n", ""},
		{"the strictest jail when the agent says nothing", "", "echo hi > a.txt", true, "ran read-only", "write to " + filepath.Join(root, "a.txt")},
		{"contained has no network", safety.ProfileContained, connect, true, "", "a network connection"},
		{"workspace has the network", safety.ProfileWorkspace, connect, false, "CONNECTED", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(canary, []byte("keep"), 0o644); err != nil {
				t.Fatal(err)
			}
			o := Options{Root: root, Sandbox: sb}
			var res Result
			if tt.profile == "" {
				res = run(t, o, "run_command", cmdArgs(tt.cmd, 0))
			} else {
				res = runIn(t, o, tt.profile, tt.cmd)
			}
			if res.IsError != tt.isErr || !strings.Contains(res.Content, tt.want) {
				t.Errorf("result = %q (IsError %v), want it to hold %q (IsError %v)", res.Content, res.IsError, tt.want, tt.isErr)
			}
			got := strings.Join(res.SandboxBlocked, "; ")
			if tt.blocked == "" && got != "" || !strings.Contains(got, tt.blocked) {
				t.Errorf("SandboxBlocked = %q, want %q", got, tt.blocked)
			}
			if data, _ := os.ReadFile(canary); string(data) != "keep" {
				t.Errorf("the canary outside the project became %q", data)
			}
		})
	}

	// The person may let a blocked call run outside.
	call := decode(t, Options{Root: root, Sandbox: sb}, "run_command", cmdArgs("echo out > "+canary, 0))
	u, ok := call.(Unsandboxed)
	if !ok {
		t.Fatal("run_command calls cannot run outside the sandbox")
	}
	res, err := u.Unsandboxed().Run(context.Background())
	if err != nil || res.IsError {
		t.Fatalf("outside the sandbox: %v %q", err, res.Content)
	}
	if data, _ := os.ReadFile(canary); string(data) != "out\n" {
		t.Errorf("outside the sandbox the write did not land: %q", data)
	}
}

// jailedFamily is familyScript with its sleeps marked, so the test finds
// them from outside the jail's pid namespace; the pid files say when they
// have started.
func jailedFamily(marker string) string {
	return `sh -c 'sleep ` + marker + ` & echo $! > grandchild.pid; wait' &
echo $! > child.pid
echo started
`
}

func TestRunCommandSandboxTimeoutKillsGroup(t *testing.T) {
	t.Parallel() // waits on processes and timeouts, not the CPU
	root := tempRoot(t)
	sb := testSandbox(t, root, "")
	defer sb.Close()
	marker := fmt.Sprintf("6%d.5", time.Now().UnixNano()%100000)
	call := decode(t, Options{Root: root, Sandbox: sb}, "run_command", cmdArgs(jailedFamily(marker)+"wait\n", 1))
	res, _ := call.(Profiled).InProfile(safety.ProfileWorkspace).Run(context.Background())
	if !res.IsError || !strings.Contains(res.Content, "timed out") {
		t.Errorf("result = %q", res.Content)
	}
	if left := agenttest.WaitUnmarked(marker, 5*time.Second); len(left) > 0 {
		t.Errorf("processes %v outlived the timeout", left)
	}
}

func TestCommandEnvDropsKeys(t *testing.T) {
	env := commandEnv([]string{"OPENAI_API_KEY=sk-1", "DEEPSEEK_API_KEY=sk-2", "HOME=/h", "KEEP=1"}, []string{"OPENAI_API_KEY", "DEEPSEEK_API_KEY"})
	for _, kv := range env {
		if strings.Contains(kv, "sk-") {
			t.Errorf("the key survived: %s", kv)
		}
	}
	if !slices.Contains(env, "KEEP=1") || !slices.Contains(env, "HOME=/h") {
		t.Errorf("other variables were lost: %v", env)
	}
	root := tempRoot(t)
	t.Setenv("PINCER_TEST_KEY", "sk-secret")
	res := run(t, Options{Root: root, DropEnv: []string{"PINCER_TEST_KEY"}}, "run_command", cmdArgs(`echo "key=[$PINCER_TEST_KEY]"; env | grep -c sk-secret`, 0))
	if !strings.Contains(res.Content, "key=[]\n0\n") {
		t.Errorf("the command saw the key: %q", res.Content)
	}
	_ = errors.New
}

func TestRunCommandSandboxCancelKillsEverything(t *testing.T) {
	root := tempRoot(t)
	marker := fmt.Sprintf("7%d.5", time.Now().UnixNano()%100000)
	// A child, a grandchild, and a daemon that left the process group.
	script := jailedFamily(marker) + "setsid sh -c 'echo $$ > daemon.pid; exec sleep " + marker + "' >/dev/null 2>&1 &\nwait"
	sb := testSandbox(t, root, "")
	defer sb.Close()
	call := decode(t, Options{Root: root, Sandbox: sb}, "run_command", cmdArgs(script, 600)).(Profiled).InProfile(safety.ProfileWorkspace)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := call.Run(ctx)
		done <- err
	}()
	for _, f := range []string{"child", "grandchild", "daemon"} {
		readPID(t, filepath.Join(root, f+".pid"))
	}
	// The daemon writes its pid file just before it becomes the sleep.
	for i := 0; i < 300 && len(agenttest.Marked(marker)) < 2; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(agenttest.Marked(marker)); n != 2 {
		t.Fatalf("%d marked processes run, want the grandchild's sleep and the daemon", n)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel returned %v", err)
	}
	if left := agenttest.WaitUnmarked(marker, 5*time.Second); len(left) > 0 {
		t.Errorf("processes %v outlived the cancel", left)
	}
}

// BenchmarkRunCommand is the cost of one `true` through run_command,
// without and with the sandbox. The helper is started (and restricted)
// once, before the timing, as pincer starts it when a session opens; each
// command then costs one request to it and one fork and exec.
func BenchmarkRunCommand(b *testing.B) {
	root := b.TempDir()
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	ws := sandbox.Spec{Root: root, Writable: []string{root}, Hidden: []string{"/root/.ssh"}, Network: true, Unix: sandbox.UnixListed}
	inspect := sandbox.Spec{Root: root, ScratchTemp: true}
	for _, tc := range []struct {
		name    string
		spec    *sandbox.Spec
		profile safety.Profile
		flat    bool
	}{
		{"off", nil, "", false},
		{"workspace/flat", &ws, safety.ProfileWorkspace, true},
		{"workspace/jail", &ws, safety.ProfileWorkspace, false},
		{"inspect/flat", &inspect, safety.ProfileInspect, true},
		{"inspect/jail", &inspect, safety.ProfileInspect, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var sb *CommandSandbox
			if tc.spec != nil {
				sup := sandbox.Probe()
				if !sup.Available() || !tc.flat && !sup.Namespaces {
					b.Skip("no Landlock, or no namespaces")
				}
				spec := *tc.spec
				spec.Flat = tc.flat
				sb = &CommandSandbox{Helper: exe, Specs: map[safety.Profile]sandbox.Spec{tc.profile: spec}}
				defer sb.Close()
			}
			tl, err := runCommandTool(Options{Root: root, Sandbox: sb}.withDefaults())
			if err != nil {
				b.Fatal(err)
			}
			call, err := tl.Decode(cmdArgs("true", 0))
			if err != nil {
				b.Fatal(err)
			}
			if tc.profile != "" {
				call = call.(Profiled).InProfile(tc.profile)
				// The first command waits for the helper to start.
				if res, err := call.Run(context.Background()); err != nil || res.IsError {
					b.Fatal(err, res.Content)
				}
			}
			for b.Loop() {
				if res, err := call.Run(context.Background()); err != nil || res.IsError {
					b.Fatal(err, res.Content)
				}
			}
		})
	}
}

// TestCommandSandboxCloseLeavesNothing: Close returns once the warmed
// helpers are gone and their directories removed, and a Warm that comes
// late (pincer warms after a delay) starts nothing, so a pincer that
// exits right after leaves no pincer-jail-* directory in the temp dir.
func TestCommandSandboxCloseLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	root := filepath.Join(t.TempDir(), "proj")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	sb := testSandbox(t, root, filepath.Dir(root))
	sb.Warm()
	// Warm starts the inspect and workspace helpers, a directory each.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if m, _ := filepath.Glob(filepath.Join(tmp, "pincer-jail-*", "h1")); len(m) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Warm made no helper directories in TMPDIR")
		}
	}
	sb.Close()
	sb.Warm()
	if l := sb.Launcher(safety.ProfileContained); l != nil {
		t.Error("a closed sandbox made a launcher")
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "pincer-jail-*")); len(left) > 0 {
		t.Errorf("left after Close returned: %v", left)
	}
}
