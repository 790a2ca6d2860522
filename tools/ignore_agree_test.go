package tools_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"pincer/checkpoint"
	"pincer/tools"
)

// TestCheckpointsIgnoreWhatTheTreeIgnores: a checkpoint records exactly the
// files the tree (and every file tool) shows, for the patterns where
// matchers are known to disagree with git: a negated class, "abc/**" with
// a re-included file below it, and ordinary rules in nested files. A file
// the tree hides but a checkpoint records (or the other way round) would
// be rewound although the person never saw it.
func TestCheckpointsIgnoreWhatTheTreeIgnores(t *testing.T) {
	tests := []struct {
		name   string
		ignore string
		files  []string
		shown  []string // what git (and so the tree) shows, .gitignore aside
	}{
		{"negated class", "[!abc].txt\n", []string{"a.txt", "b.txt", "d.txt", "sub/e.txt"}, []string{"a.txt", "b.txt"}},
		{"double star below a directory", "abc/**\n!abc/keep\n", []string{"abc/keep", "abc/drop", "abc/x/y", "other"}, []string{"abc/keep", "other"}},
		{"anchored and directory-only", "/build\nlogs/\n*.tmp\n!keep.tmp\n", []string{"build/a", "src/build/b", "logs/x", "keep.tmp", "a.tmp", "src/c.tmp"}, []string{"keep.tmp", "src/build/b"}},
		{"escaped and bracketed", "\\#hash\n[a-c]x\n", []string{"#hash", "bx", "dx"}, []string{"dx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write := func(rel, text string) {
				p := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(".gitignore", tt.ignore)
			store, err := checkpoint.Open(filepath.Join(t.TempDir(), "cp"), root, checkpoint.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			ctx := context.Background()
			before, err := store.Snapshot(ctx, "only the ignore file")
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range tt.files {
				write(f, f)
			}
			after, err := store.Snapshot(ctx, "with the files")
			if err != nil {
				t.Fatal(err)
			}
			changes, err := store.Changes(ctx, before.ID, after.ID)
			if err != nil {
				t.Fatal(err)
			}
			recorded := []string{}
			for _, c := range changes {
				recorded = append(recorded, c.Path)
			}
			shown := []string{}
			err = tools.WalkFiles(ctx, root, 0, func(rel string) error {
				if rel != ".gitignore" {
					shown = append(shown, rel)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(shown)
			want := append([]string(nil), tt.shown...)
			sort.Strings(want)
			if !reflect.DeepEqual(shown, want) {
				t.Fatalf("the tree shows %q, git shows %q", shown, want)
			}
			if !reflect.DeepEqual(recorded, shown) {
				t.Errorf("a checkpoint records %q, the tree shows %q", recorded, shown)
			}
		})
	}
}
