package headless

import (
	"fmt"

	"pincer/agent"
	"pincer/internal/safetext"
)

// subLine is the JSON line of a sub-agent's event: the event's own line,
// nested under "event", with the id of the task call that started the
// sub-agent ("parent", the id its tool_start and tool_result lines carry)
// and the agent's name ("" for the default one). Nesting keeps a reader
// that looks at "type" from taking a sub-agent's steps for the main
// agent's.
type subLine struct {
	Type   string `json:"type"`
	Parent string `json:"parent"`
	Agent  string `json:"agent"`
	Event  any    `json:"event"`
}

// subEvent prints a sub-agent's event: as a "sub" JSON line, or as its
// tool activity, indented under the task, on errOut. Its tokens are
// summed apart from the main agent's.
func (p *Printer) subEvent(e agent.SubEvent) {
	if u, ok := e.Event.(agent.Usage); ok {
		p.subUsage = p.subUsage.Plus(u)
	}
	if p.json {
		if start := p.startOf(e.ID, e.Event); start != nil {
			p.line(subLine{"sub", e.ID, e.Agent, start})
		}
		if l := lineOf(e.Event); l != nil {
			p.line(subLine{"sub", e.ID, e.Agent, l})
		}
		return
	}
	switch ev := e.Event.(type) {
	case agent.ToolStarted:
		p.startOf(e.ID, ev)
		fmt.Fprintf(p.err, "  ▸ %s\n", safetext.LineOf(ev.Summary))
	case agent.ToolResult:
		if p.startOf(e.ID, ev) != nil && ev.Summary != "" {
			fmt.Fprintf(p.err, "  ▸ %s\n", safetext.LineOf(ev.Summary))
		}
		mark := "✓"
		if ev.IsError {
			mark = "✗"
		}
		fmt.Fprintf(p.err, "    %s %s\n", mark, safetext.LineOf(firstLine(ev.Content, 120)))
	case agent.Notice:
		fmt.Fprintf(p.err, "  note: %s\n", safetext.LineOf(ev.Text))
	case agent.Retrying:
		fmt.Fprintf(p.err, "  retrying in %s (attempt %d failed: %s)\n", ev.Wait.Round(1e8), ev.Attempt, safetext.LineOf(fmt.Sprint(ev.Err)))
	}
}
