package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// spec describes files to create: path → content; a content starting with
// "->" makes a symlink to the rest; a path ending in "*" makes the file
// executable (the "*" is not part of the name); a path ending in "/" makes
// an empty directory.
type spec map[string]string

// build creates the files of sp under root.
func build(t testing.TB, root string, sp spec) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(sp)) {
		content := sp[name]
		exec := strings.HasSuffix(name, "*")
		name = strings.TrimSuffix(name, "*")
		full := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		os.Remove(full)
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		mode := fs.FileMode(0o644)
		if exec {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(full, mode); err != nil {
			t.Fatal(err)
		}
	}
}

// state reads the tree under root back (without .git) in the notation of
// spec, directories included as "dir/" so that leftovers show.
func state(t testing.TB, root string) spec {
	t.Helper()
	out := spec{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			out[rel+"/"] = ""
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[rel] = "->" + target
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if info.Mode()&0o100 != 0 {
				rel += "*"
			}
			out[rel] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diffSpec describes how got differs from want, "" when equal.
func diffSpec(want, got spec) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if g, ok := got[k]; !ok {
			fmt.Fprintf(&b, "missing %s\n", k)
		} else if g != want[k] {
			fmt.Fprintf(&b, "%s: got %q, want %q\n", k, g, want[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			fmt.Fprintf(&b, "unexpected %s\n", k)
		}
	}
	return b.String()
}

// newStore makes a project with files sp and a store for it.
func newStore(t testing.TB, sp spec, opts Options) (*Store, string) {
	t.Helper()
	root := t.TempDir()
	build(t, root, sp)
	s, err := Open(filepath.Join(t.TempDir(), "cp"), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, root
}

// snap takes a snapshot or fails the test.
func snap(t testing.TB, s *Store) Snapshot {
	t.Helper()
	sn, err := s.Snapshot(context.Background(), "test")
	if err != nil {
		t.Fatal(err)
	}
	return sn
}

// hashDir hashes every path, mode and content (or link target) under dir.
func hashDir(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%v\x00", p, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			fmt.Fprintf(h, "%s\x00", target)
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(data)
			fmt.Fprintf(h, "\x00%d\x00", info.ModTime().UnixNano())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// age sets every file's times under root an hour back, so that the stat
// cache treats them as settled rather than racily clean.
func age(t testing.TB, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink == 0 {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}
