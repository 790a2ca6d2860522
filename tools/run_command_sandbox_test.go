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

	"pincer/tools/sandbox"
)

// testSandbox is a workspace sandbox around root with this test binary as
// the helper; it skips the test where the kernel has no Landlock.
func testSandbox(t *testing.T, root string) *CommandSandbox {
	t.Helper()
	if !sandbox.Probe().Available() {
		agenttest.Missing(t, "no Landlock on this kernel")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &CommandSandbox{Helper: exe, Spec: sandbox.Spec{Writable: []string{root}, Network: true}}
}

func TestRunCommandSandbox(t *testing.T) {
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
	ws := testSandbox(t, root)
	ro := &CommandSandbox{Helper: ws.Helper, Spec: sandbox.Spec{Network: true}, PrivateTemp: true}
	noNet := &CommandSandbox{Helper: ws.Helper, Spec: sandbox.Spec{Writable: []string{root}}}
	tests := []struct {
		name    string
		sb      *CommandSandbox
		cmd     string
		isErr   bool
		want    string
		blocked string
	}{
		{"write inside", ws, "echo hi > a.txt && cat a.txt", false, "hi\n", ""},
		{"rm outside", ws, "rm -f " + canary, true, "[exit code 1]", "write to " + canary},
		{"touch outside", ws, "touch " + canary + ".new", true, "blocked by the sandbox: write to " + canary + ".new", "write to " + canary},
		{"redirect outside", ws, "echo bad > " + canary, true, "", "write to " + canary},
		{"read-only blocks the project", ro, "echo hi > a.txt", true, "", "write to " + filepath.Join(root, "a.txt")},
		{"read-only has a private temp", ro, `echo hi > "$TMPDIR/x" && cat "$TMPDIR/x" && case "$TMPDIR" in *pincer-cmd-*) echo private;; esac`, false, "hi\nprivate\n", ""},
		{"network off", noNet, connect, true, "", "a network connection"},
		{"network on", ws, connect, false, "CONNECTED", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(canary, []byte("keep"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tt.sb == noNet && !sandbox.Probe().Network {
				agenttest.Missing(t, "the kernel cannot block the network")
			}
			res := run(t, Options{Root: root, Sandbox: tt.sb}, "run_command", cmdArgs(tt.cmd, 0))
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
	call := decode(t, Options{Root: root, Sandbox: ws}, "run_command", cmdArgs("echo out > "+canary, 0))
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

func TestRunCommandSandboxTimeoutKillsGroup(t *testing.T) {
	root := tempRoot(t)
	res := run(t, Options{Root: root, Sandbox: testSandbox(t, root)}, "run_command", cmdArgs(familyScript+"\n", 1))
	if !res.IsError || !strings.Contains(res.Content, "timed out") {
		t.Errorf("result = %q", res.Content)
	}
	waitDead(t, readPID(t, filepath.Join(root, "child.pid")), "child")
	waitDead(t, readPID(t, filepath.Join(root, "grandchild.pid")), "grandchild")
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
	// A child, a grandchild, and a daemon that left the process group.
	script := familyScript[:len(familyScript)-len("wait")] + "setsid sh -c 'echo $$ > daemon.pid; exec sleep 7777' >/dev/null 2>&1 &\nwait"
	call := decode(t, Options{Root: root, Sandbox: testSandbox(t, root)}, "run_command", cmdArgs(script, 600))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := call.Run(ctx)
		done <- err
	}()
	pids := map[string]int{}
	for _, f := range []string{"child", "grandchild", "daemon"} {
		pids[f] = readPID(t, filepath.Join(root, f+".pid"))
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel returned %v", err)
	}
	for what, pid := range pids {
		waitDead(t, pid, what)
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
	spec := sandbox.Spec{Writable: []string{root, os.TempDir()}, Hidden: []string{"/root/.ssh"}, Network: true}
	for _, tc := range []struct {
		name string
		sb   func() *CommandSandbox
	}{
		{"off", func() *CommandSandbox { return nil }},
		{"workspace", func() *CommandSandbox { return &CommandSandbox{Helper: exe, Spec: spec} }},
		{"read-only", func() *CommandSandbox {
			return &CommandSandbox{Helper: exe, Spec: sandbox.Spec{Network: false}, PrivateTemp: true}
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			sb := tc.sb()
			if sb != nil && !sandbox.Probe().Available() {
				b.Skip("no Landlock")
			}
			tl, err := runCommandTool(Options{Root: root, Sandbox: sb}.withDefaults())
			if err != nil {
				b.Fatal(err)
			}
			call, err := tl.Decode(cmdArgs("true", 0))
			if err != nil {
				b.Fatal(err)
			}
			if sb != nil {
				defer sb.Close()
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
