package tools

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestResolveAndDisplayPath(t *testing.T) {
	root := filepath.FromSlash("/work/proj")
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	tests := []struct {
		in, abs, shown string
	}{
		{"", root, "."},
		{".", root, "."},
		{"a/b.go", filepath.Join(root, "a", "b.go"), "a/b.go"},
		{"a/../b.go", filepath.Join(root, "b.go"), "b.go"},
		{"./a//b/", filepath.Join(root, "a", "b"), "a/b"},
		{"../other/x", filepath.FromSlash("/work/other/x"), filepath.FromSlash("/work/other/x")},
		{"/etc/passwd", filepath.FromSlash("/etc/passwd"), filepath.FromSlash("/etc/passwd")},
		{"/work/proj/c.go", filepath.Join(root, "c.go"), "c.go"},
		{"~", home, home},
		{"~/notes.md", filepath.Join(home, "notes.md"), filepath.Join(home, "notes.md")},
		{"~user/x", filepath.Join(root, "~user", "x"), "~user/x"},
		{"..data", filepath.Join(root, "..data"), "..data"},
	}
	for _, tt := range tests {
		abs := resolvePath(root, tt.in)
		if abs != tt.abs {
			t.Errorf("resolvePath(%q) = %q, want %q", tt.in, abs, tt.abs)
		}
		if shown := displayPath(root, abs); shown != tt.shown {
			t.Errorf("displayPath(%q) = %q, want %q", abs, shown, tt.shown)
		}
	}
}

func TestJudgedPaths(t *testing.T) {
	root := tempRoot(t)
	outside := tempRoot(t)
	writeFiles(t, root, map[string]string{"plain.txt": "x"})
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	tests := []struct {
		in   string
		want []string
	}{
		{filepath.Join(root, "plain.txt"), []string{filepath.Join(root, "plain.txt")}},
		{filepath.Join(root, "new", "file.txt"), []string{filepath.Join(root, "new", "file.txt")}},
		{filepath.Join(root, "escape", "x.txt"), []string{filepath.Join(root, "escape", "x.txt"), filepath.Join(outside, "x.txt")}},
		{filepath.Join(root, "escape", "a", "b"), []string{filepath.Join(root, "escape", "a", "b"), filepath.Join(outside, "a", "b")}},
	}
	for _, tt := range tests {
		if got := newJudgedPath(root, tt.in).paths(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("paths(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	// The write tools report the real target too, so a path policy sees
	// that a write through the link lands outside the project.
	c := decode(t, Options{Root: root}, "edit_file", editArgs("escape/x.txt", "", "x", false))
	if got := c.Access().Writes; !reflect.DeepEqual(got, []string{filepath.Join(root, "escape", "x.txt"), filepath.Join(outside, "x.txt")}) {
		t.Errorf("edit_file Access().Writes = %v", got)
	}
}
