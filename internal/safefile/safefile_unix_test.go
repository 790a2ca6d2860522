//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// layouts builds one hostile (or ordinary) file named name in dir, with
// outside a directory beside the project.
var layouts = []struct {
	name    string
	make    func(t *testing.T, path, outside string)
	want    error // nil: read; fs.ErrNotExist, or a refusal
	message string
}{
	{"regular file", func(t *testing.T, p, _ string) { write(t, p, "hello") }, nil, ""},
	{"link to a regular file inside", func(t *testing.T, p, _ string) {
		write(t, p+".real", "hello")
		link(t, filepath.Base(p)+".real", p)
	}, nil, ""},
	{"missing", func(*testing.T, string, string) {}, fs.ErrNotExist, ""},
	{"link to /dev/zero", func(t *testing.T, p, _ string) { link(t, "/dev/zero", p) }, ErrNotRegular, "links to /dev/zero, a device"},
	{"link to /dev/urandom", func(t *testing.T, p, _ string) { link(t, "/dev/urandom", p) }, ErrNotRegular, "links to /dev/urandom, a device"},
	{"named pipe", func(t *testing.T, p, _ string) {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}, ErrNotRegular, "is a named pipe"},
	{"link to a named pipe", func(t *testing.T, p, _ string) {
		if err := syscall.Mkfifo(p+".fifo", 0o644); err != nil {
			t.Fatal(err)
		}
		link(t, p+".fifo", p)
	}, ErrNotRegular, "a named pipe"},
	{"directory", func(t *testing.T, p, _ string) { os.Mkdir(p, 0o755) }, ErrNotRegular, "is a directory"},
	{"link leaving the project", func(t *testing.T, p, outside string) {
		write(t, filepath.Join(outside, "secret"), "key")
		link(t, filepath.Join(outside, "secret"), p)
	}, ErrOutside, "outside"},
	{"relative link leaving the project", func(t *testing.T, p, _ string) {
		link(t, "../outside/secret", p)
		write(t, filepath.Join(filepath.Dir(p), "..", "outside", "secret"), "key")
	}, ErrOutside, "outside"},
	{"link loop", func(t *testing.T, p, _ string) { link(t, filepath.Base(p), p) }, errLoop, ""},
	{"oversize file", func(t *testing.T, p, _ string) { write(t, p, strings.Repeat("x", 2048)) }, ErrTooLarge, "larger than the 1 KiB pincer reads (it has 2 KiB)"},
}

// errLoop stands for "some error that is not a refusal".
var errLoop = errors.New("any error")

// fileKinds are the files pincer reads on its own; the rule is the same
// for each, only Within differs (project files stay in the project).
var fileKinds = []struct {
	name    string
	project bool
}{
	{"AGENTS.md", true}, {"AGENT.md", true}, {"CLAUDE.md", true}, {"SKILLS.md", true},
	{".pincer.json", true}, {"config.json", false}, {"theme.json", false}, {"trusted-projects.json", false},
}

func TestRead(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("named pipes and /dev are Unix")
	}
	for _, fk := range fileKinds {
		for _, l := range layouts {
			t.Run(fk.name+"/"+l.name, func(t *testing.T) {
				base := t.TempDir()
				proj, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
				os.Mkdir(proj, 0o755)
				os.Mkdir(outside, 0o755)
				p := filepath.Join(proj, fk.name)
				l.make(t, p, outside)
				opts := Options{Limit: 1024, Name: fk.name}
				if fk.project {
					opts.Within = proj
				}
				data, err := Read(p, opts)
				want := l.want
				if want == ErrOutside && !fk.project {
					want = nil // the person's own files may link anywhere
				}
				switch {
				case want == nil:
					if err != nil {
						t.Fatalf("Read: %v", err)
					}
					if len(data) == 0 {
						t.Fatal("read nothing")
					}
				case want == fs.ErrNotExist:
					if !errors.Is(err, fs.ErrNotExist) {
						t.Fatalf("Read = %v; want not exist", err)
					}
				case want == errLoop:
					if err == nil {
						t.Fatal("read a link loop")
					}
				default:
					if !errors.Is(err, want) {
						t.Fatalf("Read = %q, %v; want %v", data, err, want)
					}
					if !strings.Contains(err.Error(), l.message) || !strings.HasPrefix(err.Error(), fk.name) {
						t.Errorf("message %q; want it to start with %q and contain %q", err, fk.name, l.message)
					}
					var e *Error
					if errors.As(err, &e) && e.Fix() == "" {
						t.Error("no fix")
					}
				}
			})
		}
	}
}

func TestSentence(t *testing.T) {
	e := &Error{Name: "AGENTS.md", Target: "/dev/zero", Kind: "a device", err: ErrNotRegular}
	const want = "AGENTS.md is not a regular file (it links to /dev/zero, a device); pincer ignored it — remove the link or point it at a regular file"
	if got := e.Sentence("pincer ignored it"); got != want {
		t.Errorf("Sentence =\n%s\nwant\n%s", got, want)
	}
}

func TestReadDefaultLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	write(t, p, strings.Repeat("x", DefaultLimit+1))
	_, err := Read(p, Options{})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "1 MiB") {
		t.Fatalf("Read = %v; want too large naming 1 MiB", err)
	}
	write(t, p, strings.Repeat("x", DefaultLimit))
	if _, err := Read(p, Options{}); err != nil {
		t.Fatalf("a file of exactly the limit: %v", err)
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

func TestReadQuotesHostileTarget(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "AGENTS.md")
	bad := filepath.Join(dir, "x\x1b]0;owned\x07")
	if err := syscall.Mkfifo(bad, 0o644); err != nil {
		t.Fatal(err)
	}
	link(t, bad, p)
	_, err := Read(p, Options{Within: dir, Name: "AGENTS.md"})
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") {
		t.Fatalf("Read = %q; want an error without control characters", err)
	}
}

func TestHead(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	write(t, big, "top\n"+strings.Repeat("x", DefaultLimit))
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	link(t, "/dev/zero", zero)
	cases := []struct {
		name, path string
		want       string
		err        error
	}{
		{"a file over any cap gives its head", big, "top\n", nil},
		{"named pipe (must not wait for a writer)", fifo, "", ErrNotRegular},
		{"link to a device", zero, "", ErrNotRegular},
		{"directory", dir, "", ErrNotRegular},
		{"missing", filepath.Join(dir, "none"), "", fs.ErrNotExist},
	}
	for _, c := range cases {
		got, err := Head(c.path, 4)
		if string(got) != c.want || !errors.Is(err, c.err) {
			t.Errorf("%s: Head = %q, %v; want %q, %v", c.name, got, err, c.want, c.err)
		}
	}
}
