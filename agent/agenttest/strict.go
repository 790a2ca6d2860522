package agenttest

import (
	"encoding/json"
	"fmt"
)

// CheckStrict reports the first way a chat request body breaks the rules
// that strict providers (OpenAI, DeepSeek, Mistral, Anthropic behind
// OpenRouter) enforce:
//   - every message has a known role and a string content (or tool calls);
//   - every tool message answers a tool_call id of the nearest assistant
//     message before it, and each id is answered once;
//   - every tool call of an assistant message is answered before the next
//     non-tool message (and before the request ends);
//   - tool call ids are non-empty and unique in the request, the type is
//     "function", the name is set, and the arguments are a JSON object text;
//   - the tools list has unique function names with object parameters.
func CheckStrict(body []byte) error {
	var req struct {
		Model    string            `json:"model"`
		Messages []json.RawMessage `json:"messages"`
		Tools    []struct {
			Type     string `json:"type"`
			Function struct {
				Name       string         `json:"name"`
				Parameters map[string]any `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return fmt.Errorf("body: %w", err)
	}
	if req.Model == "" {
		return fmt.Errorf("model is empty")
	}
	if len(req.Messages) == 0 {
		return fmt.Errorf("no messages")
	}
	names := map[string]bool{}
	for i, t := range req.Tools {
		if t.Type != "function" {
			return fmt.Errorf("tools[%d]: type %q, want function", i, t.Type)
		}
		if t.Function.Name == "" || names[t.Function.Name] {
			return fmt.Errorf("tools[%d]: empty or duplicate name %q", i, t.Function.Name)
		}
		names[t.Function.Name] = true
		if t.Function.Parameters["type"] != "object" {
			return fmt.Errorf("tools[%d] %s: parameters are not an object schema", i, t.Function.Name)
		}
	}
	seen := map[string]bool{}
	var open map[string]bool // calls of the last assistant message not yet answered
	for i, raw := range req.Messages {
		var m struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("messages[%d]: %w", i, err)
		}
		if m.Role != "tool" && len(open) > 0 {
			return fmt.Errorf("messages[%d] (%s): tool calls %v of the assistant message before were not answered", i, m.Role, keys(open))
		}
		switch m.Role {
		case "system", "user":
			if !isString(m.Content) {
				return fmt.Errorf("messages[%d] (%s): content is not a string", i, m.Role)
			}
		case "assistant":
			if len(m.ToolCalls) == 0 && !isString(m.Content) {
				return fmt.Errorf("messages[%d] (assistant): no content and no tool calls", i)
			}
			open = map[string]bool{}
			for j, c := range m.ToolCalls {
				if c.ID == "" || seen[c.ID] {
					return fmt.Errorf("messages[%d].tool_calls[%d]: empty or reused id %q", i, j, c.ID)
				}
				seen[c.ID] = true
				if c.Type != "function" || c.Function.Name == "" {
					return fmt.Errorf("messages[%d].tool_calls[%d]: type %q name %q", i, j, c.Type, c.Function.Name)
				}
				var obj map[string]any
				if json.Unmarshal([]byte(c.Function.Arguments), &obj) != nil || obj == nil {
					return fmt.Errorf("messages[%d].tool_calls[%d]: arguments %q are not a JSON object", i, j, c.Function.Arguments)
				}
				open[c.ID] = true
			}
		case "tool":
			if !open[m.ToolCallID] {
				return fmt.Errorf("messages[%d] (tool): tool_call_id %q answers no open call of the assistant message before", i, m.ToolCallID)
			}
			delete(open, m.ToolCallID)
			if !isString(m.Content) {
				return fmt.Errorf("messages[%d] (tool): content is not a string", i)
			}
		default:
			return fmt.Errorf("messages[%d]: unknown role %q", i, m.Role)
		}
	}
	if len(open) > 0 {
		return fmt.Errorf("the request ends with unanswered tool calls %v", keys(open))
	}
	return nil
}

func isString(raw json.RawMessage) bool {
	var s string
	return json.Unmarshal(raw, &s) == nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
