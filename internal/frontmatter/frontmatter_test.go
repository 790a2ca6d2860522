package frontmatter

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		key, value string
		list       []string
		body       string
	}{
		{"no header", "Just a body.\n", "name", "", nil, "Just a body."},
		{"unclosed header", "---\nname: x\nbody", "name", "", nil, "---\nname: x\nbody"},
		{"value", "---\nname: explorer\n---\nBody.", "name", "explorer", []string{"explorer"}, "Body."},
		{"quoted value", "---\ndescription: \"find: things\"\n---\n", "description", "find: things", []string{"find: things"}, ""},
		{"single quotes", "---\nmodel: 'big'\n---\nx", "model", "big", []string{"big"}, "x"},
		{"crlf", "---\r\nname: a\r\n---\r\nBody\r\n", "name", "a", []string{"a"}, "Body"},
		{"comma list", "---\ntools: read_file, grep ,glob\n---\n", "tools", "read_file, grep ,glob", []string{"read_file", "grep", "glob"}, ""},
		{"flow list", "---\ntools: [read_file, \"grep\"]\n---\n", "tools", "[read_file, \"grep\"]", []string{"read_file", "grep"}, ""},
		{"block list", "---\ntools:\n  - read_file\n  - 'grep'\nname: x\n---\nB", "tools", "", []string{"read_file", "grep"}, "B"},
		{"block list at the margin", "---\ntools:\n- x\n-  y\n---\n", "tools", "", []string{"x", "y"}, ""},
		{"empty header", "---\n---\nBody", "name", "", nil, "Body"},
		{"indented key is ignored", "---\n  name: x\n---\n", "name", "", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, body := Parse(tc.text)
			if got := m.Get(tc.key); got != tc.value {
				t.Errorf("Get(%q) = %q, want %q", tc.key, got, tc.value)
			}
			if got := m.List(tc.key); !reflect.DeepEqual(got, tc.list) {
				t.Errorf("List(%q) = %q, want %q", tc.key, got, tc.list)
			}
			if body != tc.body {
				t.Errorf("body %q, want %q", body, tc.body)
			}
		})
	}
}

func TestHas(t *testing.T) {
	m, _ := Parse("---\ntools:\n  - a\nmodel:\n---\n")
	if !m.Has("tools") || !m.Has("model") || m.Has("name") {
		t.Errorf("Has: tools %v model %v name %v", m.Has("tools"), m.Has("model"), m.Has("name"))
	}
}
