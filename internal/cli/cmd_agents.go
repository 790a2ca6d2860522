package cli

import (
	"fmt"
	"strings"

	"pincer/agent"
	"pincer/internal/human"
)

// describeAgents is what /agents shows: the agents the task tool offers,
// each with its tools, model and file, and what was wrong with the files
// left out. Every part is foreign text; the screen sanitises notices.
func describeAgents(a *agent.Agent, home string) string {
	defs := a.SubAgentDefs()
	var b strings.Builder
	b.WriteString("Sub-agents (the task tool). Without a name the model gets the default one, which only reads: " +
		strings.Join(agent.DefaultSubAgentTools, ", ") + " (safe commands only).")
	if len(defs) == 0 {
		b.WriteString("\nNo agent files: write one in ~/.config/pincer/agents/ or .pincer/agents/ (see docs/agents.md).")
	}
	for _, d := range defs {
		tools := "read-only default"
		if d.Tools != nil {
			tools = strings.Join(d.Tools, ", ")
		}
		model := ""
		if d.Model != "" {
			model = ", model " + d.Model
		}
		path := human.Tilde(d.Path, home)
		desc := d.Description
		if desc == "" {
			desc = "(no description)"
		}
		fmt.Fprintf(&b, "\n• %s — %s\n  tools: %s%s · %s", d.Name, desc, tools, model, path)
	}
	for _, n := range a.SubAgentNotes() {
		b.WriteString("\n! " + n)
	}
	return b.String()
}
