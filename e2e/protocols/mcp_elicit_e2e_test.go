package protocols

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/agent/agenttest"
	"pincer/e2e/e2etest"
)

// askingServer is an MCP server over HTTP whose tools ask the person:
// "plan" a form whose every field has a default, "name" one with a field
// without one. Each says what came back.
func askingServer(t *testing.T) string {
	t.Helper()
	ask := func(schema map[string]any) func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Message: "Confirm \x1b[31mthe plan", RequestedSchema: schema})
			if err != nil {
				return nil, nil, err
			}
			text := res.Action
			for k, v := range res.Content {
				text += " " + k + "=" + fmt.Sprint(v)
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
		}
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server {
		s := sdk.NewServer(&sdk.Implementation{Name: "asker", Version: "1"}, nil)
		sdk.AddTool(s, &sdk.Tool{Name: "plan", Description: "Asks which plan."}, ask(map[string]any{"type": "object", "properties": map[string]any{
			"plan": map[string]any{"type": "string", "enum": []string{"free", "pro"}, "default": "pro"},
		}}))
		sdk.AddTool(s, &sdk.Tool{Name: "name", Description: "Asks a name."}, ask(map[string]any{"type": "object", "properties": map[string]any{
			"name": map[string]any{"type": "string"},
		}, "required": []string{"name"}}))
		return s
	}, nil)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestMCPQuestionsInARun: without a terminal, pincer run declines what a
// server asks and says so, naming the server; --yes accepts a form whose
// every field has a default, and only such a form.
func TestMCPQuestionsInARun(t *testing.T) {
	t.Parallel()
	url := askingServer(t)
	tests := []struct {
		name   string
		tool   string
		yes    bool
		result string
		said   string
	}{
		{"declined without --yes", "plan", false, "decline", "declined what the MCP server asker asked (there is no terminal to ask"},
		{"defaults with --yes", "plan", true, "accept plan=pro", "accepted with its defaults (--yes)"},
		{"no default, no answer", "name", true, "decline", "--yes accepts only a form whose every field has a default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := agenttest.New(
				agenttest.Tools("", agenttest.Call{ID: "c1", Name: "mcp__asker__" + tt.tool, Arguments: `{}`}),
				agenttest.Text("done", 8),
			)
			defer srv.Close()
			s := e2etest.NewSandbox(t, srv.BaseURL())
			s.WriteUserConfig(map[string]any{
				"mcp_servers": map[string]any{"asker": map[string]any{"url": url}},
				"allow":       []string{"mcp__asker__" + tt.tool},
			})
			args := []string{"run", "go"}
			if tt.yes {
				args = []string{"run", "--yes", "go"}
			}
			r := s.Run("", args...)
			if r.Code != 0 {
				t.Fatalf("run: %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
			}
			if got := e2etest.ToolResults(srv.Requests()[1]); len(got) != 1 || got[0] != tt.result {
				t.Errorf("the server heard %q, want %q", got, tt.result)
			}
			if !strings.Contains(r.Stderr, tt.said) || strings.Contains(r.Stderr, "\x1b[31m") {
				t.Errorf("pincer said:\n%s\nwant %q, sanitised", r.Stderr, tt.said)
			}
		})
	}
}
