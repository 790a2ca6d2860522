//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileFiles put something that is not a plain small config file where
// a config file is expected.
var hostileFiles = []struct {
	name string
	make func(t *testing.T, path, outside string)
	says string
}{
	{"link to /dev/zero", func(t *testing.T, p, _ string) { symlink(t, "/dev/zero", p) }, "links to /dev/zero, a device"},
	{"link to /dev/urandom", func(t *testing.T, p, _ string) { symlink(t, "/dev/urandom", p) }, "links to /dev/urandom, a device"},
	{"named pipe", func(t *testing.T, p, _ string) {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}, "is a named pipe"},
	{"directory", func(t *testing.T, p, _ string) { os.Mkdir(p, 0o700) }, "is a directory"},
	{"oversize file", func(t *testing.T, p, _ string) {
		writeFile(t, p, `{"model": "`+strings.Repeat("m", 2<<20)+`"}`)
	}, "larger than the 1 MiB pincer reads"},
}

// TestHostileProjectFileIsIgnored: a project file pincer cannot read
// safely is left out with a warning that says what it is and the fix;
// pincer neither blocks, nor reads without bound, nor stops.
func TestHostileProjectFileIsIgnored(t *testing.T) {
	cases := append(hostileFiles[:len(hostileFiles):len(hostileFiles)], struct {
		name string
		make func(t *testing.T, path, outside string)
		says string
	}{"link leaving the project", func(t *testing.T, p, outside string) {
		writeFile(t, filepath.Join(outside, "cfg.json"), `{"model": "from-outside"}`)
		symlink(t, filepath.Join(outside, "cfg.json"), p)
	}, "outside the project"})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			outside := filepath.Join(filepath.Dir(w.root), "outside")
			os.Mkdir(outside, 0o755)
			tc.make(t, w.projectPath(), outside)
			c, s := loadWithin(t, w, true)
			if c.Model == "from-outside" {
				t.Fatal("read a project file through a link leaving the project")
			}
			if len(s.Warnings) != 1 || !strings.HasPrefix(s.Warnings[0], ".pincer.json") ||
				!strings.Contains(s.Warnings[0], tc.says) || !strings.Contains(s.Warnings[0], "pincer ignored it") {
				t.Fatalf("warnings = %q; want one saying .pincer.json %s and that it was ignored", s.Warnings, tc.says)
			}
		})
	}
}

// TestHostileUserFileIsAnError: the person's own config file is refused
// with a clear error, since running without it would surprise them.
func TestHostileUserFileIsAnError(t *testing.T) {
	for _, tc := range hostileFiles {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			os.MkdirAll(filepath.Dir(w.userPath()), 0o700)
			tc.make(t, w.userPath(), "")
			done := make(chan error, 1)
			go func() { _, _, err := w.load(Overrides{}); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("Load blocked")
			}
			ps := problemsOf(t, err)
			if len(ps) != 1 || !errors.Is(ps[0], ErrUnreadable) || !strings.Contains(ps[0].Message, tc.says) ||
				!strings.Contains(ps[0].Message, "~/.config/pincer/config.json") {
				t.Fatalf("problems = %v; want one naming the file and saying it %s", err, tc.says)
			}
		})
	}
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}
