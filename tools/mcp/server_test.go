package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverEnv makes the test binary an MCP server over stdio (see TestMain),
// so the stdio transport is tested against a real process that can crash.
const serverEnv = "PINCER_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(rawEnv) != "" {
		serveRawStdio()
		os.Exit(0)
	}
	if os.Getenv(serverEnv) == "1" {
		_ = testServer().Run(context.Background(), &sdk.StdioTransport{})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

// testServer is an MCP server built with the SDK, with a tool for each
// case the client must handle.
func testServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "pincer-test", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes the text.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoArgs) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "picture", Description: "Returns an image and a resource."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "here it is"},
				&sdk.ImageContent{MIMEType: "image/png", Data: make([]byte, 2048)},
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///a.txt", MIMEType: "text/plain", Text: "hello"}},
			}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "slow", Description: "Waits until cancelled."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			select {
			case <-ctx.Done():
			case <-time.After(time.Minute):
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "late"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Reports a tool error."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "it broke"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "ask", Description: "Asks the person for a name and an age, and says what came back."},
		func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Message: "Who are you?", RequestedSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"name": map[string]any{"type": "string", "title": "Name"},
					"age":  map[string]any{"type": "integer", "default": 30},
				},
				"required": []string{"name"},
			}})
			if err != nil {
				return nil, nil, err
			}
			raw, _ := json.Marshal(res.Content)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: res.Action + " " + string(raw)}}}, nil, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "review", Description: "Review a file.", Arguments: []*sdk.PromptArgument{
		{Name: "path", Required: true}, {Name: "focus"},
	}}, func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{
			{Role: "user", Content: &sdk.TextContent{Text: "Review " + req.Params.Arguments["path"] + " for " + req.Params.Arguments["focus"] + "."}},
		}}, nil
	})
	s.AddResource(&sdk.Resource{URI: "note://hello", Name: "hello", MIMEType: "text/plain"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "note://hello", MIMEType: "text/plain", Text: "hello from the server"}}}, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "crash", Description: "Ends the server process."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			os.Stderr.WriteString("crashing on purpose\n")
			os.Exit(3)
			return nil, nil, nil
		})
	return s
}

// httpServer serves testServer over streamable HTTP on 127.0.0.1 and
// refuses requests without the bearer token.
func httpServer(t *testing.T, token string) string {
	t.Helper()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return testServer() }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// stdioServer is the configuration of the test binary as a stdio server.
func stdioServer(t *testing.T, name string) Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Server{Name: name, Command: exe, Args: []string{"-test.run=^$"}, Env: map[string]string{serverEnv: "1"}}
}
