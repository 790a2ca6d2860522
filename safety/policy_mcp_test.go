package safety

import "testing"

func TestMCP(t *testing.T) {
	tests := []struct {
		name      string
		rules     Rules
		call      MCPCall
		tier      Tier
		denied    bool
		rule      string
		noReasons bool
	}{
		{name: "asks by default",
			call: MCPCall{Name: "mcp__gh__get_issue", Server: "gh", Tool: "get_issue"}, tier: Confirm},
		{name: "read-only but untrusted server asks",
			call: MCPCall{Name: "mcp__gh__get_issue", Server: "gh", Tool: "get_issue", ReadOnly: true}, tier: Confirm},
		{name: "trusted server but not read-only asks",
			call: MCPCall{Name: "mcp__gh__close", Server: "gh", Tool: "close", Trusted: true}, tier: Confirm},
		{name: "trusted and read-only runs",
			call: MCPCall{Name: "mcp__gh__get_issue", Server: "gh", Tool: "get_issue", ReadOnly: true, Trusted: true}, tier: Safe, noReasons: true},
		{name: "allow rule runs",
			rules: Rules{Allow: []string{"mcp__gh__get_issue"}},
			call:  MCPCall{Name: "mcp__gh__get_issue", Server: "gh", Tool: "get_issue"}, tier: Safe, rule: "mcp__gh__get_issue", noReasons: true},
		{name: "allow rule of another tool does not",
			rules: Rules{Allow: []string{"mcp__gh__get_issue"}},
			call:  MCPCall{Name: "mcp__gh__get_issues", Server: "gh", Tool: "get_issues"}, tier: Confirm},
		{name: "deny beats allow and trust",
			rules: Rules{Allow: []string{"mcp__gh__get_issue"}, Deny: []string{"mcp__gh__get_issue"}},
			call:  MCPCall{Name: "mcp__gh__get_issue", Server: "gh", Tool: "get_issue", ReadOnly: true, Trusted: true}, tier: Confirm, denied: true, rule: "mcp__gh__get_issue"},
		// A server's tool names are its own: an allow rule names one
		// exactly, never a tool that differs in case or spelling.
		{name: "an allow rule in another case does not run it",
			rules: Rules{Allow: []string{"mcp__gh__get_issue"}},
			call:  MCPCall{Name: "mcp__gh__Get_Issue", Server: "gh", Tool: "Get_Issue"}, tier: Confirm},
		{name: "an allow rule of the upper-case tool does not run the lower-case one",
			rules: Rules{Allow: []string{"mcp__GH__GET_ISSUE"}},
			call:  MCPCall{Name: "mcp__gh__get_issue", Server: "gh", Tool: "get_issue"}, tier: Confirm},
		{name: "an allow rule spelled as a path does not run it",
			rules: Rules{Allow: []string{"bin/mcp__gh__get_issue"}},
			call:  MCPCall{Name: "mcp__gh__get_issue", Server: "gh", Tool: "get_issue"}, tier: Confirm},
		{name: "an allow rule with an executable suffix does not run it",
			rules: Rules{Allow: []string{"mcp__gh__get_issue.exe"}},
			call:  MCPCall{Name: "mcp__gh__get_issue", Server: "gh", Tool: "get_issue"}, tier: Confirm},
		{name: "a deny rule refuses whatever the case",
			rules: Rules{Deny: []string{"MCP__GH__DELETE_REPO"}},
			call:  MCPCall{Name: "mcp__gh__delete_repo", Server: "gh", Tool: "delete_repo"}, tier: Confirm, denied: true, rule: "MCP__GH__DELETE_REPO"},
		{name: "a command rule with arguments does not name a tool",
			rules: Rules{Allow: []string{"mcp__gh__get_issue x"}},
			call:  MCPCall{Name: "mcp__gh__get_issue", Server: "gh", Tool: "get_issue"}, tier: Confirm},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewClassifier(tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			v := c.MCP(tt.call)
			if v.Tier != tt.tier || v.Denied != tt.denied || v.Rule != tt.rule {
				t.Fatalf("MCP(%+v) = %+v; want tier %v denied %v rule %q", tt.call, v, tt.tier, tt.denied, tt.rule)
			}
			if tt.noReasons != (len(v.Reasons) == 0) {
				t.Fatalf("reasons %q", v.Reasons)
			}
		})
	}
}

// TestMCPSessionRule: "always allow this tool" adds the tool's name as a
// session rule, and the classifier then runs it unasked.
func TestMCPSessionRule(t *testing.T) {
	c, _ := NewClassifier(Rules{})
	call := MCPCall{Name: "mcp__fs__read_text_file", Server: "fs", Tool: "read_text_file"}
	if c.MCP(call).Tier != Confirm {
		t.Fatal("asks before the rule")
	}
	c2, err := c.WithAllow(call.Name)
	if err != nil {
		t.Fatal(err)
	}
	if v := c2.MCP(call); v.Tier != Safe {
		t.Fatalf("after the rule: %+v", v)
	}
}
