package ui

import (
	"fmt"
	"time"

	"pincer/agent"
	"pincer/chat"
	"pincer/internal/safetext"
)

// subEvent shows an event of a task's sub-agent inside the task's card:
// its tool calls become the card's steps, the files it touched are marked
// in the tree, and its tokens are counted apart from the main agent's. It
// reports whether the files on disk may have changed.
func (a *App) subEvent(e agent.SubEvent) (refresh bool) {
	parent := callKey(e.Call, e.ID)
	switch ev := e.Event.(type) {
	case agent.AssistantMessage:
		for i, c := range ev.Message.ToolCalls {
			key := c.ID
			if i < len(ev.Calls) {
				key = ev.Calls[i]
			}
			a.transcript.SubCall(parent, key, c.Name, c.Arguments)
		}
	case agent.ToolStarted:
		a.state, a.toolName = stateTool, "task · "+ev.Name
		a.transcript.SubStarted(parent, callKey(ev.Call, ev.ID), ev.Summary)
	case agent.ToolResult:
		a.transcript.SubResult(parent, callKey(ev.Call, ev.ID), ev.IsError)
		for _, t := range ev.Touched {
			a.tree.Mark(t.Path, markKind(t.Kind))
			refresh = refresh || t.Kind != chat.TouchRead
		}
		refresh = refresh || ev.Name == "run_command"
		a.state, a.toolName = stateTool, "task"
	case agent.Usage:
		a.subUsage = a.subUsage.Plus(ev)
		a.turnUsage = a.turnUsage.Plus(ev)
	case agent.Notice:
		a.transcript.AddNotice("Sub-agent: " + ev.Text)
	case agent.Retrying:
		a.transcript.AddRetry(fmt.Sprintf("Sub-agent: request failed (%v); retrying in %s (attempt %d).", ev.Err, ev.Wait.Round(100*time.Millisecond), ev.Attempt+1))
	}
	return refresh
}

// askedBy adds to a dialog's title the sub-agent that asks, if one does,
// so the person knows the question is not the main agent's.
func askedBy(q agent.Approval, title string) string {
	if q.Agent == "" {
		return title
	}
	return title + " · asked by " + safetext.LineOf(q.Agent)
}

// countSubUsage moves the tokens a stored task result's sub-agent used
// from the session's total, which includes them, to the sub-agents' own
// count, so a resumed session's status line splits them as the live one
// does.
func (a *App) countSubUsage(m agent.Message) {
	if m.Usage == nil || m.ToolName != agent.TaskToolName {
		return
	}
	a.subUsage.PromptTokens += m.Usage.PromptTokens
	a.subUsage.CompletionTokens += m.Usage.CompletionTokens
	a.usage.PromptTokens = max(a.usage.PromptTokens-m.Usage.PromptTokens, 0)
	a.usage.CompletionTokens = max(a.usage.CompletionTokens-m.Usage.CompletionTokens, 0)
	a.subUsage.Cost += m.Usage.Cost
	a.usage.Cost = max(a.usage.Cost-m.Usage.Cost, 0)
}
