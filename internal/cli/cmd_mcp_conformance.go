package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"pincer/tools"
	"pincer/tools/mcp"
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

// runConformance connects to the scenario's server at url, waits until it
// is ready, and makes the scenario's call.
func (c *cli) runConformance(ctx context.Context, scenario, url string) error {
	const name = "conformance"
	m := mcp.New(mcp.Options{
		Servers:      []mcp.Server{{Name: name, URL: url}},
		Getenv:       c.getenv,
		StartTimeout: 20 * time.Second,
		Version:      version,
	})
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
