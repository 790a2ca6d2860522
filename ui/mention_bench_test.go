package ui

import (
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"pincer/ui/complete"
)

// projectPaths is n paths of a made-up large project, in folders one to
// seven deep, with main.go and go.mod at the root.
func projectPaths(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	dirs := []string{"internal", "pkg", "cmd", "api", "server", "client", "util", "handlers", "models",
		"store", "config", "auth", "http", "grpc", "testdata", "web", "src", "components", "lib", "vendor"}
	words := []string{"user", "session", "handler", "router", "cache", "token", "index", "service",
		"repo", "query", "event", "stream", "buffer", "parser", "lexer", "render", "view", "model"}
	exts := []string{".go", "_test.go", ".ts", ".tsx", ".md", ".json", ".yaml", ".py"}
	seen := map[string]bool{"main.go": true, "go.mod": true}
	out := []string{"main.go", "go.mod"}
	for len(out) < n {
		parts := make([]string, 0, 8)
		for range 1 + rng.IntN(6) {
			parts = append(parts, dirs[rng.IntN(len(dirs))])
		}
		name := words[rng.IntN(len(words))]
		if rng.IntN(2) == 0 {
			name += "_" + words[rng.IntN(len(words))]
		}
		p := strings.Join(append(parts, name+exts[rng.IntN(len(exts))]), "/")
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// mentionApp is the screen at 160×45 with the files of a 50,000-file
// project loaded for @ completion, as LoadFiles hands them over.
func mentionApp(tb testing.TB, n int) *App {
	a := newTestApp(&testing.T{}, 160, 45)
	items := make([]complete.Item, 0, n)
	for _, p := range projectPaths(n, 1) {
		items = append(items, complete.Item{Value: p})
	}
	a.Update(complete.FilesMsg{Items: items, Index: complete.NewIndex(items)})
	return a
}

// BenchmarkMentionKeystroke50k is a keystroke after "@" in a project of
// 50,000 files, up to the frame that shows the popup: the key handled
// (the files ranked for the new query) and the screen drawn. "first" is
// the key after "@" (every file is ranked), "narrow" a later key (only
// what the last query matched).
func BenchmarkMentionKeystroke50k(b *testing.B) {
	for _, c := range []struct{ name, before, key string }{
		{"first", "fix @", "h"},
		{"narrow", "fix @hand", "l"},
		{"path", "fix @internal/au", "t"},
	} {
		b.Run(c.name, func(b *testing.B) {
			a := mentionApp(b, 50000)
			for b.Loop() {
				b.StopTimer()
				a.setInput("", -1)
				a.closePopups()
				typeText(a, c.before)
				b.StartTimer()
				a.Update(tea.KeyPressMsg{Code: rune(c.key[0]), Text: c.key})
				_ = a.render()
			}
			if !a.files.Visible() {
				b.Fatal("no popup")
			}
		})
	}
}

// TestMentionsAmong50000Files: with the files of a 50,000-file project
// loaded, "@main" offers main.go at the root first, a file deep down is
// found by its path, and the list is not said to be partial.
func TestMentionsAmong50000Files(t *testing.T) {
	a := mentionApp(t, 50000)
	typeText(a, "look at @main")
	if it, _ := a.files.Selected(); it.Value != "main.go" {
		t.Errorf("@main selects %q, want main.go:\n%s", it.Value, screen(a))
	}
	deepest := "main.go"
	for _, p := range projectPaths(50000, 1) {
		if strings.Count(p, "/") > strings.Count(deepest, "/") {
			deepest = p
		}
	}
	a.setInput("", -1)
	typeText(a, "@"+deepest)
	if it, _ := a.files.Selected(); it.Value != deepest {
		t.Errorf("@%s selects %q", deepest, it.Value)
	}
	if s := screen(a); strings.Contains(s, "only the first") {
		t.Errorf("a project of 50,000 files is said to be partial:\n%s", s)
	}
	checkShape(t, a)
}
