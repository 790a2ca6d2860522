package tools

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestTreeView(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{
		".gitignore":           "*.log\nbuild/\n!keep.log\n",
		".git/HEAD":            "ref",
		"main.go":              "x",
		"go.mod":               "x",
		"debug.log":            "x",
		"keep.log":             "x",
		"build/out.bin":        "x",
		"agent/loop.go":        "x",
		"agent/stream/sse.go":  "x",
		"agent/stream/deep/x":  "x",
		"agent/.gitignore":     "secret.go\n",
		"agent/secret.go":      "x",
		"zeta/":                "",
		"tools/tool.go":        "x",
		"tools/testdata/a.txt": "x",
	})
	opts := Options{Root: root}
	tests := []struct {
		name   string
		args   string
		want   string
		isErr  bool
		substr bool
	}{
		{"defaults", `{}`, `./
  agent/
    stream/
    .gitignore
    loop.go
  tools/
    testdata/
    tool.go
  zeta/
  .gitignore
  go.mod
  keep.log
  main.go`, false, false},
		{"depth 1", `{"max_depth": 1}`, `./
  agent/
  tools/
  zeta/
  .gitignore
  go.mod
  keep.log
  main.go`, false, false},
		{"subdirectory deeper", `{"path": "agent", "max_depth": 5}`, `agent/
  stream/
    deep/
      x
    sse.go
  .gitignore
  loop.go`, false, false},
		{"empty directory", `{"path": "zeta"}`, "zeta/\n  (empty directory)", false, false},
		{"explicitly asked ignored directory", `{"path": "build"}`, "build/\n  out.bin", false, false},
		{"absolute path", fmt.Sprintf(`{"path": %q}`, filepath.ToSlash(filepath.Join(root, "tools"))), "tools/\n  testdata/\n    a.txt\n  tool.go", false, false},
		{"file", `{"path": "main.go"}`, "main.go is a file, not a directory; use read_file", true, true},
		{"missing", `{"path": "agnet"}`, "directory not found: agnet. Similar names in ./: agent/", true, true},
		{"missing parent", `{"path": "nope/deeper"}`, "does not exist either", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, opts, "tree_view", tt.args)
			if res.IsError != tt.isErr {
				t.Errorf("IsError = %v, want %v: %s", res.IsError, tt.isErr, res.Content)
			}
			if tt.substr {
				if !strings.Contains(res.Content, tt.want) {
					t.Errorf("output lacks %q:\n%s", tt.want, res.Content)
				}
				return
			}
			if res.Content != tt.want {
				t.Errorf("output:\n%s\nwant:\n%s", res.Content, tt.want)
			}
		})
	}
}

func TestTreeViewCaps(t *testing.T) {
	root := tempRoot(t)
	files := map[string]string{}
	// 3 directories of 300 files each: 903 entries within depth 2.
	for _, d := range []string{"a", "b", "c"} {
		for i := 0; i < 300; i++ {
			files[fmt.Sprintf("%s/f%03d.txt", d, i)] = "x"
		}
	}
	writeFiles(t, root, files)
	res := run(t, Options{Root: root}, "tree_view", `{}`)
	lines := strings.Split(res.Content, "\n")
	entries := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "  ") && !strings.Contains(l, "more entries") {
			entries++
		}
	}
	if entries != treeMaxEntries {
		t.Errorf("%d entries shown, want the cap %d", entries, treeMaxEntries)
	}
	// Breadth first: the three top-level directories come first, then a/
	// whole (300), then 197 of b/, none of c/.
	if w := missing(res.Content,
		"  a/\n    f000.txt", "    f299.txt\n  b/\n    f000.txt", "    f196.txt\n    … 103 more entries\n  c/\n    … 300 more entries",
		"[500 entries shown, 403 left out (limit 500). Call tree_view on a subdirectory, or with a smaller max_depth, to see the rest.]"); w != "" {
		t.Errorf("capped output lacks %q:\n…%s", w, res.Content[len(res.Content)-400:])
	}
}

func TestTreeViewCancelled(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{"a/b": "x"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := decode(t, Options{Root: root}, "tree_view", `{}`).Run(ctx)
	if err != context.Canceled {
		t.Fatalf("Run with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestTreeViewSummaryAndAccess(t *testing.T) {
	root := tempRoot(t)
	opts := Options{Root: root}
	c := decode(t, opts, "tree_view", `{"path": "agent", "max_depth": 3}`)
	if got := c.Summary(); got != "tree_view agent (depth 3)" {
		t.Errorf("Summary = %q", got)
	}
	if got := c.Access(); len(got.Reads) != 1 || got.Reads[0] != filepath.Join(root, "agent") || got.Writes != nil {
		t.Errorf("Access = %+v", got)
	}
}
