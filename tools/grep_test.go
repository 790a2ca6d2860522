package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/safety"
)

// grepArgsJSON builds grep arguments as JSON.
func grepArgsJSON(pattern, path, glob string) string {
	b, _ := json.Marshal(grepArgs{Pattern: pattern, Path: path, Glob: glob})
	return string(b)
}

func TestGrep(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{
		".gitignore":         "*.log\nvendor/\n",
		".git/objects/x":     "TODO in git",
		"main.go":            "package main\n\n// TODO: wire flags\nfunc main() {}\n",
		"agent/loop.go":      "package agent\n\nfunc Run() {} // todo later\n",
		"agent/loop_test.go": "package agent\n// TODO test\n",
		"agent/.gitignore":   "gen.go\n",
		"agent/gen.go":       "// TODO generated\n",
		"docs/notes.md":      "TODO: docs\n",
		"debug.log":          "TODO in log\n",
		"vendor/lib/lib.go":  "// TODO vendored\n",
		"bin/tool":           "TODO\x00binary",
		"win.txt":            "first\r\nTODO end\r\n",
		"long.txt":           "TODO " + strings.Repeat("z", 1000) + "\n",
	})
	tests := []struct {
		name  string
		args  string
		want  string
		isErr bool
		sub   bool
	}{
		{"recursive, ignored and binary skipped", grepArgsJSON("TODO", "", ""),
			"agent/loop_test.go:2:// TODO test\ndocs/notes.md:1:TODO: docs\nlong.txt:1:TODO " + strings.Repeat("z", 295) + "… [line cut: 705 more bytes]\nmain.go:3:// TODO: wire flags\nwin.txt:2:TODO end", false, false},
		{"case-insensitive", grepArgsJSON("(?i)todo later", "", ""), "agent/loop.go:3:func Run() {} // todo later", false, false},
		{"glob on the name", grepArgsJSON("TODO", "", "*.go"), "agent/loop_test.go:2:// TODO test\nmain.go:3:// TODO: wire flags", false, false},
		{"glob on the path", grepArgsJSON("TODO", "", "agent/**/*_test.go"), "agent/loop_test.go:2:// TODO test", false, false},
		{"subdirectory", grepArgsJSON("package", "agent", ""), "agent/loop.go:1:package agent\nagent/loop_test.go:1:package agent", false, false},
		{"single file", grepArgsJSON("func", "main.go", ""), "main.go:4:func main() {}", false, false},
		{"explicit ignored file is searched", grepArgsJSON("TODO", "debug.log", ""), "debug.log:1:TODO in log", false, false},
		{"line anchors", grepArgsJSON("^package main$", "", ""), "main.go:1:package main", false, false},
		{"dollar anchor in CRLF file", grepArgsJSON("end$", "", ""), "win.txt:2:TODO end", false, false},
		{"no match", grepArgsJSON("NOPE", "agent", "*.go"), `No matches for "NOPE" in agent (files matching *.go); 2 files searched.`, false, false},
		{"missing path", grepArgsJSON("x", "agnt", ""), "path not found: agnt. Similar names in ./: agent/", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, Options{Root: root}, "grep", tt.args)
			if res.IsError != tt.isErr {
				t.Errorf("IsError = %v, want %v: %s", res.IsError, tt.isErr, res.Content)
			}
			if tt.sub && !strings.Contains(res.Content, tt.want) || !tt.sub && res.Content != tt.want {
				t.Errorf("result:\n%s\nwant:\n%s", res.Content, tt.want)
			}
		})
	}
}

func TestGrepCaps(t *testing.T) {
	root := tempRoot(t)
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "match %d\n", i)
	}
	writeFiles(t, root, map[string]string{"a.txt": b.String(), "b.txt": "match b\n"})
	res := run(t, Options{Root: root}, "grep", grepArgsJSON("match", "", ""))
	if n := strings.Count(res.Content, "\n"+"a.txt:") + 1; n != grepMaxMatches {
		t.Errorf("%d matches shown, want %d", n, grepMaxMatches)
	}
	if w := missing(res.Content, "a.txt:200:match 200\n", "[200 of 301 matching lines (in 2 files) shown; narrow the pattern, path or glob to see the rest]"); w != "" {
		t.Errorf("result lacks %q:\n…%s", w, res.Content[len(res.Content)-300:])
	}
	small := run(t, Options{Root: root, MaxOutput: 1000}, "grep", grepArgsJSON("match", "", ""))
	if len(small.Content) > 1000 || !strings.Contains(small.Content, "cut from the middle") {
		t.Errorf("byte cap not applied: %d bytes", len(small.Content))
	}
}

func TestGrepSkipsHugeFiles(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{"small.txt": "needle\n"})
	f, err := os.Create(filepath.Join(root, "huge.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(grepMaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	res := run(t, Options{Root: root}, "grep", grepArgsJSON("needle", "", ""))
	if res.Content != "small.txt:1:needle\n\n[1 file over 10 MiB not searched]" {
		t.Errorf("result = %q", res.Content)
	}
}

func TestGrepCancelled(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{"a/b.txt": "x"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := decode(t, Options{Root: root}, "grep", grepArgsJSON("x", "", "")).Run(ctx); err != context.Canceled {
		t.Fatalf("Run with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestGrepSummary(t *testing.T) {
	root := tempRoot(t)
	c := decode(t, Options{Root: root}, "grep", grepArgsJSON(`func \w+`, "agent", "*.go"))
	if got := c.Summary(); got != `grep "func \\w+" in agent (*.go)` {
		t.Errorf("Summary = %q", got)
	}
	if got := c.Access().Reads; len(got) != 1 || got[0] != filepath.Join(root, "agent") {
		t.Errorf("Access().Reads = %v", got)
	}
}

// BenchmarkGrep searches 3000 files of 200 lines each (about 12 MB).
func BenchmarkGrep(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	var content strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&content, "\tresult%d, err := service.Handle(ctx, request%d) // line %d\n", i, i, i)
	}
	for d := 0; d < 30; d++ {
		dir := filepath.Join(root, fmt.Sprintf("pkg%02d", d))
		os.MkdirAll(dir, 0o755)
		for f := 0; f < 100; f++ {
			text := content.String()
			if f == 50 {
				text += "\t// FIXME: the needle\n"
			}
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%03d.go", f)), []byte(text), 0o644)
		}
	}
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.tmp\nbuild/\n"), 0o644)
	tool := builtin(b, Options{Root: root}, "grep")
	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		b.Fatal(err)
	}
	policy := func(scope, p string, head []byte) string {
		if v := cls.Path(safety.PathAccess{Root: scope, Path: p, ByName: head == nil, Head: head}); v.Tier != safety.Safe {
			return v.Reasons[0]
		}
		return ""
	}
	judged := builtin(b, Options{Root: root, ReadCheck: policy}, "grep")
	for _, bc := range []struct {
		name, pattern string
		tool          Tool
	}{
		{"literal", "FIXME", tool},
		{"literal-policy", "FIXME", judged},
		{"regexp", `FIX[M]E:\s+\w+`, tool},
		{"many-matches", `request1\d\)`, tool},
	} {
		b.Run(bc.name, func(b *testing.B) {
			call, err := bc.tool.Decode(grepArgsJSON(bc.pattern, "", ""))
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				res, err := call.Run(context.Background())
				if err != nil || res.IsError || res.Content == "" {
					b.Fatalf("grep failed: %v %s", err, res.Content)
				}
			}
		})
	}
}
