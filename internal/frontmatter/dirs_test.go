package frontmatter

import (
	"reflect"
	"testing"
)

// TestDirs: the person's directory comes first and the project's last,
// so a project's file wins a name clash; project directories are bound
// to the project.
func TestDirs(t *testing.T) {
	for _, tc := range []struct {
		config, root string
		want         []Dir
	}{
		{"/c", "/p", []Dir{{Path: "/c/agents"}, {Path: "/p/.claude/agents", Within: "/p"}, {Path: "/p/.pincer/agents", Within: "/p"}}},
		{"", "/p", []Dir{{Path: "/p/.claude/agents", Within: "/p"}, {Path: "/p/.pincer/agents", Within: "/p"}}},
		{"/c", "", []Dir{{Path: "/c/agents"}}},
		{"", "", nil},
	} {
		if got := Dirs(tc.config, tc.root, "agents"); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Dirs(%q, %q) = %v, want %v", tc.config, tc.root, got, tc.want)
		}
	}
}
