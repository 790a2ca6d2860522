//go:build linux

package commands

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/agent/agenttest"
	sbx "pincer/tools/sandbox"
)

// sandboxRun has the scripted model run one command through `pincer run
// --json` with flags, in a sandbox whose temp dir is private (so the
// canary below is outside every writable path), and returns the result
// and the tool result the model read.
func sandboxRun(t *testing.T, s *e2etest.Sandbox, command string, flags ...string) (e2etest.Result, string) {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"command": command})
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c", Name: "run_command", Arguments: string(args)}),
		agenttest.Text("done", 4),
	)
	defer srv.Close()
	s.Env = append(s.Env, "PINCER_BASE_URL="+srv.BaseURL(), "PINCER_MODEL=test-model")
	r := s.Run("", append(append([]string{"run", "--json"}, flags...), "do it")...)
	if r.Code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	// pincer removes its jails' directories before it exits.
	tmp := ""
	for _, e := range s.Env {
		if v, ok := strings.CutPrefix(e, "TMPDIR="); ok {
			tmp = v
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "pincer-jail-*")); tmp != "" && len(left) > 0 {
		t.Errorf("pincer left %v in its temp dir", left)
	}
	res := e2etest.OfType(e2etest.JSONLines(t, r.Stdout), "tool_result")
	if len(res) != 1 {
		t.Fatalf("tool results %v", res)
	}
	content, _ := res[0]["content"].(string)
	return r, content
}

// newSandboxedProject is a test sandbox with its own temp dir and a
// canary file outside the project, the temp dir and the home caches.
func newSandboxedProject(t *testing.T) (*e2etest.Sandbox, string) {
	t.Helper()
	if !sbx.Probe().Available() {
		agenttest.Missing(t, "no Landlock on this kernel")
	}
	s := e2etest.NewSandbox(t, "")
	s.Env = append(s.Env, "TMPDIR="+t.TempDir())
	outside := filepath.Join(s.Home, "outside")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	canary := filepath.Join(outside, "canary")
	if err := os.WriteFile(canary, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	return s, canary
}

func TestSandboxKeepsWritesInTheProject(t *testing.T) {
	type tc struct {
		name, command string
		flags         []string
		canaryKept    bool   // the canary outside still says "keep"
		inside        string // a file in the project the command should have made ("" none)
		blocked       bool   // the model reads that the sandbox blocked it
	}
	cases := []tc{}
	for i, verb := range []string{"rm -f CANARY", "rm -rf CANARY", "touch CANARY && echo x > CANARY", "echo gone > CANARY", "mv CANARY CANARY.moved", "sh -c 'echo child > CANARY'", "(setsid sh -c 'echo daemon > CANARY' &) ; sleep 0.3; cat CANARY | grep -q daemon"} {
		// (t.TempDir names its directory after the test: keep the name plain.)
		cases = append(cases, tc{fmt.Sprintf("default mode %d", i), verb, []string{"--dangerously-approve-all"}, true, "", true})
	}
	cases = append(cases,
		tc{"default mode writes inside", "echo hi > made.txt && touch made2.txt && rm -f made2.txt && mkdir -p d/e && mv made.txt d/e/", []string{"--dangerously-approve-all"}, true, "d/e/made.txt", false},
		tc{"read-only blocks inside", "echo hi > made.txt", []string{"--dangerously-approve-all", "--sandbox", "read-only"}, true, "", true},
		tc{"read-only blocks outside", "echo gone > CANARY", []string{"--dangerously-approve-all", "--sandbox", "read-only"}, true, "", true},
		tc{"off lets it through", "echo gone > CANARY", []string{"--dangerously-approve-all", "--sandbox", "off"}, false, "", false},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, canary := newSandboxedProject(t)
			r, content := sandboxRun(t, s, strings.ReplaceAll(c.command, "CANARY", canary), c.flags...)
			data, err := os.ReadFile(canary)
			if kept := err == nil && string(data) == "keep"; kept != c.canaryKept {
				t.Errorf("canary kept = %v (%q, %v), want %v; tool result:\n%s", kept, data, err, c.canaryKept, content)
			}
			if c.inside != "" {
				if _, err := os.Stat(filepath.Join(s.Dir, c.inside)); err != nil {
					t.Errorf("the write inside the project did not land: %v; tool result:\n%s", err, content)
				}
			}
			if got := strings.Contains(content, "blocked by the sandbox"); got != c.blocked {
				t.Errorf("tool result says blocked = %v, want %v:\n%s", got, c.blocked, content)
			}
			if c.blocked && !strings.Contains(r.Stderr, "--sandbox off") {
				t.Errorf("stderr does not say how to leave the sandbox:\n%s", r.Stderr)
			}
		})
	}
}

func TestSandboxNetwork(t *testing.T) {
	if !sbx.Probe().Network {
		agenttest.Missing(t, "the kernel cannot block the network")
	}
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("the check uses bash's /dev/tcp")
	}
	port := agenttest.ClosingListener(t)
	connect := fmt.Sprintf("bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d' && echo CONNECTED", port)
	for _, network := range []bool{true, false} {
		t.Run(fmt.Sprintf("sandbox_network=%v", network), func(t *testing.T) {
			s, _ := newSandboxedProject(t)
			// An untrusted project may turn the network off (stricter), not on.
			s.Write(".pincer.json", fmt.Sprintf(`{"sandbox_network": %v}`, network))
			_, content := sandboxRun(t, s, connect, "--yes")
			if got := strings.Contains(content, "CONNECTED"); got != network {
				t.Errorf("connected = %v, want %v:\n%s", got, network, content)
			}
			if !network && !strings.Contains(content, "a network connection") {
				t.Errorf("the result does not say the network was blocked:\n%s", content)
			}
		})
	}
}

func TestCommandsOutliveNothing(t *testing.T) {
	for _, mode := range []string{"workspace", "off"} {
		for i, script := range []string{
			"sleep MARK & echo $! > bg.pid",
			"nohup sleep MARK >/dev/null 2>&1 & echo $! > bg.pid",
			"setsid sh -c 'echo $$ > bg.pid; exec sleep MARK' >/dev/null 2>&1 & sleep 0.3",
		} {
			if mode == "off" && strings.HasPrefix(script, "setsid") {
				continue // only the sandbox helper catches processes that leave the group
			}
			t.Run(mode+"/"+strings.Fields(script)[0], func(t *testing.T) {
				s, _ := newSandboxedProject(t)
				// Marked, as in the jail's pid namespace its ids are not the ones outside.
				marker := fmt.Sprintf("55%d%d.5", i, time.Now().UnixNano()%100000)
				sandboxRun(t, s, strings.ReplaceAll(script, "MARK", marker), "--yes", "--sandbox", mode)
				if _, err := os.Stat(filepath.Join(s.Dir, "bg.pid")); err != nil {
					t.Fatal(err)
				}
				if left := agenttest.WaitUnmarked(marker, 3*time.Second); len(left) > 0 {
					for _, pid := range left {
						syscall.Kill(pid, syscall.SIGKILL)
					}
					t.Fatalf("the background processes %v outlived the command", left)
				}
			})
		}
	}
}

// zombie reports whether pid has exited but not been reaped.
func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func TestCommandsDoNotSeeAPIKeys(t *testing.T) {
	for _, mode := range []string{"workspace", "off"} {
		t.Run(mode, func(t *testing.T) {
			s, _ := newSandboxedProject(t)
			s.Env = append(s.Env, "OPENAI_API_KEY=sk-openai-secret", "PINCER_API_KEY=sk-pincer-secret", "DEEPSEEK_API_KEY=sk-deepseek-secret", "GITHUB_TOKEN=gh-kept")
			script := "env"
			if mode != "off" {
				// Nor pincer's own environment, through /proc (Landlock
				// keeps the sandbox from inspecting processes outside it).
				script += "; pincer=$(cut -d' ' -f4 /proc/$PPID/stat); cat /proc/$pincer/environ | tr '\\0' '\\n'"
			}
			_, content := sandboxRun(t, s, script, "--yes", "--sandbox", mode)
			if strings.Contains(content, "-secret") {
				t.Errorf("a command saw an API key:\n%s", content)
			}
			if !strings.Contains(content, "GITHUB_TOKEN=gh-kept") {
				t.Errorf("other variables were dropped too:\n%s", content)
			}
		})
	}
	t.Run("passthrough", func(t *testing.T) {
		s, _ := newSandboxedProject(t)
		if err := os.MkdirAll(filepath.Join(s.Home, ".config", "pincer"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s.Home, ".config", "pincer", "config.json"), []byte(`{"command_env_passthrough": ["DEEPSEEK_API_KEY"]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		s.Env = append(s.Env, "OPENAI_API_KEY=sk-openai-secret", "DEEPSEEK_API_KEY=sk-deepseek-passed")
		_, content := sandboxRun(t, s, "env", "--yes")
		if strings.Contains(content, "sk-openai-secret") || !strings.Contains(content, "sk-deepseek-passed") {
			t.Errorf("passthrough wrong:\n%s", content)
		}
	})
}

func TestSandboxSecretsUnreadable(t *testing.T) {
	s, _ := newSandboxedProject(t)
	ssh := filepath.Join(s.Home, ".ssh")
	if err := os.Mkdir(ssh, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ssh, "id_ed25519"), []byte("PRIVATE-KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfgDir := filepath.Join(s.Home, ".config", "pincer")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "config.json"), []byte(`{"theme": "dark"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, content := sandboxRun(t, s, "cat "+filepath.Join(ssh, "id_ed25519")+"; echo x >> "+filepath.Join(cfgDir, "config.json")+"; echo '{\"unknown_commands\":\"safe\"}' > "+filepath.Join(cfgDir, "config.json"), "--dangerously-approve-all")
	if strings.Contains(content, "PRIVATE-KEY") {
		t.Errorf("the command read the SSH key:\n%s", content)
	}
	if data, _ := os.ReadFile(filepath.Join(cfgDir, "config.json")); string(data) != `{"theme": "dark"}` {
		t.Errorf("the command changed pincer's config: %q", data)
	}
}

func TestRunAutoInsideTheSandbox(t *testing.T) {
	cases := []struct {
		name    string
		command string
		flags   []string
		ran     bool
	}{
		{"auto runs a confirm command", "touch made.txt", []string{"--auto"}, true},
		{"auto still refuses dangerous", "rm -rf sub && touch made.txt", []string{"--auto"}, false},
		{"auto without a sandbox asks (refused headless)", "touch made.txt", []string{"--auto", "--sandbox", "off"}, false},
		{"no flags refuse", "touch made.txt", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSandboxedProject(t)
			s.Write("sub/x", "x")
			sandboxRun(t, s, c.command, c.flags...)
			if _, err := os.Stat(filepath.Join(s.Dir, "made.txt")); (err == nil) != c.ran {
				t.Errorf("ran = %v, want %v", err == nil, c.ran)
			}
		})
	}
}

// TestTUISandboxEndToEnd: on the screen, a command the sandbox blocked
// asks to run outside it, and Esc kills a sandboxed command with
// everything it started.
func TestTUISandboxEndToEnd(t *testing.T) {
	s, canary := newSandboxedProject(t)
	write, _ := json.Marshal(map[string]string{"command": "echo out > " + canary})
	// Found by a marker of their own, not by the ids they write: in the
	// jail's pid namespace those are not the ones outside, and checking
	// (or killing) them here would reach whatever process has that id.
	marker := fmt.Sprintf("77%d.5", time.Now().UnixNano()%1000000)
	long, _ := json.Marshal(map[string]string{"command": "sleep " + marker + " & setsid sh -c 'exec sleep " + marker + "' >/dev/null 2>&1 & sleep 600"})
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: string(write)}),
		agenttest.Text("Wrote the canary.", 8),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "run_command", Arguments: string(long)}),
		agenttest.Text("Stopped.", 8),
	)
	defer srv.Close()
	s.Env = append(s.Env, "PINCER_BASE_URL="+srv.BaseURL(), "PINCER_MODEL=test-model")
	ts := e2etest.NewTmuxScreen(t, s, 120, 34)
	ts.WaitFor("the screen", "Ask pincer", "sandbox workspace")
	settle := func() { time.Sleep(400 * time.Millisecond) }

	ts.Keys("write the canary", "Enter")
	ts.WaitFor("the approval", "Run this command?")
	settle()
	ts.Keys("y")
	ts.WaitFor("the sandbox's question", "Blocked by the sandbox", "outside the writable paths")
	if data, _ := os.ReadFile(canary); string(data) != "keep" {
		t.Fatalf("the write landed inside the sandbox: %q", data)
	}
	settle()
	ts.Keys("y")
	ts.WaitFor("the answer", "Wrote the canary.")
	if data, _ := os.ReadFile(canary); string(data) != "out\n" {
		t.Errorf("after the yes the command did not run outside: %q", data)
	}

	ts.Keys("start something long", "Enter")
	ts.WaitFor("the approval", "Run this command?")
	settle()
	ts.Keys("y")
	deadline := time.Now().Add(15 * time.Second)
	for len(agenttest.Marked(marker)) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the command never started its two sleeps:\n%s", ts.Capture())
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Keys("Escape")
	if left := agenttest.WaitUnmarked(marker, 5*time.Second); len(left) > 0 {
		for _, pid := range left {
			syscall.Kill(pid, syscall.SIGKILL) // ours: they carry the marker
		}
		t.Fatalf("the processes %v outlived Esc", left)
	}
}

// selfTestItems are the checks `pincer sandbox` must run in every
// profile (issue 23's list, and mktemp from issue 25).
var selfTestItems = []string{
	"write outside the project", "chmod or touch outside the project", "write inside the project", "read a secret in the project (.env)", "read a secret in your home",
	"read another project's files in home", "write to another terminal", "a Unix socket in the temp dir", "a Unix socket in your home", "TCP to this machine", "UDP to this machine", "DNS",
	"signal pincer", "read another process's environment", "replace pincer's program", "write a build cache", "mktemp in the temp dir", "write the real temp dir",
	"plant a git hook or setting in a submodule", "read a token in the project's git settings",
}

func TestSandboxCommand(t *testing.T) {
	s, _ := newSandboxedProject(t)
	// pincer's own data dir in the temp dir (as in these tests) must not
	// take the temp dir's children away from commands (issue 25).
	r := s.Run("", "sandbox", "--json")
	if r.Code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	var got struct {
		Mode     string
		Active   bool
		Jailed   bool
		Support  struct{ Mechanism string }
		Profiles []struct {
			Profile  string
			Writable []string
			Hidden   []string
			Network  bool
			Layers   []string
		}
		SelfTest []struct {
			Profile, Name, Want, Result string
			OK                          bool
		} `json:"self_test"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &got); err != nil {
		t.Fatalf("%v:\n%s", err, r.Stdout)
	}
	if got.Mode != "workspace" || !got.Active || got.Support.Mechanism != "landlock" || len(got.Profiles) != 3 {
		t.Fatalf("sandbox --json = %+v", got)
	}
	for i, want := range []string{"inspect", "contained", "workspace"} {
		p := got.Profiles[i]
		if p.Profile != want || len(p.Hidden) == 0 || len(p.Layers) == 0 {
			t.Errorf("profile %d = %+v, want %s", i, p, want)
		}
	}
	if len(got.Profiles[0].Writable) != 0 || got.Profiles[0].Network || len(got.Profiles[2].Writable) == 0 {
		t.Errorf("inspect writes %v (network %v), workspace %v", got.Profiles[0].Writable, got.Profiles[0].Network, got.Profiles[2].Writable)
	}
	ran := map[string]bool{}
	for _, c := range got.SelfTest {
		ran[c.Profile+"/"+c.Name] = true
		if !c.OK || c.Result == "" {
			t.Errorf("self-test %s/%q: want %s, got %s", c.Profile, c.Name, c.Want, c.Result)
		}
	}
	for _, p := range []string{"inspect", "contained", "workspace"} {
		for _, name := range selfTestItems {
			if !ran[p+"/"+name] {
				t.Errorf("the self-test of %s lacks %q", p, name)
			}
		}
	}
	// Off: nothing enforced, said so, and no self-test.
	r = s.Run("", "sandbox", "--sandbox", "off")
	if r.Code != 0 || !strings.Contains(r.Stdout, "The sandbox is off") || strings.Contains(r.Stdout, "self-test") {
		t.Errorf("sandbox --sandbox off: %d\n%s", r.Code, r.Stdout)
	}
}

// TestSandboxHidesOtherProjectsInHome: through `pincer sandbox exec`,
// commands that run unasked (inspect, contained) cannot read another
// project's files in home, whatever their names, nor a token in git's
// settings, while git still reads its other settings there; approved
// commands (workspace) read them as they are.
func TestSandboxHidesOtherProjectsInHome(t *testing.T) {
	s, _ := newSandboxedProject(t)
	s.WriteHome("src/other/.env", "OTHER_TOKEN=other-secret\n")
	s.WriteHome("src/other/notes.txt", "other-notes\n")
	s.WriteHome(".gitconfig", "[user]\n\tname = Jail Tester\n[url \"https://me:e2e-git-token@github.com/\"]\n\tinsteadOf = https://github.com/\n")
	script := "cat ~/src/other/.env ~/src/other/notes.txt ~/.gitconfig 2>&1; git config --global --list; git config --global user.name"
	for _, tc := range []struct {
		profile string
		hidden  bool
	}{{"inspect", true}, {"contained", true}, {"workspace", false}} {
		r := s.Run("", "sandbox", "exec", "--profile", tc.profile, "--", "sh", "-c", script)
		out := r.Stdout + r.Stderr
		if got := strings.Contains(out, "other-secret") || strings.Contains(out, "other-notes"); got == tc.hidden {
			t.Errorf("%s: another project's files read = %v, want %v:\n%s", tc.profile, got, !tc.hidden, out)
		}
		if got := strings.Contains(out, "e2e-git-token"); got == tc.hidden {
			t.Errorf("%s: the token in ~/.gitconfig read = %v, want %v:\n%s", tc.profile, got, !tc.hidden, out)
		}
		if !strings.Contains(r.Stdout, "Jail Tester") {
			t.Errorf("%s: git does not read ~/.gitconfig:\n%s", tc.profile, out)
		}
	}
}

// TestInspectBlockedThroughTheBinary: a command rated safe (here an
// unknown program, with unknown_commands: safe) that writes is stopped by
// the inspect jail; headless without --yes the model reads that it tried
// to change something and nothing ran again; with --yes it ran again in
// the workspace jail and the write landed.
func TestInspectBlockedThroughTheBinary(t *testing.T) {
	for _, tt := range []struct {
		flags  []string
		landed bool
		want   string
	}{
		{nil, false, "it tried to change something: write to"},
		{[]string{"--yes"}, true, "ran again in the workspace jail"},
	} {
		t.Run(fmt.Sprint(tt.flags), func(t *testing.T) {
			s, _ := newSandboxedProject(t)
			if err := os.MkdirAll(filepath.Join(s.Home, ".config", "pincer"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(s.Home, ".config", "pincer", "config.json"), []byte(`{"unknown_commands": "safe"}`), 0o600); err != nil {
				t.Fatal(err)
			}
			s.Write("writer", "#!/bin/sh\necho made > made.txt\n")
			if err := os.Chmod(filepath.Join(s.Dir, "writer"), 0o755); err != nil {
				t.Fatal(err)
			}
			_, content := sandboxRun(t, s, "./writer", tt.flags...)
			_, err := os.Stat(filepath.Join(s.Dir, "made.txt"))
			if (err == nil) != tt.landed || !strings.Contains(content, tt.want) {
				t.Errorf("landed = %v, want %v; tool result:\n%s", err == nil, tt.landed, content)
			}
		})
	}
}

// TestWithoutNamespaces: where user namespaces are unavailable (forced
// here), pincer says so, auto approvals ask as ask does, and the flat
// jail still passes its own self-test.
func TestWithoutNamespaces(t *testing.T) {
	s, _ := newSandboxedProject(t)
	s.Env = append(s.Env, "PINCER_SANDBOX_NAMESPACES=off")
	r := s.Run("", "sandbox", "--json")
	var got struct {
		Active, Jailed bool
		Note           string
		SelfTest       []struct {
			Profile, Name, Want, Result string
			OK                          bool
		} `json:"self_test"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &got); err != nil {
		t.Fatalf("%v:\n%s\n%s", err, r.Stdout, r.Stderr)
	}
	if r.Code != 0 || !got.Active || got.Jailed || !strings.Contains(got.Note, "PINCER_SANDBOX_NAMESPACES=off") || !strings.Contains(got.Note, "auto approvals ask") {
		t.Errorf("exit %d, %+v", r.Code, got)
	}
	for _, c := range got.SelfTest {
		if !c.OK {
			t.Errorf("flat self-test %s/%q: want %s, got %s", c.Profile, c.Name, c.Want, c.Result)
		}
	}
	r, _ = sandboxRun(t, s, "touch made.txt", "--auto")
	if _, err := os.Stat(filepath.Join(s.Dir, "made.txt")); err == nil {
		t.Error("auto ran a change unasked without the full jail")
	}
	if !strings.Contains(r.Stderr, "no namespaces") {
		t.Errorf("pincer run does not say the jail is partial:\n%s", r.Stderr)
	}
}
