package safety

import "strings"

// MCPCall is one call of a tool an MCP server offers, as the policy sees
// it.
type MCPCall struct {
	// Name is what the model calls and what rules name:
	// mcp__SERVER__TOOL.
	Name string
	// Server and Tool name the server and the tool, for the reasons.
	Server, Tool string
	// ReadOnly is the tool's readOnlyHint; Trusted is the server's trusted
	// flag in the person's configuration.
	ReadOnly, Trusted bool
}

// MCP decides a call of an MCP tool. A deny rule naming the tool refuses
// it, whatever the case of either; an allow rule naming it exactly (case
// included: mcp__gh__Delete is not mcp__gh__delete), or a read-only tool
// of a trusted server, runs it unasked; everything else asks once, since
// pincer cannot know what a server's tool does.
func (c *Classifier) MCP(call MCPCall) Verdict {
	argv := []field{{s: call.Name}}
	if rule, ok := firstMatch(c.deny, argv); ok {
		return Verdict{Tier: Confirm, Denied: true, Rule: rule,
			Reasons: []string{call.Name + ": denied by rule \"" + rule + "\""}}
	}
	if rule, ok := exactMCPRule(c.allow, call.Name); ok {
		return Verdict{Tier: Safe, Rule: rule, Reasons: []string{}}
	}
	if call.ReadOnly && call.Trusted {
		return Verdict{Tier: Safe, Reasons: []string{}}
	}
	why := "a tool of the MCP server " + display(call.Server) + "; pincer cannot tell what it does"
	if call.ReadOnly {
		why = "a tool of the MCP server " + display(call.Server) + " that says it only reads; the server is not marked trusted"
	}
	return Verdict{Tier: Confirm, Reasons: []string{display(call.Tool) + ": " + why}}
}

// exactMCPRule finds the rule that is the MCP tool name and nothing else,
// byte for byte. Commands are matched by program name whatever its case,
// as file systems may ignore it; a server's tool names are the server's
// own, and one differing only in case is another tool.
func exactMCPRule(ps []pattern, name string) (string, bool) {
	for _, p := range ps {
		if words := strings.Fields(p.text); len(words) == 1 && words[0] == name {
			return p.text, true
		}
	}
	return "", false
}
