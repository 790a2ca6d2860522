//go:build !windows

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSaveUserModes(t *testing.T) {
	w := newWorld(t)
	path := UserConfigPath(w.env.get)
	if err := SaveUser(path, func(f *FileConfig) { f.APIKey = Ptr("sk-1") }); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s mode = %o, want %o", p, got, want)
		}
	}
	// An existing file readable by others becomes private when rewritten.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SaveUser(path, func(f *FileConfig) { f.Theme = Ptr("dark") }); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("rewritten mode = %o, want 600", info.Mode().Perm())
	}
}

func TestSaveUserThroughSymlink(t *testing.T) {
	w := newWorld(t)
	real := filepath.Join(w.home, "dotfiles", "pincer.json")
	writeFile(t, real, `{"theme": "dark"}`)
	if err := os.MkdirAll(filepath.Dir(w.userPath()), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, w.userPath()); err != nil {
		t.Fatal(err)
	}
	if err := SaveUser(w.userPath(), func(f *FileConfig) { f.Model = Ptr("m") }); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(w.userPath()); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", info, err)
	}
	got, _ := os.ReadFile(real)
	if !strings.Contains(string(got), `"model": "m"`) || !strings.Contains(string(got), `"theme": "dark"`) {
		t.Errorf("target = %s", got)
	}
}
