package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLauncherHomeChangesThatHideNothing: with home in view, a file a
// shell saves by renaming it into home (~/.bash_history) between commands
// keeps the helper, while a secret made at the top of home gets a new one
// that hides it.
func TestLauncherHomeChangesThatHideNothing(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			dir, home := t.TempDir(), t.TempDir()
			l := testLauncher(t, Spec{Root: dir, Writable: []string{dir}, Flat: layout.flat, Home: home,
				SecretRoots: []string{dir}, IsSecret: func(p string, _ bool) bool { return strings.HasSuffix(p, ".pem") }})
			helper := func() string {
				t.Helper()
				out, _, err := runWith(t, l, whichHelper)
				if err != nil {
					t.Fatal(err)
				}
				return strings.TrimSpace(out)
			}
			first := helper()
			for i := range 3 {
				tmp := filepath.Join(home, ".bash_history-1234.tmp")
				if err := os.WriteFile(tmp, []byte(strings.Repeat("ls\n", i+1)), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(tmp, filepath.Join(home, ".bash_history")); err != nil {
					t.Fatal(err)
				}
				if got := helper(); got != first {
					t.Fatalf("after history save %d: helper %q, want the first one %q", i, got, first)
				}
			}
			key := filepath.Join(home, "id.pem")
			if err := os.WriteFile(key, []byte("secret\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if got := helper(); got == first {
				t.Errorf("after a secret was made in home: still helper %q, want a new one", got)
			}
			out, _, err := runWith(t, l, "cat "+key+" 2>/dev/null || echo hidden")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out, "secret") {
				t.Errorf("the secret made in home reads %q in the jail, want it hidden", out)
			}
		})
	}
}

// BenchmarkHomeChange is a command run after home changed at its top:
// by a history file renamed into it (the helper is kept, home looked
// through again) and by a secret made or removed (a new helper is built).
func BenchmarkHomeChange(b *testing.B) {
	needJail(b, false)
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, change := range []string{"history saved", "secret made"} {
		b.Run(change, func(b *testing.B) {
			dir, home := b.TempDir(), b.TempDir()
			for i := range 200 {
				if err := os.WriteFile(filepath.Join(home, fmt.Sprintf(".file%d", i)), nil, 0o600); err != nil {
					b.Fatal(err)
				}
			}
			l := NewLauncher(exe, Spec{Root: dir, Writable: []string{dir}, Home: home,
				SecretRoots: []string{dir}, IsSecret: func(p string, _ bool) bool { return strings.HasSuffix(p, ".pem") }})
			defer l.Close()
			for i := 0; b.Loop(); i++ {
				p := filepath.Join(home, "id.pem")
				if change == "history saved" {
					p = filepath.Join(home, ".bash_history-1.tmp")
				}
				if i%2 == 0 {
					err = os.WriteFile(p, nil, 0o600)
				} else if change == "history saved" {
					err = os.Rename(p, filepath.Join(home, ".bash_history"))
				} else {
					err = os.Remove(p)
				}
				if err != nil {
					b.Fatal(err)
				}
				if err := runBench(l, "true"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// runBench runs script in l and waits for it.
func runBench(l *Launcher, script string) error {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer null.Close()
	p, err := l.Start(Request{Path: "/bin/sh", Argv: []string{"sh", "-c", script}, Env: []string{"PATH=" + os.Getenv("PATH")}, Dir: l.spec.Root, Stdin: null, Stdout: null, Stderr: null})
	if err != nil {
		return err
	}
	_, err = p.Wait()
	return err
}
