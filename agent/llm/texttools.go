package llm

import (
	"encoding/json"
	"strings"

	"pincer/chat"
)

// textToolsPreamble opens the description of the tools in the system
// prompt when the server takes no tools of its own (Request.TextTools):
// the model is shown the one format pincer asks for, which is also the one
// most open models were trained on.
const textToolsPreamble = `# Tools

You can call the tools below. To call one, answer with nothing but one block per call:
<tool_call>
{"name": "TOOL_NAME", "arguments": {ARGUMENTS AS JSON}}
</tool_call>
Write no other text in an answer that calls tools. The results come back in <tool_response> blocks. Answer in plain text when you need no tool.

Available tools (name, description, JSON schema of the arguments):`

// TextToolsPrompt is what a request with TextTools adds to the system
// prompt: the tools and how to call them. The agent counts it in its
// budget.
func TextToolsPrompt(tools []ToolSpec) string {
	var b strings.Builder
	b.WriteString(textToolsPreamble)
	for _, t := range tools {
		params, _ := json.Marshal(t.Parameters)
		b.WriteString("\n- ")
		b.WriteString(t.Name)
		b.WriteString(": ")
		b.WriteString(strings.TrimSpace(t.Description))
		b.WriteString("\n  ")
		b.Write(params)
	}
	return b.String()
}

// asTextTools rewrites a conversation for a server that takes no tools:
// the tools are described in the first system message, each tool call the
// model made becomes the <tool_call> block it would have written, and the
// results of one answer's calls become one user message of
// <tool_response> blocks (so user and assistant still alternate, as strict
// chat templates require).
func asTextTools(msgs []chat.Message, tools []ToolSpec) []chat.Message {
	out := make([]chat.Message, 0, len(msgs)+1)
	prompt := TextToolsPrompt(tools)
	told := false
	results := false // the last message out holds tool results
	for _, m := range msgs {
		wasResults := results
		results = false
		switch m.Role {
		case chat.RoleSystem:
			if !told {
				m.Content = strings.TrimSpace(m.Content + "\n\n" + prompt)
				told = true
			}
			out = append(out, m)
		case chat.RoleAssistant:
			if len(m.ToolCalls) == 0 {
				out = append(out, m)
				continue
			}
			var b strings.Builder
			b.WriteString(strings.TrimSpace(m.Content))
			for _, c := range m.ToolCalls {
				call, _ := json.Marshal(struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				}{c.Name, json.RawMessage(wellFormedArgs(c.Arguments))})
				if b.Len() > 0 {
					b.WriteString("\n")
				}
				b.WriteString(hermesOpen + "\n")
				b.Write(call)
				b.WriteString("\n" + hermesClose)
			}
			out = append(out, chat.Message{Role: chat.RoleAssistant, Content: b.String(), Reasoning: m.Reasoning, ReasoningField: m.ReasoningField})
		case chat.RoleTool:
			block := "<tool_response>\n" + m.Content + "\n</tool_response>"
			results = true
			if wasResults {
				out[len(out)-1].Content += "\n" + block
				continue
			}
			out = append(out, chat.Message{Role: chat.RoleUser, Content: block})
		default:
			out = append(out, m)
		}
	}
	if !told {
		out = append([]chat.Message{{Role: chat.RoleSystem, Content: prompt}}, out...)
	}
	return joinUsers(out)
}

// joinUsers joins user messages that follow one another (tool results
// and a question after a turn that stopped before its answer): the chat
// templates of Mistral and Gemma refuse two in a row.
func joinUsers(msgs []chat.Message) []chat.Message {
	out := msgs[:0]
	for _, m := range msgs {
		if n := len(out); n > 0 && m.Role == chat.RoleUser && out[n-1].Role == chat.RoleUser {
			out[n-1].Content += "\n\n" + m.Content
			continue
		}
		out = append(out, m)
	}
	return out
}
