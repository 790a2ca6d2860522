package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"pincer/safety"
)

// TestDiskFilesSpelling checks the view the classifier gets of the disk:
// listings in the project and the home directory, and links spelled back
// the classifier's way, so that a link in the project to a key is seen as
// the key.
func TestDiskFilesSpelling(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	root, home := t.TempDir(), t.TempDir()
	for _, f := range []string{"main.go", "src/a.go", ".env"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(root, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	d := newDiskFiles(root, home)
	names := func(dir string) string {
		es, err := d.ReadDir(dir)
		if err != nil {
			return "error: " + err.Error()
		}
		var out []string
		for _, e := range es {
			out = append(out, e.Name())
		}
		return strings.Join(out, " ")
	}
	if got := names("."); got != ".env main.go notes.txt src" {
		t.Errorf("ReadDir(.) = %q", got)
	}
	if got := names("src"); got != "a.go" {
		t.Errorf("ReadDir(src) = %q", got)
	}
	if got := names("~/.ssh"); got != "id_rsa" {
		t.Errorf("ReadDir(~/.ssh) = %q", got)
	}
	if got, err := d.EvalSymlinks("notes.txt"); err != nil || got != "~/.ssh/id_rsa" {
		t.Errorf("EvalSymlinks(notes.txt) = %q, %v; want ~/.ssh/id_rsa", got, err)
	}
	if got, err := d.EvalSymlinks("src/a.go"); err != nil || got != "src/a.go" {
		t.Errorf("EvalSymlinks(src/a.go) = %q, %v", got, err)
	}
	if _, err := (diskFiles{root: root}).ReadDir("~"); err == nil {
		t.Error("ReadDir(~) without a home directory did not fail")
	}

	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	cls = cls.WithFiles(d)
	for cmd, want := range map[string]safety.Tier{
		"cat main.go":    safety.Safe,
		"cat notes.txt":  safety.Confirm, // a link to a key
		"cat *.go":       safety.Safe,
		"cat *":          safety.Confirm, // notes.txt
		"grep -rn x src": safety.Safe,
		"grep -rn x .":   safety.Confirm, // .env
	} {
		if v := cls.Classify(cmd); v.Tier != want {
			t.Errorf("%q on disk: %v, want %v (%q)", cmd, v.Tier, want, v.Reasons)
		}
	}
}
