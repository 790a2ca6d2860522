package safety

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
// it; an allow rule naming it, or a read-only tool of a trusted server,
// runs it unasked; everything else asks once, since pincer cannot know
// what a server's tool does.
func (c *Classifier) MCP(call MCPCall) Verdict {
	argv := []field{{s: call.Name}}
	if rule, ok := firstMatch(c.deny, argv); ok {
		return Verdict{Tier: Confirm, Denied: true, Rule: rule,
			Reasons: []string{call.Name + ": denied by rule \"" + rule + "\""}}
	}
	if rule, ok := firstMatch(c.allow, argv); ok {
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
