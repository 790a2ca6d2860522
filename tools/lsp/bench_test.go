package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkNoServer is what a tool call costs the manager when no server
// runs for its files: a file of no language, one whose server's program
// is missing, and the refresh after a command.
func BenchmarkNoServer(b *testing.B) {
	root := b.TempDir()
	m := New(Options{Root: root, Servers: Merge(Defaults(), map[string]ServerConfig{"go": {Command: "no-such-gopls-xyz"}})})
	defer m.Close()
	md, goFile := filepath.Join(root, "README.md"), filepath.Join(root, "main.go")
	ctx := context.Background()
	m.AfterChange(ctx, []string{goFile}) // finds the program missing once
	b.Run("other-language", func(b *testing.B) {
		paths := []string{md}
		b.ReportAllocs()
		for b.Loop() {
			m.Touch(md)
			m.AfterChange(ctx, paths)
		}
	})
	b.Run("server-missing", func(b *testing.B) {
		paths := []string{goFile}
		b.ReportAllocs()
		for b.Loop() {
			m.Touch(goFile)
			m.AfterChange(ctx, paths)
		}
	})
	b.Run("refresh-after-command", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Refresh(ctx)
		}
	})
}

// BenchmarkGoplsEditToDiagnostics is the time from an edit written to
// disk to gopls's diagnostics for it, alternating a type error and its
// fix in a small module.
func BenchmarkGoplsEditToDiagnostics(b *testing.B) {
	root := goProject(b)
	m := goplsManager(b, root)
	greet := filepath.Join(root, "greet.go")
	ctx := context.Background()
	bodies := []string{
		"package main\n\nfunc greeting() string {\n\treturn 42\n}\n",
		"package main\n\nfunc greeting() string {\n\treturn \"hello\"\n}\n",
	}
	// Warm up: the first report waits for gopls to load the module.
	if rep := m.AfterChange(ctx, []string{greet}); !rep.Checked() {
		b.Fatalf("gopls did not answer: %+v", rep)
	}
	i := 0
	for b.Loop() {
		before, _ := os.ReadFile(greet)
		m.Before(greet, before)
		if err := os.WriteFile(greet, []byte(bodies[i%2]), 0o644); err != nil {
			b.Fatal(err)
		}
		rep := m.AfterChange(ctx, []string{greet})
		if len(rep.Pending) > 0 || rep.Errors != 1-i%2 {
			b.Fatalf("edit %d: %+v", i, rep)
		}
		i++
	}
}

// BenchmarkRefreshComparesDisk is the refresh after a command that
// changed nothing, with a server running in a project of 2,000 of its
// files: the walk that finds what a command created, changed or deleted.
func BenchmarkRefreshComparesDisk(b *testing.B) {
	root := b.TempDir()
	m := New(Options{Root: root, Servers: map[string]ServerConfig{"fake": fakeConfig(b, "normal")}, Wait: 5 * time.Second})
	b.Cleanup(m.Close)
	for i := range 2000 {
		dir := filepath.Join(root, fmt.Sprintf("pkg%02d", i%40))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		write(b, filepath.Join(dir, fmt.Sprintf("f%d.fk", i)), "ok\n")
	}
	first := filepath.Join(root, "pkg00", "f0.fk")
	m.Before(first, []byte("ok\n"))
	m.AfterChange(context.Background(), []string{first})
	sl := m.slots["fake"]
	for deadline := time.Now().Add(10 * time.Second); ; {
		m.mu.Lock()
		done := sl.disk != nil
		m.mu.Unlock()
		if done {
			break
		}
		if time.Now().After(deadline) {
			b.Fatal("the files on disk were never recorded")
		}
		time.Sleep(10 * time.Millisecond)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if rep := m.Refresh(ctx); rep.Checked() {
			b.Fatalf("nothing changed, yet %+v", rep)
		}
	}
}
