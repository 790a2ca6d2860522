//go:build unix

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"pincer/safety"
	"pincer/tools"
	"strings"
	"testing"
)

// Markers that must never reach the model when every approval is refused.
const (
	outsideMark = "OUTSIDE-CONTENT-7f3a"
	homeMark    = "HOME-SECRET-19bc"
	envMark     = "ENV-SECRET-55de"
	hiddenName  = "unlinked-outside-name"
)

// TestFileToolsKeepThePathPolicy is a property test: under random symlink
// layouts (links inside and outside the project, chains, links to
// directories, loops, links to secrets), no file tool — read_file, grep,
// glob, tree_view — returns the content of a file outside the project or a
// secret one, nor the name of a file outside it, unless approved. Every
// approval is refused here.
func TestFileToolsKeepThePathPolicy(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 25
	}
	for seed := 0; seed < seeds; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel() // each seed has its own layout in its own temp dir
			checkLayout(t, rand.New(rand.NewSource(int64(seed))))
		})
	}
}

func checkLayout(t *testing.T, rnd *rand.Rand) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside, home := filepath.Join(base, "proj"), filepath.Join(base, "outside"), filepath.Join(base, "home")
	mk := func(p, content string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk(filepath.Join(root, "main.go"), "package main // project hello\n")
	mk(filepath.Join(root, "sub", "a.txt"), "project hello\n")
	mk(filepath.Join(root, ".env"), "TOKEN="+envMark+"\n")
	mk(filepath.Join(root, "sub", ".env.local"), "TOKEN="+envMark+"\n")
	mk(filepath.Join(outside, "o.txt"), outsideMark+"\n")
	mk(filepath.Join(outside, "dir", "deep.txt"), outsideMark+"\n")
	mk(filepath.Join(outside, hiddenName), outsideMark+"\n")
	mk(filepath.Join(home, ".aws", "credentials"), homeMark+"\n")

	targets := []string{
		filepath.Join(outside, "o.txt"), filepath.Join(outside, "dir"), outside,
		filepath.Join(home, ".aws", "credentials"), filepath.Join(home, ".aws"),
		filepath.Join(root, ".env"), filepath.Join(root, "sub"), filepath.Join(root, "main.go"),
		"../outside/o.txt", "../../outside/dir", "..", ".", "/",
	}
	dirs := []string{root, filepath.Join(root, "sub")}
	var links []string
	n := 3 + rnd.Intn(6)
	for i := 0; i < n; i++ {
		dir := dirs[rnd.Intn(len(dirs))]
		name := filepath.Join(dir, fmt.Sprintf("l%d", i))
		var target string
		switch k := rnd.Intn(10); {
		case k < 6:
			target = targets[rnd.Intn(len(targets))]
		case k < 8 && len(links) > 0: // a chain
			target = links[rnd.Intn(len(links))]
		default: // a loop
			target = name + "x"
			os.Symlink(name, name+"x")
		}
		if err := os.Symlink(target, name); err == nil {
			links = append(links, name)
		}
		if rnd.Intn(3) == 0 { // a link named like a secret
			os.Symlink(target, filepath.Join(dir, fmt.Sprintf(".env.l%d", i)))
		}
	}

	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := tools.NewRegistry(tools.Builtins(tools.Options{
		Root: root, ReadCheck: ReadPolicy(cls, home, safety.OwnFiles{}),
	})...)
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	a, err := New(Options{
		Model: nopModel{}, Tools: reg, Safety: cls, Root: root, Home: home,
		Approver: ApproverFunc(func(context.Context, Approval) (Decision, error) { asked++; return Decision{}, nil }),
	})
	if err != nil {
		t.Fatal(err)
	}

	var calls []ToolCall
	add := func(name string, args map[string]any) {
		raw, _ := json.Marshal(args)
		calls = append(calls, ToolCall{ID: fmt.Sprint(len(calls)), Name: name, Arguments: string(raw)})
	}
	for _, p := range []string{".", "sub"} {
		add("grep", map[string]any{"pattern": ".", "path": p})
		add("grep", map[string]any{"pattern": "SECRET|CONTENT", "path": p})
		add("glob", map[string]any{"pattern": p + "/**"})
		add("tree_view", map[string]any{"path": p, "max_depth": 6})
	}
	add("glob", map[string]any{"pattern": "**/*"})
	for _, l := range links {
		rel, _ := filepath.Rel(root, l)
		add("read_file", map[string]any{"path": rel})
		add("grep", map[string]any{"pattern": ".", "path": rel})
		add("glob", map[string]any{"pattern": rel + "/**"})
		add("tree_view", map[string]any{"path": rel})
	}
	add("read_file", map[string]any{"path": ".env"})
	add("read_file", map[string]any{"path": "../outside/o.txt"})

	for _, tc := range calls {
		r := a.runCall(context.Background(), tc, func(Event) {})
		for _, bad := range []string{outsideMark, homeMark, envMark, hiddenName} {
			if strings.Contains(r.Content, bad) {
				t.Errorf("%s %s returned %q without approval:\n%s", tc.Name, tc.Arguments, bad, r.Content)
			}
		}
	}
	// The project's own files are still found without asking.
	r := a.runCall(context.Background(), ToolCall{ID: "ok", Name: "grep", Arguments: `{"pattern":"project hello"}`}, func(Event) {})
	if !strings.Contains(r.Content, "sub/a.txt") || !strings.Contains(r.Content, "main.go") {
		t.Errorf("grep no longer finds project files:\n%s", r.Content)
	}
}

// nopModel is never asked: the test calls tools directly.
type nopModel struct{ Model }
