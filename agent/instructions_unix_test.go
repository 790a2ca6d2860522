//go:build unix

package agent

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileLayouts put something other than a small regular file where an
// instruction file is expected.
var hostileLayouts = []struct {
	name string
	make func(t *testing.T, p, outside string)
	says string
}{
	{"link to /dev/zero", func(t *testing.T, p, _ string) { os.Symlink("/dev/zero", p) }, "links to /dev/zero, a device"},
	{"link to /dev/urandom", func(t *testing.T, p, _ string) { os.Symlink("/dev/urandom", p) }, "links to /dev/urandom, a device"},
	{"named pipe", func(t *testing.T, p, _ string) { syscall.Mkfifo(p, 0o644) }, "is a named pipe"},
	{"directory", func(t *testing.T, p, _ string) { os.Mkdir(p, 0o755) }, "is a directory"},
	{"link leaving the project", func(t *testing.T, p, outside string) { os.Symlink(filepath.Join(outside, "secret.md"), p) }, "outside the project"},
	{"oversize file", func(t *testing.T, p, _ string) { os.WriteFile(p, []byte(strings.Repeat("x", 2<<20)), 0o644) }, "larger than the 1 MiB"},
}

// TestHostileProjectInstructionsAreSkipped: each project instruction file
// in each hostile form is skipped with a warning naming it, what it is and
// the fix; loading never blocks, and nothing outside the project is read.
func TestHostileProjectInstructionsAreSkipped(t *testing.T) {
	for _, name := range projectInstructionFiles() {
		for _, l := range hostileLayouts {
			t.Run(name+"/"+l.name, func(t *testing.T) {
				base := t.TempDir()
				root, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
				os.Mkdir(root, 0o755)
				os.Mkdir(outside, 0o755)
				os.WriteFile(filepath.Join(outside, "secret.md"), []byte("OUTSIDE SECRET"), 0o644)
				l.make(t, filepath.Join(root, name), outside)
				in := loadWithin(t, t.TempDir(), root)
				if len(in.Project) != 0 {
					t.Fatalf("read %q", in.Project[0].Content[:min(40, len(in.Project[0].Content))])
				}
				if len(in.Warnings) != 1 || !strings.HasPrefix(in.Warnings[0], name+" ") ||
					!strings.Contains(in.Warnings[0], l.says) || !strings.Contains(in.Warnings[0], "pincer ignored it — ") {
					t.Fatalf("warnings %q; want one naming %s, saying %q and the fix", in.Warnings, name, l.says)
				}
			})
		}
	}
}

// TestHostileUserInstructionsAreAnError: the person's own AGENT.md or
// SKILLS.md in a hostile form is a clear error, never a hang.
func TestHostileUserInstructionsAreAnError(t *testing.T) {
	for _, name := range []string{"AGENT.md", "SKILLS.md"} {
		for _, l := range hostileLayouts {
			if l.name == "link leaving the project" {
				continue // the person's own files may live anywhere
			}
			t.Run(name+"/"+l.name, func(t *testing.T) {
				user := t.TempDir()
				l.make(t, filepath.Join(user, name), "")
				done := make(chan error, 1)
				go func() { _, err := LoadInstructions("a", "s", user, t.TempDir()); done <- err }()
				select {
				case err := <-done:
					if err == nil || !strings.Contains(err.Error(), l.says) {
						t.Fatalf("err = %v; want one saying %q", err, l.says)
					}
				case <-time.After(20 * time.Second):
					t.Fatal("LoadInstructions blocked")
				}
			})
		}
	}
}

func loadWithin(t *testing.T, user, root string) Instructions {
	t.Helper()
	type res struct {
		in  Instructions
		err error
	}
	done := make(chan res, 1)
	go func() { in, err := LoadInstructions("a", "s", user, root); done <- res{in, err} }()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.in
	case <-time.After(20 * time.Second):
		t.Fatal("LoadInstructions blocked")
	}
	return Instructions{}
}
