package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	for _, content := range []string{"first\n", "second\n"} {
		if err := Write(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(p); string(got) != content {
			t.Errorf("content %q, want %q", got, content)
		}
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if err := Write(filepath.Join(dir, "missing", "f"), []byte("x"), 0o600); err == nil {
		t.Error("a write into a missing directory succeeded")
	}
	assertOnly(t, dir, "f.txt")
}

func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "PLAN.md")
	if err := WriteNew(p, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(p, []byte("two\n"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second WriteNew: %v, want fs.ErrExist", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "one\n" {
		t.Errorf("content %q, want the first write kept", got)
	}
	assertOnly(t, dir, "PLAN.md")
}

// assertOnly fails when dir holds anything but want (a temporary file
// left behind).
func assertOnly(t *testing.T, dir, want string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != want {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("the directory holds %v, want only %s", names, want)
	}
}
