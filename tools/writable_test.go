package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/agent/agenttest"
	"strings"
	"syscall"
	"testing"
)

// readOnlyDir makes dir unwritable: by mode, and where the tests run as
// root (whom modes do not stop) by the immutable attribute.
func readOnlyDir(t *testing.T, dir string) {
	t.Helper()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if probe, err := os.CreateTemp(dir, "probe"); err == nil {
		probe.Close()
		os.Remove(probe.Name())
		if err := exec.Command("chattr", "+i", dir).Run(); err != nil {
			agenttest.Missing(t, fmt.Sprintf("cannot make a read-only directory here (running as root, chattr: %v)", err))
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
	}
}

func TestCheckWritable(t *testing.T) {
	root := t.TempDir()
	ro := filepath.Join(root, "ro")
	os.Mkdir(ro, 0o755)
	os.WriteFile(filepath.Join(ro, "old.txt"), []byte("x"), 0o644)
	rw := filepath.Join(root, "rw")
	os.Mkdir(rw, 0o755)
	readOnlyDir(t, ro)

	cases := []struct {
		name, path, rel string
		want            string // "" when writable
	}{
		{"new file in a read-only directory", filepath.Join(ro, "new.txt"), "ro/new.txt", "permission denied: cannot write ro/new.txt"},
		{"existing file in a read-only directory", filepath.Join(ro, "old.txt"), "ro/old.txt", "permission denied: cannot write ro/old.txt"},
		{"new directories under a read-only one", filepath.Join(ro, "a", "b", "c.txt"), "ro/a/b/c.txt", "permission denied: cannot write ro/a/b/c.txt"},
		{"writable", filepath.Join(rw, "new.txt"), "rw/new.txt", ""},
		{"new directories under a writable one", filepath.Join(rw, "x", "y.txt"), "rw/x/y.txt", ""},
	}
	for _, c := range cases {
		err := CheckWritable(&Change{Path: c.path, Rel: c.rel})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%s: error %v, want it to start with %q", c.name, err, c.want)
		}
	}
	if entries, _ := os.ReadDir(rw); len(entries) != 0 {
		t.Errorf("the check left files behind: %v", entries)
	}
	// Apply says the same, cause first.
	err := Apply(&Change{Path: filepath.Join(ro, "new.txt"), Rel: "ro/new.txt", After: []byte("x"), Created: true}, []byte("x"))
	if err == nil || !strings.HasPrefix(err.Error(), "permission denied: cannot write ro/new.txt") {
		t.Errorf("Apply: %v", err)
	}
}

func TestWriteErrorPutsTheCauseFirst(t *testing.T) {
	pe := func(errno syscall.Errno) error {
		return &fs.PathError{Op: "open", Path: "/very/long/path/.new.txt.pincer-25349", Err: errno}
	}
	cases := []struct {
		err  error
		want string
	}{
		{pe(syscall.EACCES), "permission denied: cannot write new.txt"},
		{pe(syscall.EPERM), "permission denied: cannot write new.txt"},
		{pe(syscall.EROFS), "read-only file system: cannot write new.txt"},
		{pe(syscall.ENOSPC), "no space left on the device: cannot write new.txt"},
		{errors.New("odd"), "cannot write new.txt: odd"},
	}
	for _, c := range cases {
		if got := writeError("new.txt", c.err).Error(); !strings.HasPrefix(got, c.want) {
			t.Errorf("writeError(%v) = %q, want it to start with %q", c.err, got, c.want)
		}
	}
}
