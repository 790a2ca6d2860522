package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"pincer/agent/agenttest"
	"pincer/safety"
	"pincer/tools"
)

// fakeMCPTool is a tool as an MCP server offers it: its calls describe
// themselves with Access.MCP and record that they ran.
type fakeMCPTool struct {
	name, server, tool string
	readOnly, trusted  bool
	mu                 sync.Mutex
	ran                []string
}

func (f *fakeMCPTool) Name() string        { return f.name }
func (f *fakeMCPTool) Description() string { return "A server's tool." }
func (f *fakeMCPTool) Parameters() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}
}
func (f *fakeMCPTool) Mutates() bool { return !f.readOnly }
func (f *fakeMCPTool) Decode(args string) (tools.Call, error) {
	return &fakeMCPCall{f: f, args: args}, nil
}

type fakeMCPCall struct {
	f    *fakeMCPTool
	args string
}

func (c *fakeMCPCall) Summary() string { return c.f.server + " " + c.f.tool }
func (c *fakeMCPCall) Access() tools.Access {
	return tools.Access{MCP: &tools.MCPUse{Server: c.f.server, Tool: c.f.tool, Name: c.f.name,
		ReadOnly: c.f.readOnly, Trusted: c.f.trusted, Arguments: "{\n  \"q\": \"x\"\n}"}}
}
func (c *fakeMCPCall) Run(context.Context) (tools.Result, error) {
	c.f.mu.Lock()
	c.f.ran = append(c.f.ran, c.args)
	c.f.mu.Unlock()
	return tools.Result{Content: "result from the server"}, nil
}

// newMCPHarness is newHarness with rules and tools that come and go.
func newMCPHarness(t *testing.T, rules safety.Rules, dyn func() []tools.Tool, replies ...agenttest.Reply) *harness {
	t.Helper()
	h := newHarness(t, 5, replies...)
	cls, err := safety.NewClassifier(rules)
	if err != nil {
		t.Fatal(err)
	}
	o := h.agent.opts
	o.Safety, o.DynamicTools = cls, dyn
	a, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	h.agent = a
	return h
}

func requestToolNames(r agenttest.Request) []string {
	var names []string
	for _, t := range r.Body["tools"].([]any) {
		names = append(names, t.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	return names
}

// TestDynamicToolsReachEveryRequest: a server that becomes ready between
// two requests has its tools in the second one, and its tool can be called.
func TestDynamicToolsReachEveryRequest(t *testing.T) {
	tool := &fakeMCPTool{name: "mcp__gh__get_issue", server: "gh", tool: "get_issue"}
	var mu sync.Mutex
	var ready []tools.Tool
	dyn := func() []tools.Tool { mu.Lock(); defer mu.Unlock(); return ready }
	h := newMCPHarness(t, safety.Rules{Allow: []string{"mcp__gh__get_issue"}}, dyn,
		agenttest.Text("first", 8),
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "mcp__gh__get_issue", Arguments: `{"q":"x"}`}),
		agenttest.Text("done", 8))
	if _, err := h.run("hi"); err != nil {
		t.Fatal(err)
	}
	if names := strings.Join(requestToolNames(h.srv.Requests()[0]), ","); strings.Contains(names, "mcp__") {
		t.Fatalf("before the server is ready: %s", names)
	}
	mu.Lock()
	ready = []tools.Tool{tool}
	mu.Unlock()
	if _, err := h.run("use it"); err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if names := requestToolNames(reqs[1]); !slices.Contains(names, "mcp__gh__get_issue") {
		t.Fatalf("after: %v", names)
	}
	msgs := h.toolMessages(2)
	if len(msgs) != 1 || msgs[0]["content"] != "result from the server" {
		t.Fatalf("tool result: %v", msgs)
	}
	if len(h.asked) != 0 {
		t.Fatalf("an allowed tool asked: %+v", h.asked)
	}
}

func TestMCPApprovals(t *testing.T) {
	tests := []struct {
		name     string
		rules    safety.Rules
		readOnly bool
		trusted  bool
		answer   Decision
		asks     bool
		runs     bool
		result   string
	}{
		{name: "asks by default and a no is a cancellation", answer: Decision{Allow: false},
			asks: true, result: Cancelled},
		{name: "a yes runs it", answer: Decision{Allow: true}, asks: true, runs: true, result: "result from the server"},
		{name: "read-only on an untrusted server asks", readOnly: true, answer: Decision{Allow: true}, asks: true, runs: true},
		{name: "read-only on a trusted server runs unasked", readOnly: true, trusted: true, runs: true},
		{name: "trusted but not read-only asks", trusted: true, answer: Decision{}, asks: true, result: Cancelled},
		{name: "an allow rule runs it unasked", rules: safety.Rules{Allow: []string{"mcp__gh__close_issue"}}, runs: true},
		{name: "a deny rule refuses without asking", rules: safety.Rules{Deny: []string{"mcp__gh__close_issue"}},
			readOnly: true, trusted: true, result: "deny rule"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := &fakeMCPTool{name: "mcp__gh__close_issue", server: "gh", tool: "close_issue", readOnly: tt.readOnly, trusted: tt.trusted}
			h := newMCPHarness(t, tt.rules, func() []tools.Tool { return []tools.Tool{tool} },
				agenttest.Tools("", agenttest.Call{ID: "c1", Name: "mcp__gh__close_issue", Arguments: `{"q":"x"}`}),
				agenttest.Text("ok", 8))
			h.answer = func(Approval) Decision { return tt.answer }
			if _, err := h.run("go"); err != nil {
				t.Fatal(err)
			}
			if (len(h.asked) > 0) != tt.asks {
				t.Fatalf("asked %+v, want asks=%v", h.asked, tt.asks)
			}
			if tt.asks {
				q := h.asked[0]
				if q.Kind != ApproveAction || q.SuggestedRule != "mcp__gh__close_issue" || q.Tier != safety.Confirm ||
					q.Summary != "tool close_issue of the MCP server gh, with the arguments:\n{\n  \"q\": \"x\"\n}" ||
					q.MCP == nil || q.MCP.Tool != "close_issue" || q.MCP.Server != "gh" {
					t.Fatalf("question: %+v", q)
				}
			}
			if (len(tool.ran) > 0) != tt.runs {
				t.Fatalf("ran %v, want runs=%v", tool.ran, tt.runs)
			}
			if tt.result != "" {
				if msgs := h.toolMessages(1); !strings.Contains(msgs[0]["content"].(string), tt.result) {
					t.Fatalf("result %q lacks %q", msgs[0]["content"], tt.result)
				}
			}
		})
	}
}

// TestAlwaysAllowThisTool: the rule the dialog suggests, once chosen,
// runs the tool unasked for the rest of the session.
func TestAlwaysAllowThisTool(t *testing.T) {
	tool := &fakeMCPTool{name: "mcp__gh__close_issue", server: "gh", tool: "close_issue"}
	call := agenttest.Call{ID: "c1", Name: "mcp__gh__close_issue", Arguments: `{"q":"x"}`}
	h := newMCPHarness(t, safety.Rules{}, func() []tools.Tool { return []tools.Tool{tool} },
		agenttest.Tools("", call), agenttest.Text("ok", 8),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: call.Name, Arguments: call.Arguments}), agenttest.Text("ok", 8))
	h.answer = func(a Approval) Decision { return Decision{Allow: true, AllowRule: a.SuggestedRule} }
	for range 2 {
		if _, err := h.run("go"); err != nil {
			t.Fatal(err)
		}
	}
	if len(h.asked) != 1 || len(tool.ran) != 2 {
		t.Fatalf("asked %d times, ran %d times; want 1 and 2", len(h.asked), len(tool.ran))
	}
}

func (f *fakeMCPTool) Server() string { return f.server }

// fatMCPTool is a server's tool with a long description.
type fatMCPTool struct{ fakeMCPTool }

func (f *fatMCPTool) Description() string { return strings.Repeat("does a thing ", 200) }

// TestAHeavyServerIsDeferred is the attack as found: a server with 3,000
// tools made every request fail with "instructions and tools about
// 835k". Its tools are now deferred past the budget and listed within a
// bound, so the request goes out; a prefix lists the rest.
func TestAHeavyServerIsDeferred(t *testing.T) {
	var many []tools.Tool
	for i := range 3000 {
		many = append(many, &fatMCPTool{fakeMCPTool{name: fmt.Sprintf("mcp__bulk__t%d", i), server: "bulk", tool: fmt.Sprintf("t%d", i)}})
	}
	many = append(many, &fakeMCPTool{name: "mcp__gh__get", server: "gh", tool: "get"})
	h := newMCPHarness(t, safety.Rules{}, func() []tools.Tool { return many },
		agenttest.Tools("", agenttest.Call{ID: "l1", Name: "load_tools", Arguments: `{"names":["mcp__bulk__t29*"]}`}),
		agenttest.Text("done", 5))
	h.agent.opts.Budget = Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 10}
	if _, err := h.run("hello"); err != nil {
		t.Fatal(err)
	}
	req := h.srv.Requests()[0]
	if n := len(req.Raw); n > 40000 {
		t.Errorf("the request is %d bytes; want the bulk tools deferred within a bound", n)
	}
	if !strings.Contains(string(req.Raw), `mcp__bulk__*`) {
		t.Errorf("the listing does not say how to list the rest")
	}
	listed := toolResult(t, h.srv.Requests()[1], "l1")
	if !strings.Contains(listed, "- mcp__bulk__t29: does a thing") || !strings.Contains(listed, "(11 more; name a longer prefix.)") || strings.Contains(listed, "mcp__bulk__t3:") {
		t.Errorf("the prefix listed %q", listed)
	}
}
