package mcp

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"pincer/tools"
)

// started starts a manager for the servers and closes it after the test.
func started(t testing.TB, o Options) *Manager {
	t.Helper()
	if o.LogDir == "" {
		o.LogDir = t.TempDir()
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	m := New(o)
	m.Start()
	t.Cleanup(m.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatalf("servers still starting: %+v", m.Servers())
	}
	return m
}

func tool(t testing.TB, m *Manager, name string) tools.Tool {
	t.Helper()
	for _, tl := range m.Tools() {
		if tl.Name() == name {
			return tl
		}
	}
	t.Fatalf("no tool %s among %v", name, m.Servers())
	return nil
}

func run(t testing.TB, ctx context.Context, tl tools.Tool, args string) (tools.Result, error) {
	t.Helper()
	c, err := tl.Decode(args)
	if err != nil {
		t.Fatal(err)
	}
	return c.Run(ctx)
}

func TestHTTPServerWithHeaderFromEnvironment(t *testing.T) {
	url := httpServer(t, "s3cret")
	m := started(t, Options{
		Servers: []Server{{Name: "web", URL: url + "/mcp", Headers: map[string]string{"Authorization": "Bearer ${WEB_TOKEN}"}, HideTools: []string{"crash"}}},
		Getenv:  func(k string) string { return map[string]string{"WEB_TOKEN": "s3cret"}[k] },
	})
	info := m.Servers()[0]
	if info.Status != StatusReady || info.Transport != "http" {
		t.Fatalf("server: %+v", info)
	}
	if strings.Join(info.Hidden, ",") != "crash" || strings.Contains(strings.Join(info.Tools, ","), "crash") {
		t.Fatalf("hide_tools: %+v", info)
	}
	echo := tool(t, m, "mcp__web__echo")
	if echo.Description() != "Echoes the text." || echo.Mutates() {
		t.Fatalf("echo: %q mutates=%v", echo.Description(), echo.Mutates())
	}
	props, _ := echo.Parameters()["properties"].(map[string]any)
	if _, ok := props["text"]; !ok || echo.Parameters()["type"] != "object" {
		t.Fatalf("schema: %v", echo.Parameters())
	}
	r, err := run(t, context.Background(), echo, `{"text":"hi"}`)
	if err != nil || r.IsError || r.Content != "echo: hi" {
		t.Fatalf("echo: %+v %v", r, err)
	}
	r, err = run(t, context.Background(), tool(t, m, "mcp__web__fail"), `{}`)
	if err != nil || !r.IsError || r.Content != "it broke" {
		t.Fatalf("fail: %+v %v", r, err)
	}
	for _, bad := range []string{`[1]`, `"x"`, `{"text":`, `{} {}`, `null`} {
		if _, err := echo.Decode(bad); err == nil {
			t.Errorf("Decode(%s) accepted it", bad)
		}
	}
	big := mustDecode(t, echo, `{"n": 12345678901234567890, "f": 0.1}`).Access().MCP.Arguments
	if !strings.Contains(big, "12345678901234567890") || !strings.Contains(big, "0.1") {
		t.Errorf("numbers not shown as written: %s", big)
	}
	acc := mustDecode(t, echo, `{"text":"hi"}`).Access()
	if acc.MCP == nil || acc.MCP.Server != "web" || acc.MCP.Tool != "echo" || !acc.MCP.ReadOnly || !strings.Contains(acc.MCP.Arguments, "\"text\": \"hi\"") {
		t.Fatalf("access: %+v", acc.MCP)
	}
}

func mustDecode(t *testing.T, tl tools.Tool, args string) tools.Call {
	t.Helper()
	c, err := tl.Decode(args)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestStartFailuresAreReportedWithTheReason(t *testing.T) {
	url := httpServer(t, "s3cret")
	m := started(t, Options{Servers: []Server{
		{Name: "nocmd", Command: filepath.Join(t.TempDir(), "no-such-server")},
		{Name: "nokey", URL: url, Headers: map[string]string{"Authorization": "Bearer ${MISSING_TOKEN}"}},
		{Name: "badkey", URL: url, Headers: map[string]string{"Authorization": "Bearer wrong"}},
		{Name: "off", Command: "whatever", Disabled: true},
		{Name: "empty"},
	}})
	want := map[string][]string{
		"nocmd":  {"could not start it", "was not found; install it"},
		"nokey":  {"MISSING_TOKEN", "is not set"},
		"badkey": {"could not start it"},
		"empty":  {"neither a command nor a url"},
	}
	for _, in := range m.Servers() {
		if in.Name == "off" {
			if in.Status != StatusDisabled {
				t.Errorf("off: %+v", in)
			}
			continue
		}
		if in.Status != StatusFailed {
			t.Errorf("%s: status %s, want failed", in.Name, in.Status)
		}
		for _, w := range want[in.Name] {
			if !strings.Contains(in.Reason, w) {
				t.Errorf("%s: reason %q lacks %q", in.Name, in.Reason, w)
			}
		}
	}
	if len(m.Tools()) != 0 {
		t.Fatalf("tools of failed servers: %v", m.Tools())
	}
}

func TestCrashedServerIsRestartedOnce(t *testing.T) {
	logs := t.TempDir()
	m := started(t, Options{Servers: []Server{stdioServer(t, "local")}, LogDir: logs})
	crash := tool(t, m, "mcp__local__crash")
	_, _ = run(t, context.Background(), crash, `{}`) // the answer never comes
	waitFor(t, m, func(in Info) bool { return in.Status == StatusReady && in.Restarts == 1 })
	r, err := run(t, context.Background(), tool(t, m, "mcp__local__echo"), `{"text":"again"}`)
	if err != nil || r.Content != "echo: again" {
		t.Fatalf("after the restart: %+v %v", r, err)
	}
	_, _ = run(t, context.Background(), tool(t, m, "mcp__local__crash"), `{}`)
	in := waitFor(t, m, func(in Info) bool { return in.Status == StatusFailed })
	for _, w := range []string{"restarted once already", "crashing on purpose", filepath.Join(logs, "local.log")} {
		if !strings.Contains(in.Reason, w) {
			t.Errorf("reason %q lacks %q", in.Reason, w)
		}
	}
	if len(m.Tools()) != 0 {
		t.Fatal("a failed server's tools are still offered")
	}
	r, err = run(t, context.Background(), crash, `{}`)
	if err != nil || !r.IsError || !strings.Contains(r.Content, "not ready") {
		t.Fatalf("call to a failed server: %+v %v", r, err)
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(filepath.Join(logs, "local.log"))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("log file: %v %v", fi, err)
		}
	}
}

func waitFor(t *testing.T, m *Manager, ok func(Info) bool) Info {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if in := m.Servers()[0]; ok(in) {
			return in
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("server never got there: %+v", m.Servers()[0])
	return Info{}
}

func TestCallsTimeOutAndCancel(t *testing.T) {
	m := started(t, Options{Servers: []Server{stdioServer(t, "local")}, Timeout: 300 * time.Millisecond})
	slow := tool(t, m, "mcp__local__slow")
	r, err := run(t, context.Background(), slow, `{}`)
	if err != nil || !r.IsError || !strings.Contains(r.Content, "did not answer within 300ms") {
		t.Fatalf("timeout: %+v %v", r, err)
	}
	m2 := started(t, Options{Servers: []Server{stdioServer(t, "local")}})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(200 * time.Millisecond); cancel() }()
	start := time.Now()
	_, err = run(t, ctx, tool(t, m2, "mcp__local__slow"), `{}`)
	if err != context.Canceled || time.Since(start) > 10*time.Second {
		t.Fatalf("cancel: %v after %s", err, time.Since(start))
	}
}

func TestImagesAndResourcesBecomeNotes(t *testing.T) {
	m := started(t, Options{Servers: []Server{stdioServer(t, "local")}, MaxOutput: 1000})
	r, err := run(t, context.Background(), tool(t, m, "mcp__local__picture"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	want := "here it is\n[image: image/png, 2 KiB, not shown]\n[resource: file:///a.txt, text/plain, 5 bytes of text, not shown]"
	if r.Content != want {
		t.Fatalf("got %q\nwant %q", r.Content, want)
	}
}

func TestStartDoesNotWait(t *testing.T) {
	// A server that never answers: Start must return at once and the
	// server stays "starting" until the start timeout. It reads its input
	// and exits when that closes, so Close need not wait out the grace
	// period a server gets before it is killed.
	m := New(Options{Servers: []Server{{Name: "mute", Command: "sh", Args: []string{"-c", "cat >/dev/null"}}}, LogDir: t.TempDir(), StartTimeout: 500 * time.Millisecond})
	done := make(chan struct{})
	go func() { m.Start(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Start blocked")
	}
	defer m.Close()
	if in := m.Servers()[0]; in.Status != StatusStarting {
		t.Fatalf("right after Start: %+v", in)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if in := m.Servers()[0]; in.Status != StatusFailed || !strings.Contains(in.Reason, "did not answer within 500ms") {
		t.Fatalf("after the start timeout: %+v", in)
	}
}

func TestToolName(t *testing.T) {
	long := strings.Repeat("x", 80)
	tests := []struct{ server, tool, want string }{
		{"github", "get_issue", "mcp__github__get_issue"},
		{"my server", "do.it/now", "mcp__my_server__do_it_now"},
		{"émoji", "ok-1", "mcp___moji__ok-1"},
	}
	for _, tt := range tests {
		if got := ToolName(tt.server, tt.tool); got != tt.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
	}
	a, b := ToolName("s", long+"a"), ToolName("s", long+"b")
	if len(a) != 64 || len(b) != 64 || a == b {
		t.Fatalf("long names: %q %q", a, b)
	}
	for _, n := range []string{a, b} {
		if err := tools.ValidName(n); err != nil {
			t.Fatal(err)
		}
	}
}

func TestExpand(t *testing.T) {
	env := func(k string) string { return map[string]string{"A": "1", "EMPTY": ""}[k] }
	tests := []struct{ in, want, err string }{
		{"Bearer ${A}", "Bearer 1", ""},
		{"${A}${A}-x", "11-x", ""},
		{"${B:-dflt}", "dflt", ""},
		{"${B}", "", "${B} is not set"},
		{"plain $A", "plain $A", ""},
	}
	for _, tt := range tests {
		got, err := expand(tt.in, env)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("expand(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("expand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestKeysAreNotExpandedForServers: a server's env, arguments or headers
// cannot name one of pincer's own API keys: it fails to start, saying
// how to allow it, and the key goes nowhere.
func TestKeysAreNotExpandedForServers(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Server)
	}{
		{"env", func(s *Server) { s.Env["LEAK"] = "${PINCER_API_KEY}" }},
		{"argument", func(s *Server) { s.Args = append(s.Args, "--key=${PINCER_API_KEY}") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := stdioServer(t, "k")
			tc.edit(&srv)
			getenv := func(name string) string {
				if name == "PINCER_API_KEY" {
					return "sk-secret"
				}
				return ""
			}
			m := started(t, Options{Servers: []Server{srv}, Getenv: getenv, DropEnv: []string{"PINCER_API_KEY"}})
			in := m.Servers()[0]
			if in.Status != StatusFailed || !strings.Contains(in.Reason, "command_env_passthrough") || strings.Contains(in.Reason, "sk-secret") {
				t.Errorf("status %s, reason %q; want a failure naming command_env_passthrough", in.Status, in.Reason)
			}
		})
	}
}

// TestLastWordsTellWhatWentWrong: the line quoted from a server's log is
// the one that names the failure, not a closing remark after it.
func TestLastWordsTellWhatWentWrong(t *testing.T) {
	for _, tc := range []struct{ name, log, want string }{
		{"npm 404", "--- start\nnpm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/x%2fy\nnpm error 404\nnpm error A complete log of this run can be found in: /h/.npm/_logs/1.log\n",
			"npm error 404 Not Found - GET https://registry.npmjs.org/x%2fy"},
		{"python", "--- start\nTraceback (most recent call last):\n  File \"s.py\", line 1\nModuleNotFoundError: No module named 'mcp'\n", "ModuleNotFoundError: No module named 'mcp'"},
		{"plain", "--- start\nlistening\nbye\n", "bye"},
		{"older run", "--- a\nError: old\n--- b\nfine\n", "fine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.log")
			if err := os.WriteFile(p, []byte(tc.log), 0o600); err != nil {
				t.Fatal(err)
			}
			if got := lastLine(p); got != tc.want {
				t.Errorf("lastLine = %q, want %q", got, tc.want)
			}
		})
	}
}
