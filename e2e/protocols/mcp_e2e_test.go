package protocols

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/agent/agenttest"
)

// mcpHTTPServer is an MCP server built with the SDK, served over
// streamable HTTP on 127.0.0.1, that refuses requests without the bearer
// token: echo declares readOnlyHint, close does not.
func mcpHTTPServer(t *testing.T, token string) string {
	t.Helper()
	type echoArgs struct {
		Text string `json:"text" jsonschema:"what to echo"`
	}
	type closeArgs struct {
		Issue int `json:"issue" jsonschema:"the issue to close"`
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server {
		s := sdk.NewServer(&sdk.Implementation{Name: "e2e", Version: "1"}, nil)
		sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes the text back.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
			func(_ context.Context, _ *sdk.CallToolRequest, in echoArgs) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
			})
		sdk.AddTool(s, &sdk.Tool{Name: "close", Description: "Closes an issue."},
			func(_ context.Context, _ *sdk.CallToolRequest, in closeArgs) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "closed"}}}, nil, nil
			})
		return s
	}, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// toolSpec is the tool called name in a request.
func toolSpec(r agenttest.Request, name string) map[string]any {
	ts, _ := r.Body["tools"].([]any)
	for _, t := range ts {
		f := t.(map[string]any)["function"].(map[string]any)
		if f["name"] == name {
			return f
		}
	}
	return nil
}

// TestMCPHeadlessEndToEnd: pincer run with an HTTP server whose token
// comes from the environment: its tools reach the model with their own
// schema, a trusted read-only tool runs unasked and its result reaches
// the model, and a call nobody approved is refused as cancelled.
func TestMCPHeadlessEndToEnd(t *testing.T) {
	t.Parallel()
	url := mcpHTTPServer(t, "tok-123")
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "mcp__web__echo", Arguments: `{"text":"hi"}`}),
		agenttest.Text("done", 8),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "mcp__web__close", Arguments: `{"issue":7}`}),
		agenttest.Text("ok", 8),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Env = append(s.Env, "WEB_TOKEN=tok-123")
	s.WriteUserConfig(map[string]any{"mcp_servers": map[string]any{
		"web": map[string]any{"url": url, "headers": map[string]string{"Authorization": "Bearer ${WEB_TOKEN}"}, "trusted": true},
	}})
	if r := s.Run("", "run", "echo hi"); r.Code != 0 || !strings.Contains(r.Stdout, "done") {
		t.Fatalf("run: %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	names := strings.Join(e2etest.ToolNames(reqs[0]), ",")
	if !strings.Contains(names, "mcp__web__echo") || !strings.Contains(names, "mcp__web__close") {
		t.Fatalf("tools sent: %s", names)
	}
	spec := toolSpec(reqs[0], "mcp__web__echo")
	if spec["description"] != "Echoes the text back." || !strings.Contains(mustJSON(t, spec["parameters"]), `"text"`) {
		t.Fatalf("echo as sent: %v", spec)
	}
	if got := e2etest.ToolResults(reqs[1]); len(got) != 1 || got[0] != "echo: hi" {
		t.Fatalf("result sent back: %q", got)
	}
	r := s.Run("", "run", "close issue 7")
	if r.Code != 0 {
		t.Fatalf("run: %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if got := e2etest.ToolResults(srv.Requests()[3]); len(got) != 1 || got[0] != "User cancelled the operation" {
		t.Fatalf("refused call sent back: %q", got)
	}
	for i, r := range srv.Requests() {
		if r.Strict != nil {
			t.Errorf("request %d: %v", i, r.Strict)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMCPListAndProjectTrust: a project's .mcp.json starts nothing until
// the project is trusted; a server that dies at once is listed as failed
// with what it said; add and rm edit the user file.
func TestMCPListAndProjectTrust(t *testing.T) {
	t.Parallel()
	url := mcpHTTPServer(t, "tok")
	s := e2etest.NewSandbox(t, "http://127.0.0.1:9/v1")
	s.Write(".mcp.json", `{"mcpServers": {"proj": {"type": "http", "url": "`+url+`", "headers": {"Authorization": "Bearer tok"}}}}`)
	r := s.Run("", "mcp", "list")
	if r.Code != 0 || strings.Contains(r.Stdout, "proj (") || !strings.Contains(r.Stdout, "pincer trust") || !strings.Contains(r.Stderr, ".mcp.json starts the MCP servers proj") {
		t.Fatalf("untrusted: %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if r := s.Run("", "trust", "--yes"); r.Code != 0 || !strings.Contains(r.Stdout, "mcp_servers") {
		t.Fatalf("trust: %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if r := s.Run("", "mcp", "add", "dies", "--", "sh", "-c", "echo boom >&2; exit 3"); r.Code != 0 {
		t.Fatalf("add: %d %s", r.Code, r.Stderr)
	}
	if r := s.Run("", "mcp", "add", "dies", "--", "true"); r.Code != 2 || !strings.Contains(r.Stderr, "already") {
		t.Fatalf("add twice: %d %s", r.Code, r.Stderr)
	}
	r = s.Run("", "mcp", "list", "--json")
	var infos []struct {
		Name, Status, Reason, Log string
		Tools                     []string
	}
	if err := json.Unmarshal([]byte(r.Stdout), &infos); err != nil || len(infos) != 2 {
		t.Fatalf("list --json: %v\n%s\n%s", err, r.Stdout, r.Stderr)
	}
	for _, in := range infos {
		switch in.Name {
		case "proj":
			if in.Status != "ready" || strings.Join(in.Tools, ",") != "mcp__proj__close,mcp__proj__echo" && strings.Join(in.Tools, ",") != "mcp__proj__echo,mcp__proj__close" {
				t.Errorf("proj: %+v", in)
			}
		case "dies":
			if in.Status != "failed" || !strings.Contains(in.Reason, "boom") || !strings.HasPrefix(in.Log, filepath.Join(s.Home, "data", "mcp")) {
				t.Errorf("dies: %+v", in)
			}
		}
	}
	// Changing .mcp.json ends the trust.
	s.Write(".mcp.json", `{"mcpServers": {"proj": {"command": "evil"}}}`)
	if r := s.Run("", "mcp", "list"); strings.Contains(r.Stdout, "proj (") {
		t.Fatalf("after .mcp.json changed: %s", r.Stdout)
	}
	if r := s.Run("", "mcp", "rm", "dies"); r.Code != 0 {
		t.Fatalf("rm: %d %s", r.Code, r.Stderr)
	}
	if r := s.Run("", "mcp", "rm", "dies"); r.Code != 2 {
		t.Fatalf("rm twice: %d %s", r.Code, r.Stderr)
	}
}

// TestTUIDoesNotWaitForMCP: the screen opens while a server is still
// starting (one that never answers), /mcp says so, a server that fails is
// told with what it said, and an MCP call asks
// in a dialog that names the server, the tool and the arguments; a no
// reaches the model as a cancellation.
func TestTUIDoesNotWaitForMCP(t *testing.T) {
	url := mcpHTTPServer(t, "tok")
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "mcp__web__close", Arguments: `{"issue":7}`}),
		agenttest.Text("understood", 8),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.WriteUserConfig(map[string]any{"mcp_servers": map[string]any{
		"mute": map[string]any{"command": "sleep", "args": []string{"120"}},
		"dies": map[string]any{"command": "sh", "args": []string{"-c", "echo boom >&2; exit 3"}},
		"web":  map[string]any{"url": url, "headers": map[string]string{"Authorization": "Bearer tok"}},
	}})
	ts := e2etest.NewTmuxScreen(t, s, 110, 40, "-s", "mcp")
	ts.WaitFor("the screen to open", "Ask pincer")
	// A server that fails is told on the screen, without asking.
	ts.WaitFor("the failed server's notice", "MCP server dies failed", "boom")
	for i := 0; ; i++ {
		ts.Keys("/mcp", "Enter")
		screen := ts.Capture()
		if strings.Contains(screen, "web (http): ready") && strings.Contains(screen, "mute (stdio): starting") {
			break
		}
		if i == 20 {
			t.Fatalf("/mcp never showed web ready and mute starting:\n%s", screen)
		}
		time.Sleep(250 * time.Millisecond)
	}
	ts.Keys("close issue 7", "Enter")
	ts.WaitFor("the MCP dialog", "Call close of the MCP server web?", `"issue": 7`, "mcp__web__close")
	// The dialog ignores keys for a moment after it opens, so a key meant
	// for the input cannot answer it.
	for i := 0; strings.Contains(ts.Capture(), "Call close of the MCP server web?"); i++ {
		if i == 20 {
			t.Fatal("the dialog never took the n")
		}
		ts.Keys("n")
		time.Sleep(250 * time.Millisecond)
	}
	ts.WaitFor("the answer", "understood")
	reqs := srv.Requests()
	if !strings.Contains(strings.Join(e2etest.ToolNames(reqs[0]), ","), "mcp__web__close") {
		t.Fatalf("tools: %v", e2etest.ToolNames(reqs[0]))
	}
	if got := e2etest.ToolResults(reqs[1]); len(got) != 1 || got[0] != "User cancelled the operation" {
		t.Fatalf("refusal sent back: %q", got)
	}
}

// TestMCPReferenceServersEndToEnd: pincer run with the reference servers
// from npm, configured as people do (npx -y over stdio): their tools reach
// the model and the results of calls to both come back to it.
func TestMCPReferenceServersEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("the reference servers start node processes; they run without -short")
	}
	if _, err := exec.LookPath("npx"); err != nil {
		agenttest.Missing(t, "npx is not installed, so the reference MCP servers cannot run (.ci/run installs them)")
	}
	t.Parallel()
	s := e2etest.NewSandbox(t, "")
	note := filepath.Join(s.Dir, "notes.txt")
	srv := agenttest.New(
		agenttest.Tools("",
			agenttest.Call{ID: "c1", Name: "mcp__everything__echo", Arguments: `{"message":"hello"}`},
			agenttest.Call{ID: "c2", Name: "mcp__fs__read_text_file", Arguments: `{"path":"` + note + `"}`}),
		agenttest.Text("done", 8),
	)
	defer srv.Close()
	s.Env = append(s.Env, "PINCER_BASE_URL="+srv.BaseURL(), "PINCER_MODEL=test-model", "npm_config_cache="+npmCache())
	s.Write("notes.txt", "remember the milk\n")
	s.WriteUserConfig(map[string]any{"mcp_servers": map[string]any{
		"everything": map[string]any{"command": "npx", "args": []string{"-y", "@modelcontextprotocol/server-everything"}},
		"fs":         map[string]any{"command": "npx", "args": []string{"-y", "@modelcontextprotocol/server-filesystem", s.Dir}},
	}})
	r := s.Run("", "run", "--yes", "say hello and read the notes")
	if r.Code != 0 {
		t.Fatalf("run: %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	names := strings.Join(e2etest.ToolNames(reqs[0]), ",")
	for _, want := range []string{"mcp__everything__echo", "mcp__everything__get-sum", "mcp__fs__read_text_file", "mcp__fs__list_directory"} {
		if !strings.Contains(names, want) {
			t.Errorf("the model was not offered %s: %s", want, names)
		}
	}
	for i, r := range reqs {
		if r.Strict != nil {
			t.Errorf("request %d, with the reference servers' schemas: %v", i, r.Strict)
		}
	}
	got := e2etest.ToolResults(reqs[1])
	if len(got) != 2 || !strings.Contains(got[0], "Echo: hello") || !strings.Contains(got[1], "remember the milk") {
		t.Fatalf("results sent back: %q\n%s", got, r.Stderr)
	}
}

// npmCache is the npm cache of the person running the tests, so the
// sandbox's empty home does not make npx download the servers again.
func npmCache() string {
	if c := os.Getenv("npm_config_cache"); c != "" {
		return c
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".npm")
}

// TestTrustNamesTheFilesThatSetThings: pincer trust shows each setting
// under the file that sets it, so a project whose servers come from
// .mcp.json is not said to set them in .pincer.json, and with both files
// each server is under its own.
func TestTrustNamesTheFilesThatSetThings(t *testing.T) {
	t.Parallel()
	s := e2etest.NewSandbox(t, "http://127.0.0.1:9/v1")
	mcpPath, projectPath := filepath.Join(s.Dir, ".mcp.json"), filepath.Join(s.Dir, ".pincer.json")
	s.Write(".mcp.json", `{"mcpServers": {"fromMCP": {"command": "true"}}}`)
	r := s.Run("n\n", "trust")
	if r.Code != 1 || !strings.Contains(r.Stdout, mcpPath+" sets:\n  mcp_servers") || strings.Contains(r.Stdout, projectPath) {
		t.Errorf("with .mcp.json only: exit %d\n%s", r.Code, r.Stdout)
	}
	s.Write(".pincer.json", `{"max_iterations": 500, "mcp_servers": {"fromPincer": {"command": "true"}}}`)
	r = s.Run("n\n", "trust")
	mcpPart, projectPart, ok := strings.Cut(r.Stdout, projectPath+" sets:")
	if r.Code != 1 || !ok || !strings.Contains(mcpPart, mcpPath+" sets:") ||
		!strings.Contains(mcpPart, "fromMCP") || strings.Contains(mcpPart, "fromPincer") ||
		!strings.Contains(projectPart, "fromPincer") || strings.Contains(projectPart, "fromMCP") || !strings.Contains(projectPart, "max_iterations") {
		t.Errorf("with both files: exit %d\n%s", r.Code, r.Stdout)
	}
	if r := s.Run("", "trust", "--revoke"); r.Code != 0 || !strings.Contains(r.Stdout, mcpPath) {
		t.Errorf("revoke: exit %d %q", r.Code, r.Stdout)
	}
}
