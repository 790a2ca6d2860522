//go:build !windows

package tools

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe must never be opened: reading it would block the call.
func TestSpecialFilesAreNotRead(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{"a.txt": "needle\n"})
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo unavailable: %v", err)
	}
	opts := Options{Root: root}
	tests := []struct {
		tool, args, want string
		isErr            bool
	}{
		{"grep", `{"pattern": "needle"}`, "a.txt:1:needle", false},
		{"grep", `{"pattern": "needle", "path": "pipe"}`, `No matches for "needle" in pipe; 0 files searched.`, false},
		{"read_file", `{"path": "pipe"}`, "pipe is not a regular file", true},
		{"glob", `{"pattern": "*"}`, "a.txt", false},
		{"write_file", `{"path": "pipe", "content": "x"}`, "pipe is not a regular file", true},
		{"edit_file", `{"path": "pipe", "old_text": "a", "new_text": "b"}`, "pipe is not a regular file", true},
	}
	for _, tt := range tests {
		res := run(t, opts, tt.tool, tt.args)
		if res.IsError != tt.isErr || !strings.HasPrefix(res.Content, tt.want) {
			t.Errorf("%s %s = %q (IsError %v), want %q", tt.tool, tt.args, res.Content, res.IsError, tt.want)
		}
	}
}
