//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkGitPlaces: listing the git dirs of a project of 50,000 files
// in 500 directories, as run_command does before and after each command
// that runs unasked and may write the project: by walking it (what a jail
// that masks no secrets leaves), and from the launcher's scan of it, which
// reads again only what changed.
func BenchmarkGitPlaces(b *testing.B) {
	root := b.TempDir()
	writeTree(b, root, 500, 100, 50)
	if err := os.MkdirAll(filepath.Join(root, ".git", "objects"), 0o755); err != nil {
		b.Fatal(err)
	}
	b.Run("walk", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			GitPlaces(root)
		}
	})
	b.Run("scan", func(b *testing.B) {
		l := NewLauncher("/nonexistent", Spec{Root: root, SecretRoots: []string{root},
			IsSecret: func(p string, _ bool) bool { return strings.HasSuffix(p, ".env") }})
		defer l.Close()
		l.GitPlaces() // the scan a helper's start makes anyway
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, ok := l.GitPlaces(); !ok {
				b.Fatal("no scan")
			}
		}
	})
}

// writeTree fills root with dirs directories of perDir empty files each,
// group directories to a parent: root/d<n/group>/e<n>/f<i>.go.
func writeTree(tb testing.TB, root string, dirs, perDir, group int) {
	tb.Helper()
	for d := 0; d < dirs; d++ {
		dir := filepath.Join(root, fmt.Sprintf("d%d", d/group), fmt.Sprintf("e%d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		for f := 0; f < perDir; f++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", f)), nil, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
}
