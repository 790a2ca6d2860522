package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// goplsPath finds gopls for the tests with the real server: on PATH, or
// in $(go env GOPATH)/bin where .ci/run installs it. Under CI it must be
// there.
func goplsPath(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", "gopls")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("gopls is not installed; .ci/run installs golang.org/x/tools/gopls")
	}
	t.Skip("gopls is not installed (go install golang.org/x/tools/gopls@v0.23.0)")
	return ""
}

// goProject writes a small module and returns its root.
func goProject(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	write(t, filepath.Join(root, "go.mod"), "module example.com/demo\n\ngo 1.22\n")
	write(t, filepath.Join(root, "main.go"), "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(greeting())\n}\n")
	write(t, filepath.Join(root, "greet.go"), "package main\n\nfunc greeting() string {\n\treturn \"hello\"\n}\n")
	return root
}

func goplsManager(t testing.TB, root string) *Manager {
	t.Helper()
	gopls := goplsPath(t)
	m := New(Options{Root: root, Servers: map[string]ServerConfig{"go": {Command: gopls, Extensions: []string{".go"}}}, Wait: 60 * time.Second})
	t.Cleanup(m.Close)
	return m
}

func TestGoplsTypeErrorAndFix(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts gopls")
	}
	root := goProject(t)
	m := goplsManager(t, root)
	greet := filepath.Join(root, "greet.go")
	m.Touch(greet)

	// The edit returns an int where a string is wanted.
	rep := edit(t, m, greet, "package main\n\nfunc greeting() string {\n\treturn 42\n}\n")
	if rep.Errors != 1 || rep.New != 1 || len(rep.Pending) > 0 {
		t.Fatalf("report %+v", rep)
	}
	text := rep.Text(0)
	if !strings.Contains(text, "greet.go:4:9: error: ") || !strings.Contains(text, "[new]") || !strings.Contains(text, "(gopls)") {
		t.Errorf("the model reads:\n%s", text)
	}
	if rep.Total != 1 {
		t.Errorf("total %d", rep.Total)
	}

	// A caller broken in another file is reported too.
	rep = edit(t, m, greet, "package main\n\nfunc greeting(name string) string {\n\treturn name\n}\n")
	// gopls may publish the caller's file after the edited one: the
	// report names it, or the manager learns of it shortly after.
	if !strings.Contains(rep.Text(0), "main.go:6:") {
		deadline := time.Now().Add(20 * time.Second)
		for m.Problems()["main.go"] == 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if m.Problems()["main.go"] == 0 {
			t.Errorf("the broken caller is missing:\n%s\nproblems: %v", rep.Text(0), m.Problems())
		}
	}

	rep = edit(t, m, greet, "package main\n\nfunc greeting() string {\n\treturn \"hi\"\n}\n")
	if rep.Errors != 0 || len(rep.Pending) > 0 {
		t.Fatalf("after the fix: %+v", rep)
	}
	// The caller's error went away in a file pincer never changed.
	deadline := time.Now().Add(20 * time.Second)
	for m.TotalErrors() != 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := m.TotalErrors(); n != 0 {
		t.Errorf("total %d after the fix: %v", n, m.Problems())
	}
}

// TestGoplsSeesAFileACommandWrote: a command (not pincer's edit) writes a
// new file with a type error; the refresh after it reports the error.
func TestGoplsSeesAFileACommandWrote(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts gopls")
	}
	root := goProject(t)
	m := goplsManager(t, root)
	greet := filepath.Join(root, "greet.go")
	if rep := edit(t, m, greet, "package main\n\nfunc greeting() string {\n\treturn \"hi\"\n}\n"); rep.Errors != 0 {
		t.Fatalf("a clean edit: %+v", rep)
	}
	sl := m.slots["go"]
	waitFor(t, "the files on disk to be recorded", func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return sl.disk != nil
	})
	write(t, filepath.Join(root, "extra.go"), "package main\n\nvar count int = \"three\"\n")
	rep := m.Refresh(context.Background())
	if !strings.Contains(rep.Text(0), "extra.go:3:") || rep.Errors != 1 {
		t.Errorf("the command's file was not reported:\n%s\n%+v", rep.Text(0), rep)
	}
}
