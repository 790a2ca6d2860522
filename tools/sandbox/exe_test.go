//go:build !windows

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckExecutable(t *testing.T) {
	base := t.TempDir()
	mk := func(dir string, mode os.FileMode) string {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "pincer")
		if err := os.WriteFile(p, []byte("bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	own := mk(filepath.Join(base, "own"), 0o755)
	open := mk(filepath.Join(base, "open"), 0o777)
	sticky := mk(filepath.Join(base, "sticky"), 0o777|os.ModeSticky)
	below := mk(filepath.Join(base, "sticky2", "mine"), 0o755)
	if err := os.Chmod(filepath.Join(base, "sticky2"), 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	writable := mk(filepath.Join(base, "w"), 0o755)
	if err := os.Chmod(writable, 0o777); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "own", "link")
	if err := os.Symlink(open, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string // want: a part of the error, "" none
	}{
		{"a directory of one's own", own, ""},
		{"a directory every user may write", open, "every user may write " + filepath.Dir(open)},
		{"right in a sticky one, as /tmp/pincer", sticky, "every user may write " + filepath.Dir(sticky)},
		{"one's own directory below a sticky one, as /tmp/me/pincer", below, ""},
		{"a file every user may write", writable, "every user may write the file"},
		{"a link to a bad place is judged where it leads", link, "every user may write " + filepath.Dir(open)},
		{"gone", filepath.Join(base, "gone"), ""},
	}
	for _, tt := range tests {
		err := CheckExecutable(tt.path)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "~/.local/bin")):
			t.Errorf("%s: err = %v, want it to say %q and where to move it", tt.name, err, tt.want)
		}
	}
}
