package acp

import (
	"fmt"
	"strings"

	"pincer/agent"
)

// replay sends a loaded session's conversation to the editor, as ACP asks
// of session/load: the person's prompts (what they typed, and the files
// attached), the model's reasoning and answers, and each tool call with
// how it ended. Messages a rewind took back are not part of it, nor the
// wrap-up requests pincer itself sent.
func (s *session) replay() {
	keys := map[string]string{} // a call's id → the key it is replayed under
	for _, m := range s.conv.Agent.History() {
		switch m.Role {
		case agent.RoleUser:
			s.endStreams()
			if m.Kind != "" && m.Kind != agent.KindTask {
				continue
			}
			typed, files := agent.SplitAttachments(m.Content)
			if len(files) > 0 {
				typed += "\n\n(attached: " + strings.Join(files, ", ") + ")"
			}
			if strings.TrimSpace(typed) != "" {
				s.update(contentChunk{SessionUpdate: "user_message_chunk", Content: text(typed)})
			}
		case agent.RoleAssistant:
			s.stream(true, m.Reasoning)
			s.stream(false, m.Content)
			if len(m.ToolCalls) > 0 {
				s.cutStreams()
			}
			for i, tc := range m.ToolCalls {
				key := fmt.Sprintf("pincer-history-%d-%d", m.Seq, i)
				keys[tc.ID] = key
				d := describe(tc.Name, tc.Arguments, s.conv.Root)
				s.update(toolCall{SessionUpdate: "tool_call", ToolCallID: key, Title: d.title, Kind: d.kind, Status: statusPending, Locations: d.locs, RawInput: d.raw})
			}
		case agent.RoleTool:
			s.cutStreams()
			key, ok := keys[m.ToolCallID]
			if !ok {
				continue
			}
			delete(keys, m.ToolCallID)
			u := toolCall{SessionUpdate: "tool_call_update", ToolCallID: key, Status: statusCompleted}
			if m.IsError {
				u.Status = statusFailed
			}
			if (m.IsError || kindOf(m.ToolName) != "read") && strings.TrimSpace(m.Content) != "" {
				u.Content = []toolCallContent{textContent(fenced(m.Content, ""))}
			}
			s.update(u)
		}
	}
	s.endStreams()
	// A call left without a result (the turn was cut short) did not run.
	for _, key := range keys {
		s.update(toolCall{SessionUpdate: "tool_call_update", ToolCallID: key, Status: statusFailed})
	}
}
