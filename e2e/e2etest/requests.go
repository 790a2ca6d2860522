package e2etest

import (
	"encoding/json"

	"pincer/agent/agenttest"
)

// RequestText is everything a chat request sent, as text.
func RequestText(r agenttest.Request) string {
	data, _ := json.Marshal(r.Body["messages"])
	return string(data)
}

// UserContents are the texts of a request's user messages.
func UserContents(r agenttest.Request) []string {
	return contentsOf(r, "user")
}

// ToolResults are the texts of a request's tool messages.
func ToolResults(r agenttest.Request) []string {
	return contentsOf(r, "tool")
}

func contentsOf(r agenttest.Request, role string) []string {
	var out []string
	msgs, _ := r.Body["messages"].([]any)
	for _, m := range msgs {
		mm := m.(map[string]any)
		if mm["role"] == role {
			out = append(out, mm["content"].(string))
		}
	}
	return out
}

// ToolNames are the names of the tools a request offered.
func ToolNames(r agenttest.Request) []string {
	var names []string
	ts, _ := r.Body["tools"].([]any)
	for _, t := range ts {
		names = append(names, t.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	return names
}
