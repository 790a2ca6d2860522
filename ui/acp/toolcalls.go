package acp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"pincer/agent"
	"pincer/internal/human"
	"pincer/internal/safetext"
	"pincer/safety"
)

// kindOf is the ACP kind of a tool, which editors show as its icon.
func kindOf(name string) string {
	switch name {
	case "read_file":
		return "read"
	case "edit_file", "write_file":
		return "edit"
	case "tree_view", "grep", "glob", "recall":
		return "search"
	case "run_command":
		return "execute"
	case "read_web":
		return "fetch"
	case "todo_write", "task":
		return "think"
	}
	return "other"
}

// described is how a call is shown before it runs: its title, its kind,
// the files it touches and its arguments.
type described struct {
	title string
	kind  string
	locs  []toolCallLocation
	raw   json.RawMessage
}

// describe shows a call from its name and arguments. Arguments that do
// not decode still give a title: the tool's name.
func describe(name, arguments, root string) described {
	d := described{title: name, kind: kindOf(name)}
	if name == "" {
		d.title = "tool call"
	}
	var args map[string]any
	if json.Unmarshal([]byte(arguments), &args) != nil {
		return d
	}
	if json.Valid([]byte(arguments)) {
		d.raw = json.RawMessage(arguments)
	}
	str := func(k string) string {
		s, _ := args[k].(string)
		return s
	}
	detail := ""
	switch name {
	case "run_command":
		detail = str("command")
	case "read_file", "edit_file", "write_file", "tree_view":
		if p := str("path"); p != "" {
			detail = p
			loc := toolCallLocation{Path: absPath(root, p)}
			if off, ok := args["offset"].(float64); ok && off >= 1 && name == "read_file" {
				line := int(off)
				loc.Line = &line
			}
			d.locs = append(d.locs, loc)
		}
	case "grep":
		detail = str("pattern")
		if p := str("path"); p != "" {
			detail += " in " + p
		}
	case "glob":
		detail = str("pattern")
	case "read_web":
		detail = str("url")
	case "task":
		detail = str("description")
	case "recall":
		detail = str("query")
	case "schedule_task":
		detail = str("prompt")
	}
	if detail != "" {
		d.title = name + " " + oneLine(detail, 120)
	}
	return d
}

// absPath is p as an absolute path (ACP paths are absolute).
func absPath(root, p string) string {
	if strings.HasPrefix(p, "~/") {
		return p
	}
	if filepath.IsAbs(p) || root == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(root, p)
}

// oneLine is foreign text fit for a title: one line, control characters
// made visible, at most n characters.
func oneLine(s string, n int) string {
	return human.OneLine(safetext.LineOf(s), n)
}

// fenced puts text in a markdown code block whose fence no line of it can
// close, with control characters made visible.
func fenced(s, lang string) string {
	s = safetext.Sanitize(s, safetext.Exact)
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + fence
}

// streaming tells the editor of a call the model is still writing, the
// first time it appears.
func (s *session) streaming(e agent.ToolCallDelta) {
	if e.Call == "" || e.Name == "" {
		return // announced once its name is known
	}
	s.mu.Lock()
	_, known := s.calls[e.Call]
	if !known {
		s.calls[e.Call] = &call{key: e.Call, name: e.Name, title: e.Name, kind: kindOf(e.Name)}
	}
	s.mu.Unlock()
	if !known {
		s.update(toolCall{SessionUpdate: "tool_call", ToolCallID: e.Call, Title: e.Name, Kind: kindOf(e.Name), Status: statusPending})
	}
}

// requested tells the editor what a finished call of the model asks for:
// its title, kind, files and arguments.
func (s *session) requested(key string, tc agent.ToolCall) {
	d := describe(tc.Name, tc.Arguments, s.conv.Root)
	s.mu.Lock()
	c, known := s.calls[key]
	if !known {
		c = &call{key: key}
		s.calls[key] = c
	}
	c.name, c.title, c.kind, c.locs = tc.Name, d.title, d.kind, d.locs
	s.byID[tc.ID] = key
	s.mu.Unlock()
	u := toolCall{SessionUpdate: "tool_call_update", ToolCallID: key, Title: d.title, Kind: d.kind, Locations: d.locs, RawInput: d.raw}
	if !known {
		u.SessionUpdate, u.Status = "tool_call", statusPending
	}
	s.update(u)
}

// started marks a call as running.
func (s *session) started(key, id, summary string) {
	if key == "" {
		s.mu.Lock()
		key = s.byID[id]
		s.mu.Unlock()
	}
	if key == "" {
		return
	}
	title := oneLine(summary, 160)
	s.mu.Lock()
	if c := s.calls[key]; c != nil {
		c.started = true
		if title != "" {
			c.title = title
		}
	}
	s.mu.Unlock()
	s.update(toolCall{SessionUpdate: "tool_call_update", ToolCallID: key, Title: title, Status: statusInProgress})
}

// finished tells the editor how a call ended and what it gave the model:
// an edit's diff, a command's output; a refusal reads "User cancelled the
// operation", as the model reads it. A call that never started is titled
// with the agent's summary (prefix first), as the screen's card and
// `pincer run` name it: "(recovered from text)" says where it came from.
func (s *session) finished(r agent.ToolResult, prefix string) {
	key := r.Call
	s.mu.Lock()
	if key == "" {
		key = s.byID[r.ID]
	}
	c := s.calls[key]
	s.mu.Unlock()
	if key == "" {
		return
	}
	u := toolCall{SessionUpdate: "tool_call_update", ToolCallID: key, Status: statusCompleted}
	if r.IsError {
		u.Status = statusFailed
	}
	kind := kindOf(r.Name)
	if c != nil && c.change != nil && !r.IsError {
		u.Content = append(u.Content, changeDiff(c.change))
	}
	switch {
	case r.IsError || kind != "read":
		if strings.TrimSpace(r.Content) != "" {
			u.Content = append(u.Content, textContent(fenced(r.Content, "")))
		}
	}
	if (c == nil || !c.started) && strings.TrimSpace(r.Summary) != "" {
		u.Title = prefix + oneLine(r.Summary, 160-len(prefix))
	}
	s.update(u)
}

// subEvent shows a sub-agent's tool calls as calls of their own, titled
// with the task they belong to; its text stays in its report.
func (s *session) subEvent(e agent.SubEvent) {
	if e.Call == "" {
		return
	}
	scoped := func(key string) string { return e.Call + "/" + key }
	switch ev := e.Event.(type) {
	case agent.AssistantMessage:
		for i, tc := range ev.Message.ToolCalls {
			if i >= len(ev.Calls) {
				break
			}
			key := scoped(ev.Calls[i])
			d := describe(tc.Name, tc.Arguments, s.conv.Root)
			title := "sub-agent: " + d.title
			s.mu.Lock()
			s.calls[key] = &call{key: key, name: tc.Name, title: title, kind: d.kind, locs: d.locs}
			s.byID["sub:"+tc.ID] = key
			s.mu.Unlock()
			s.update(toolCall{SessionUpdate: "tool_call", ToolCallID: key, Title: title, Kind: d.kind, Status: statusPending, Locations: d.locs, RawInput: d.raw})
		}
	case agent.ToolStarted:
		s.mu.Lock()
		key := s.byID["sub:"+ev.ID]
		if c := s.calls[key]; c != nil {
			c.started = true
		}
		s.mu.Unlock()
		if key != "" {
			s.update(toolCall{SessionUpdate: "tool_call_update", ToolCallID: key, Title: "sub-agent: " + oneLine(ev.Summary, 150), Status: statusInProgress})
		}
	case agent.ToolResult:
		s.mu.Lock()
		key := s.byID["sub:"+ev.ID]
		s.mu.Unlock()
		if key == "" {
			return
		}
		ev.Call = key
		s.finished(ev, "sub-agent: ")
	case agent.Notice:
		s.notice(ev.Text)
	}
}

// lookupCall finds the key of the call an approval asks about, making one
// (and telling the editor of it) for a call the agent reports nothing else
// about: a slash command's shell line, a file attached to a prompt. Such a
// call is marked made, and the question's answer ends it (answered).
func (s *session) lookupCall(a agent.Approval) (key string, c *call) {
	memo := a.CallID
	if a.Agent != "" {
		memo = "sub:" + a.CallID
	} else if memo == "" {
		memo = "ask:" + a.Tool + "\x00" + a.Summary
	}
	s.mu.Lock()
	key = s.byID[memo]
	c = s.calls[key]
	if c != nil {
		s.mu.Unlock()
		return key, c
	}
	s.synth++
	key = fmt.Sprintf("pincer-ask-%d", s.synth)
	title := oneLine(a.Summary, 160)
	if title == "" {
		title = a.Tool
	}
	c = &call{key: key, name: a.Tool, title: title, kind: kindOf(a.Tool), made: memo}
	s.calls[key] = c
	s.byID[memo] = key
	s.mu.Unlock()
	s.update(toolCall{SessionUpdate: "tool_call", ToolCallID: key, Title: title, Kind: c.kind, Status: statusPending})
	return key, c
}

// answered ends a call pincer made for a question, once the question has
// its last answer: a refusal, or the yes that lets it run.
func (s *session) answered(c *call, a agent.Approval, d agent.Decision) {
	if c.made == "" || (d.Allow && a.Tier >= safety.Dangerous && a.Step < 2) {
		return
	}
	s.mu.Lock()
	delete(s.byID, c.made)
	s.mu.Unlock()
	status := statusCompleted
	if !d.Allow {
		status = statusFailed
	}
	s.update(toolCall{SessionUpdate: "tool_call_update", ToolCallID: c.key, Status: status})
}
