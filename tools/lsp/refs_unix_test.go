//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRefsQuoteOnlyProjectFilesThatAreNotSecret: a server's answer may name
// any path; the line beside it is quoted only from a project file that is
// not a secret, and a FIFO it names is not opened (it would hang).
func TestRefsQuoteOnlyProjectFilesThatAreNotSecret(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	write := func(path, text string) string {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	fifo := filepath.Join(root, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	tests := []struct {
		name, path string
		quoted     bool
	}{
		{"project file", write(filepath.Join(root, "main.go"), "package main\nfunc greeting() {}\n"), true},
		{"project secret", write(filepath.Join(root, ".env"), "package main\nAPI_KEY=hunter2\n"), false},
		{"outside the project", write(filepath.Join(outside, "id.go"), "package x\nprivate key\n"), false},
		{"fifo", fifo, false},
	}
	m := New(Options{Root: root})
	srv := &server{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refs := m.refs(srv, []Location{{URI: fileURI(tt.path), Range: Range{Start: Position{Line: 1}}}})
			if len(refs) != 1 {
				t.Fatalf("refs %+v", refs)
			}
			if got := refs[0].Text != ""; got != tt.quoted {
				t.Errorf("quoted %q, want quoted=%v", refs[0].Text, tt.quoted)
			}
		})
	}
}
