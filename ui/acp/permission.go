package acp

import (
	"context"
	"fmt"
	"strings"

	"pincer/agent"
	"pincer/internal/human"
	"pincer/safety"
	"pincer/tools"
)

// The option ids of a permission request. The second step of a dangerous
// action has an id of its own, so an editor that repeats the first
// answer's id cannot pass it.
const (
	optAllow       = "allow"
	optAlways      = "allow-always"
	optAcceptEdits = "accept-edits"
	optReject      = "reject"
	optRunIt       = "yes-run-it"
)

// approver is the session's answer to the agent's questions.
func (s *session) approver() agent.Approver { return agent.ApproverFunc(s.approve) }

// approve asks the editor what the screen would ask the person, with
// session/request_permission. Edits are answered without asking in the
// accept-edits and auto modes, as on the screen, except a dangerous one or
// one a hook asked about. Any answer but an allowing option is a refusal,
// which the model reads as "User cancelled the operation".
func (s *session) approve(ctx context.Context, a agent.Approval) (agent.Decision, error) {
	key, c := s.lookupCall(a)
	if a.Kind == agent.ApproveEdit && a.Change != nil {
		s.mu.Lock()
		c.change = a.Change
		s.mu.Unlock()
	}
	if s.autoApproves(a) {
		return agent.Decision{Allow: true}, nil
	}
	req := permissionRequest{SessionID: s.id, ToolCall: s.question(key, c, a), Options: options(a)}
	d, err := s.decide(ctx, req, a)
	s.answered(c, a, d)
	return d, err
}

// decide sends one permission request and turns the editor's choice into
// the agent's decision.
func (s *session) decide(ctx context.Context, req permissionRequest, a agent.Approval) (agent.Decision, error) {
	var resp permissionResponse
	if err := s.srv.conn.call(ctx, "session/request_permission", req, &resp); err != nil {
		return agent.Decision{}, err
	}
	if resp.Outcome.Outcome != "selected" {
		return agent.Decision{}, nil // the editor cancelled the turn
	}
	chosen := resp.Outcome.OptionID
	for _, o := range req.Options {
		if o.OptionID != chosen {
			continue
		}
		switch chosen {
		case optAllow, optRunIt:
			return agent.Decision{Allow: true}, nil
		case optAlways:
			return agent.Decision{Allow: true, AllowRule: a.SuggestedRule}, nil
		case optAcceptEdits:
			_ = s.setMode(modeAcceptEdits, true)
			return agent.Decision{Allow: true}, nil
		}
	}
	if chosen != optReject {
		s.srv.logf("pincer: the editor chose %q, which was not offered; taken as a refusal", human.OneLine(chosen, 60))
	}
	return agent.Decision{}, nil
}

// autoApproves reports whether the session's mode answers a question
// without asking (agent.Approval.AnsweredUnasked).
func (s *session) autoApproves(a agent.Approval) bool { return a.AnsweredUnasked(s.conv.Agent.Mode()) }

// options are the answers offered for a question. A dangerous action's
// first step offers no "always"; its second step puts the refusal first
// and labels the only yes with the command itself.
func options(a agent.Approval) []permissionOption {
	if a.Step == 2 {
		return []permissionOption{
			{OptionID: optReject, Name: "No, do not run it", Kind: rejectOnce},
			{OptionID: optRunIt, Name: oneLine(what(a), 80) + " — yes, run it", Kind: allowOnce},
		}
	}
	var out []permissionOption
	switch {
	case a.Tier >= safety.Dangerous:
		out = append(out, permissionOption{OptionID: optAllow, Name: "Yes (a second confirmation follows)", Kind: allowOnce})
	case a.Kind == agent.ApproveEdit:
		out = append(out, permissionOption{OptionID: optAllow, Name: "Apply this edit", Kind: allowOnce})
		if !a.HookAsked {
			out = append(out, permissionOption{OptionID: optAcceptEdits, Name: "Apply, and accept edits from now on", Kind: allowAlways})
		}
	default:
		out = append(out, permissionOption{OptionID: optAllow, Name: "Allow once", Kind: allowOnce})
		if a.SuggestedRule != "" && !a.Schedule && a.Kind != agent.ApproveUnsandboxed && a.Kind != agent.ApprovePath {
			out = append(out, permissionOption{OptionID: optAlways, Name: "Always allow " + oneLine(a.SuggestedRule, 60) + " in this session", Kind: allowAlways})
		}
	}
	return append(out, permissionOption{OptionID: optReject, Name: "No", Kind: rejectOnce})
}

// what is the thing asked about, whole: the command, the URL, or the
// call's summary.
func what(a agent.Approval) string {
	switch {
	case a.Command != "":
		return a.Command
	case a.URL != "":
		return a.URL
	}
	return a.Summary
}

// question is the tool call a permission request shows: the call's title
// and kind, and what exactly is asked — the command whole, the URL, the
// edit's diff — with the reasons the safety policy gave.
func (s *session) question(key string, c *call, a agent.Approval) toolCall {
	s.mu.Lock()
	title, kind, locs := c.title, c.kind, c.locs
	s.mu.Unlock()
	if a.Agent != "" && !strings.HasPrefix(title, "sub-agent") {
		title = oneLine(a.Agent, 60) + ": " + title
	}
	var b strings.Builder
	switch {
	case a.Step == 2:
		title = "Second confirmation: " + oneLine(what(a), 120)
		b.WriteString("**Second confirmation.** This is dangerous; run it only if you mean it:\n\n")
	case a.Tier >= safety.Dangerous:
		b.WriteString("**Dangerous.** ")
	}
	var content []toolCallContent
	switch a.Kind {
	case agent.ApproveCommand:
		b.WriteString("Run this command?\n\n")
		b.WriteString(fenced(a.Command, "sh"))
	case agent.ApproveUnsandboxed:
		b.WriteString("The sandbox blocked this command. Run it again **outside the sandbox**, with your full rights?\n\n")
		b.WriteString(fenced(a.Command, "sh"))
	case agent.ApproveWeb:
		b.WriteString("Fetch this page?\n\n")
		b.WriteString(fenced(a.URL, ""))
	case agent.ApproveEdit:
		b.WriteString("Apply this edit?")
		if a.Change != nil {
			if a.Change.Summary != "" {
				b.WriteString(" (" + escapeMarkdown(oneLine(a.Change.Summary, 200)) + ")")
			}
			if a.Change.Stale {
				b.WriteString("\n\nThe file changed since the model last read it; the diff is against the file as it is now.")
			}
			if a.Step != 2 {
				content = append(content, changeDiff(a.Change))
			}
			kind, locs = "edit", []toolCallLocation{{Path: a.Change.Path}}
		}
	case agent.ApproveAction:
		if a.MCP != nil {
			fmt.Fprintf(&b, "Call the tool \u201c%s\u201d of the MCP server \u201c%s\u201d?\n\n", escapeMarkdown(oneLine(a.MCP.Tool, 80)), escapeMarkdown(oneLine(a.MCP.Server, 80)))
			b.WriteString(fenced(a.MCP.Arguments, "json"))
		} else {
			b.WriteString("Allow this?\n\n")
			b.WriteString(fenced(a.Summary, ""))
		}
	default: // a file access beyond the usual bounds
		b.WriteString("Allow this?\n\n")
		b.WriteString(fenced(a.Summary, ""))
		if len(a.Paths) > 0 {
			b.WriteString("\n\nIt reaches:\n")
			for _, p := range a.Paths {
				b.WriteString("\n- " + escapeMarkdown(oneLine(p, 300)))
			}
		}
	}
	if a.Dir != "" && a.Dir != s.conv.Root {
		b.WriteString("\n\nin " + escapeMarkdown(oneLine(a.Dir, 300)))
	}
	if a.Schedule {
		b.WriteString("\n\nA scheduled task runs later, with nobody watching.")
	}
	if len(a.Reasons) > 0 {
		b.WriteString("\n")
		for _, r := range a.Reasons {
			b.WriteString("\n- " + escapeMarkdown(oneLine(r, 300)))
		}
	}
	content = append([]toolCallContent{textContent(b.String())}, content...)
	return toolCall{ToolCallID: key, Title: inert(oneLine(title, 160)), Kind: kind, Status: statusPending, Content: content, Locations: locs}
}

// changeDiff is an edit as an ACP diff: the file's text before (none for
// a new file) and after.
func changeDiff(ch *tools.Change) toolCallContent {
	var before *string
	if !ch.Created && ch.Before != nil {
		b := string(ch.Before)
		before = &b
	}
	return diffContent(ch.Path, before, string(ch.After))
}
