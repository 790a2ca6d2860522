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
	for d := 0; d < 500; d++ {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", d/50), fmt.Sprintf("sub%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := 0; f < 100; f++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.go", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
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
