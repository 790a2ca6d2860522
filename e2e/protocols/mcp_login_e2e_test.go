package protocols

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/e2e/e2etest"
	"pincer/tools/mcp/mcptest"
)

// TestMCPLoginLogout logs in to a server that asks for OAuth as a person
// without a browser on the machine would: pincer prints the authorization
// page, the "browser" visits it and comes back to pincer's loopback
// callback. The login is kept outside the config (0600) and serves the
// next start; logout forgets it.
func TestMCPLoginLogout(t *testing.T) {
	t.Parallel()
	bin := e2etest.Binary(t)
	srv := mcptest.NewOAuthServer(t, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server {
		s := sdk.NewServer(&sdk.Implementation{Name: "corp", Version: "1"}, nil)
		sdk.AddTool(s, &sdk.Tool{Name: "whoami", Description: "Says who you are."},
			func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "you"}}}, nil, nil
			})
		return s
	}, nil))
	s := e2etest.NewSandbox(t, "")
	s.WriteUserConfig(map[string]any{"mcp_servers": map[string]any{"corp": map[string]any{"url": srv.Endpoint()}}})

	if r := s.Run("", "mcp", "list"); !strings.Contains(r.Stdout, "it needs you to log in; run: pincer mcp login corp") {
		t.Fatalf("before the login, mcp list says:\n%s\n%s", r.Stdout, r.Stderr)
	}

	cmd := exec.Command(bin, "mcp", "login", "corp")
	cmd.Dir, cmd.Env = s.Dir, s.Env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		visited := false
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if strings.HasPrefix(line, srv.URL+"/authorize?") && !visited {
				visited = true
				resp, err := http.Get(line)
				if err != nil {
					done <- err
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the browser: %v", err)
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("pincer mcp login did not finish")
	}
	if err := cmd.Wait(); err != nil || !strings.Contains(stdout.String(), "Logged in to the MCP server corp: it is ready with 1 tool.") {
		t.Fatalf("login: %v\n%s", err, stdout.String())
	}

	files, _ := filepath.Glob(filepath.Join(s.Home, "data", "mcp-auth", "*.json"))
	if len(files) != 1 {
		t.Fatalf("the logins kept: %v", files)
	}
	if info, err := os.Stat(files[0]); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the login file: %v %v", info.Mode().Perm(), err)
	}
	cfg, _ := os.ReadFile(filepath.Join(s.Home, ".config", "pincer", "config.json"))
	if strings.Contains(string(cfg), "at-") || strings.Contains(string(cfg), "rt-") {
		t.Errorf("a token reached the config file: %s", cfg)
	}
	if r := s.Run("", "mcp", "list"); !strings.Contains(r.Stdout, "corp (http): ready [logged in: pincer mcp logout corp forgets it]") || strings.Contains(r.Stdout+r.Stderr, "at-") {
		t.Fatalf("after the login, mcp list says:\n%s\n%s", r.Stdout, r.Stderr)
	}

	if r := s.Run("", "mcp", "logout", "corp"); r.Code != 0 || !strings.Contains(r.Stdout, "Forgot the login to the MCP server corp") {
		t.Fatalf("logout: %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if r := s.Run("", "mcp", "logout", "corp"); r.Code == 0 || !strings.Contains(r.Stderr, "no login") {
		t.Errorf("a second logout: %d\n%s", r.Code, r.Stderr)
	}
	if r := s.Run("", "mcp", "list"); !strings.Contains(r.Stdout, "pincer mcp login corp") {
		t.Fatalf("after the logout, mcp list says:\n%s", r.Stdout)
	}
}

// TestMCPAddOAuthClient: mcp add saves a pre-registered client with its
// secret as a variable, and refuses a secret written out or flags that
// do not fit.
func TestMCPAddOAuthClient(t *testing.T) {
	t.Parallel()
	s := e2etest.NewSandbox(t, "")
	r := s.Run("", "mcp", "add", "corp", "--url", "https://mcp.corp.example/mcp", "--client-id", "pincer-cli",
		"--client-secret", "${CORP_SECRET}", "--scope", "read", "--callback-port", "8765")
	if r.Code != 0 {
		t.Fatalf("add: %d\n%s", r.Code, r.Stderr)
	}
	raw, _ := os.ReadFile(filepath.Join(s.Home, ".config", "pincer", "config.json"))
	for _, want := range []string{`"client_id": "pincer-cli"`, `"client_secret": "${CORP_SECRET}"`, `"callback_port": 8765`, `"read"`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the config lacks %s:\n%s", want, raw)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--url", "https://a.example/mcp", "--client-id", "x", "--client-secret", "hunter2"}, "as a ${VARIABLE}"},
		{[]string{"--url", "https://a.example/mcp", "--client-secret", "${X}"}, "goes with the --client-id"},
		{[]string{"--client-id", "x", "--", "npx", "server"}, "for a server over HTTP"},
		{[]string{"--url", "https://a.example/mcp", "--callback-port", "70000"}, "not a port"},
	} {
		r := s.Run("", append([]string{"mcp", "add", "other"}, tt.args...)...)
		if r.Code == 0 || !strings.Contains(r.Stderr, tt.want) {
			t.Errorf("mcp add %q: %d, %q; want an error saying %q", tt.args, r.Code, r.Stderr, tt.want)
		}
	}
	if raw2, _ := os.ReadFile(filepath.Join(s.Home, ".config", "pincer", "config.json")); strings.Contains(string(raw2), "hunter2") {
		t.Error("a secret written out was saved")
	}
}
