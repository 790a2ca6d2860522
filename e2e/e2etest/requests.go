package e2etest

import (
	"encoding/json"
	"strings"

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

// ToolNames are the names of the tools a request offered: those sent in
// full, then those deferred, which load_tools lists by name.
func ToolNames(r agenttest.Request) []string {
	var names, deferred []string
	ts, _ := r.Body["tools"].([]any)
	for _, t := range ts {
		fn := t.(map[string]any)["function"].(map[string]any)
		names = append(names, fn["name"].(string))
		if fn["name"] != "load_tools" {
			continue
		}
		for _, line := range strings.Split(fn["description"].(string), "\n")[1:] {
			if name, _, ok := strings.Cut(strings.TrimPrefix(line, "- "), ":"); ok {
				deferred = append(deferred, name)
			}
		}
	}
	return append(names, deferred...)
}
