// Package frontmatter reads the small YAML header of the person's Markdown
// files (custom commands, agent definitions): "key: value" lines between
// two "---" lines, and lists written as "a, b", "[a, b]" or "- a" lines
// under the key. It is not a YAML parser: anything else in the header is
// ignored, so a file written for another tool still loads.
package frontmatter

import (
	"strconv"
	"strings"
)

// Matter is the header of one file.
type Matter struct {
	values map[string]string
	lists  map[string][]string // block lists: "key:" followed by "- item" lines
}

// Parse splits text into its front matter and its body (trimmed). A text
// without a closed header is all body.
func Parse(text string) (Matter, string) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	m := Matter{values: map[string]string{}, lists: map[string][]string{}}
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return m, strings.TrimSpace(text)
	}
	var head, body string
	found := true
	if after, ok := strings.CutPrefix(rest, "---"); ok {
		body = after // an empty header
	} else {
		head, body, found = strings.Cut(rest, "\n---")
	}
	if !found {
		return m, strings.TrimSpace(text)
	}
	// The closing line may carry trailing dashes or spaces; the body
	// starts on the next line.
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	} else {
		body = ""
	}
	last := ""
	for _, line := range strings.Split(head, "\n") {
		trimmed := strings.TrimSpace(line)
		if item, ok := strings.CutPrefix(trimmed, "- "); ok && last != "" {
			m.lists[last] = append(m.lists[last], unquote(strings.TrimSpace(item)))
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
			last = ""
			continue
		}
		key = strings.TrimSpace(key)
		m.values[key] = unquote(strings.TrimSpace(value))
		last = key
	}
	return m, strings.TrimSpace(body)
}

// Get is the value of key, "" when the header does not have it.
func (m Matter) Get(key string) string { return m.values[key] }

// Has reports whether the header names key, with a value or a list.
func (m Matter) Has(key string) bool {
	_, ok := m.values[key]
	return ok || len(m.lists[key]) > 0
}

// List is the value of key read as a list: "a, b", "[a, b]", or "- a"
// lines under the key. Empty items are dropped.
func (m Matter) List(key string) []string {
	if items := m.lists[key]; len(items) > 0 {
		return append([]string(nil), items...)
	}
	v := strings.TrimSpace(m.values[key])
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		v = v[1 : len(v)-1]
	}
	var out []string
	for _, item := range strings.Split(v, ",") {
		if item = unquote(strings.TrimSpace(item)); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// unquote drops the quotes YAML allows around a value.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		if u, err := strconv.Unquote(`"` + s[1:len(s)-1] + `"`); err == nil {
			return u
		}
		return s[1 : len(s)-1]
	}
	return s
}
