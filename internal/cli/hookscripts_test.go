package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"pincer/hooks"
)

// TestHookScriptsNamesTheProjectFilesHooksRun checks which files of the
// project the hooks' commands run, so the model cannot change them: paths
// relative to the project, through its directory variable, as an
// interpreter's argument; not what lies outside the project, options or
// words that name no file.
func TestHookScriptsNamesTheProjectFilesHooksRun(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"scripts/format.sh", "hooks/check.py", "lint.sh", "notes.txt"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(t.TempDir(), "outside.sh")
	if err := os.WriteFile(outside, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cmd  string
		want []string // relative to root
	}{
		{"./scripts/format.sh", []string{"scripts/format.sh"}},
		{`"$PINCER_PROJECT_DIR"/hooks/check.py --fix`, []string{"hooks/check.py"}},
		{"python3 ${CLAUDE_PROJECT_DIR}/hooks/check.py", []string{"hooks/check.py"}},
		{"sh lint.sh && ./scripts/format.sh", []string{"lint.sh", "scripts/format.sh"}},
		{"cat notes.txt | wc -l", []string{"notes.txt"}},
		{outside, nil},
		{"notify-send done", nil},
		{"./missing.sh", nil},
	}
	for _, tc := range cases {
		got := hookScripts([]hooks.Hook{{Event: hooks.Stop, Command: tc.cmd}}, root)
		var want []string
		for _, w := range tc.want {
			want = append(want, filepath.Join(root, w))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", tc.cmd, got, want)
		}
	}
}
