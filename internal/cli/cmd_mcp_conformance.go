package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"pincer/tools"
	"pincer/tools/mcp"
	"pincer/ui/headless"
)

// conformanceCall is the tool a conformance scenario expects the client to
// call once it has listed the tools, with its arguments.
type conformanceCall struct {
	tool, args string
}

// conformanceCalls are the calls of the scenarios that want one; the
// authorization scenarios all offer test-tool, and a scenario not named
// here is done once the tools are listed.
var conformanceCalls = map[string]conformanceCall{
	"tools_call":                          {"add_numbers", `{"a":5,"b":3}`},
	"sse-retry":                           {"test_reconnection", `{}`},
	"elicitation-sep1034-client-defaults": {"test_client_elicitation_defaults", `{}`},
}

// mcpConformanceCommand is the adapter the official MCP conformance suite
// starts with a scenario's server URL (its scenario in
// MCP_CONFORMANCE_SCENARIO, what it needs in MCP_CONFORMANCE_CONTEXT). It
// drives pincer's own MCP client as 'pincer run' would: the manager
// connects and lists the tools, and the scenario's tool is called through
// the same Tool the model calls.
func (c *cli) mcpConformanceCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "conformance-client URL",
		Short:  "Run one scenario of the MCP conformance suite against pincer's client",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			scenario := c.getenv("MCP_CONFORMANCE_SCENARIO")
			ctx, cancel := context.WithTimeout(cmd.Context(), 25*time.Second)
			defer cancel()
			return c.runConformance(ctx, scenario, args[0])
		},
	}
}

// conformanceBrowser plays the person's browser for the suite, whose
// authorization server grants at once and redirects to pincer's loopback
// callback: it follows the authorization URL there.
func conformanceBrowser(ctx context.Context, _, authURL string) error {
	u, err := url.Parse(authURL)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(orLoopback(u.Hostname())); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("the conformance client visits only pages on this machine, not %q", authURL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// orLoopback reads localhost as the loopback address.
func orLoopback(host string) string {
	if host == "localhost" {
		return "127.0.0.1"
	}
	return host
}

// runConformance connects to the scenario's server at url, waits until it
// is ready, and makes the scenario's call.
func (c *cli) runConformance(ctx context.Context, scenario, url string) error {
	const name = "conformance"
	var given struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if raw := c.getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &given); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT is not a JSON object: %w", err)
		}
	}
	tokens, err := os.MkdirTemp("", "pincer-conformance-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tokens)
	m := mcp.New(mcp.Options{
		Servers: []mcp.Server{{Name: name, URL: url, OAuth: mcp.OAuth{
			ClientID: given.ClientID, ClientSecret: given.ClientSecret,
			// The suite's authorization server accepts this document URL
			// without fetching it; people configure their own.
			ClientMetadataURL: "https://conformance-test.local/client-metadata.json",
		}}},
		Getenv:       c.getenv,
		StartTimeout: 20 * time.Second,
		Version:      version,
		Tokens:       mcp.NewTokenStore(tokens),
		Login:        conformanceBrowser,
	})
	// As 'pincer run --yes' without a terminal: a form whose every field
	// has a default is accepted with them.
	m.SetElicitor(headless.Elicitor(nil, c.stderr, true, nil))
	m.Start()
	defer m.Close()
	if err := m.Wait(ctx); err != nil {
		return fmt.Errorf("the server did not get ready: %w", err)
	}
	in := m.Servers()[0]
	if in.Status != mcp.StatusReady {
		return fmt.Errorf("the server is %s: %s", in.Status, in.Reason)
	}
	call, ok := conformanceCalls[scenario]
	if !ok && strings.HasPrefix(scenario, "auth/") {
		call, ok = conformanceCall{"test-tool", `{}`}, true
	}
	if !ok {
		return nil
	}
	want := mcp.ToolName(name, call.tool)
	offered := m.Tools()
	i := slices.IndexFunc(offered, func(t tools.Tool) bool { return t.Name() == want })
	if i < 0 {
		return fmt.Errorf("the server offers no tool %s (it offers %s)", call.tool, strings.Join(in.Tools, ", "))
	}
	tool := offered[i]
	decoded, err := tool.Decode(call.args)
	if err != nil {
		return err
	}
	res, err := decoded.Run(ctx)
	if err != nil {
		return err
	}
	out, _ := json.Marshal(res.Content)
	fmt.Fprintf(c.stdout, "%s: %s\n", call.tool, out)
	if res.IsError {
		return errors.New("the tool call failed")
	}
	return nil
}
