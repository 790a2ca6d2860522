package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// globArgsJSON builds glob arguments as JSON.
func globArgsJSON(pattern string) string {
	b, _ := json.Marshal(globArgs{Pattern: pattern})
	return string(b)
}

func TestGlob(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{
		".gitignore":            "*.gen.go\n/out/\n",
		".git/x.go":             "",
		"main.go":               "",
		"agent/loop.go":         "",
		"agent/loop_test.go":    "",
		"agent/api.gen.go":      "",
		"agent/deep/x/y.go":     "",
		"agent/deep/.gitignore": "y.go\n!keep.go\n",
		"agent/deep/keep.go":    "",
		"out/build.go":          "",
		"cmd/pincer/main.go":    "",
		"README.md":             "",
		"docs/a.md":             "",
	})
	tests := []struct {
		name    string
		pattern string
		want    string
		isErr   bool
	}{
		{"all go files", "**/*.go", "agent/deep/keep.go\nagent/loop.go\nagent/loop_test.go\ncmd/pincer/main.go\nmain.go", false},
		{"top level only", "*.go", "main.go", false},
		{"in a directory", "agent/*.go", "agent/loop.go\nagent/loop_test.go", false},
		{"wildcard directory", "cmd/*/main.go", "cmd/pincer/main.go", false},
		{"alternatives", "**/*.{md,mod}", "README.md\ndocs/a.md", false},
		{"tests", "**/*_test.go", "agent/loop_test.go", false},
		{"dot slash", "./agent/*_test.go", "agent/loop_test.go", false},
		{"absolute", filepath.ToSlash(root) + "/docs/*.md", "docs/a.md", false},
		{"no wildcard", "main.go", "main.go", false},
		{"ignored directory named explicitly", "out/*.go", "out/build.go", false},
		{"no match", "**/*.rs", `No files match "**/*.rs" (ignored files are not searched).`, false},
		{"missing base", "nope/**/*.go", "directory not found: nope", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, Options{Root: root}, "glob", globArgsJSON(tt.pattern))
			if res.IsError != tt.isErr {
				t.Errorf("IsError = %v, want %v: %s", res.IsError, tt.isErr, res.Content)
			}
			if tt.isErr && !strings.HasPrefix(res.Content, tt.want) || !tt.isErr && res.Content != tt.want {
				t.Errorf("result:\n%s\nwant:\n%s", res.Content, tt.want)
			}
		})
	}
}

func TestGlobCap(t *testing.T) {
	root := tempRoot(t)
	files := map[string]string{}
	for i := 0; i < globMaxResults+20; i++ {
		files[fmt.Sprintf("d/f%04d.txt", i)] = ""
	}
	writeFiles(t, root, files)
	res := run(t, Options{Root: root}, "glob", globArgsJSON("**/*.txt"))
	lines := strings.Split(res.Content, "\n")
	if lines[0] != "d/f0000.txt" || lines[globMaxResults-1] != "d/f0499.txt" {
		t.Errorf("first/last shown = %s / %s", lines[0], lines[globMaxResults-1])
	}
	if !strings.HasSuffix(res.Content, "\n\n[500 of 520 matching files shown; use a more specific pattern to see the rest]") {
		t.Errorf("cap note missing: …%s", res.Content[len(res.Content)-100:])
	}
}

func TestGlobAccessAndCancel(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{"src/a.go": ""})
	c := decode(t, Options{Root: root}, "glob", globArgsJSON("src/**/*.go"))
	if got := c.Access().Reads; len(got) != 1 || got[0] != filepath.Join(root, "src") {
		t.Errorf("Access().Reads = %v, want the walked directory", got)
	}
	if c.Summary() != "glob src/**/*.go" {
		t.Errorf("Summary = %q", c.Summary())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Run(ctx); err != context.Canceled {
		t.Fatalf("Run with a cancelled context = %v, want context.Canceled", err)
	}
}
