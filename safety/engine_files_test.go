package safety

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// fakeFiles is a Files over a list of paths in the classifier's spelling:
// "src/a.go" a file, "src/" a directory, "link -> target" a symbolic link,
// "deploy_key (key)" a file that holds a private key.
type fakeFiles struct {
	kinds map[string]string // path → "file", "dir" or the link's target
}

func newFakeFiles(paths ...string) *fakeFiles {
	f := &fakeFiles{kinds: map[string]string{".": "dir", "~": "dir", "/": "dir"}}
	for _, p := range paths {
		kind := "file"
		if name, target, ok := strings.Cut(p, " -> "); ok {
			p, kind = name, target
		}
		if strings.HasSuffix(p, "/") {
			p, kind = strings.TrimSuffix(p, "/"), "dir"
		}
		if name, ok := strings.CutSuffix(p, " (key)"); ok {
			p, kind = name, "key"
		}
		f.kinds[p] = kind
		for d := path.Dir(p); d != "." && d != "/" && d != "~"; d = path.Dir(d) {
			if _, ok := f.kinds[d]; !ok {
				f.kinds[d] = "dir"
			}
		}
	}
	return f
}

func (f *fakeFiles) ReadDir(dir string) ([]fs.DirEntry, error) {
	if f.kinds[dir] != "dir" {
		return nil, errors.New("not a directory")
	}
	var out []fs.DirEntry
	for p, k := range f.kinds {
		if p == dir || p == "." || p == "~" || p == "/" {
			continue
		}
		if path.Dir(p) == dir {
			out = append(out, fakeEntry{name: path.Base(p), kind: k})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func (f *fakeFiles) EvalSymlinks(p string) (string, error) {
	for i := 0; i < 8; i++ {
		k, ok := f.kinds[p]
		if !ok {
			return "", errors.New("no such file")
		}
		if k == "file" || k == "dir" || k == "key" {
			return p, nil
		}
		p = k
	}
	return "", errors.New("too many links")
}

// HoldsPrivateKey follows links to a file marked as holding a key; it
// says it read a sniff's worth of each regular file, so that budgets bite.
func (f *fakeFiles) HoldsPrivateKey(p string) (bool, int64) {
	real, err := f.EvalSymlinks(p)
	if err != nil || f.kinds[real] == "dir" {
		return false, 0
	}
	return f.kinds[real] == "key", 64 << 10
}

type fakeEntry struct {
	name, kind string
}

func (e fakeEntry) Name() string { return e.name }
func (e fakeEntry) IsDir() bool  { return e.kind == "dir" }
func (e fakeEntry) Type() fs.FileMode {
	switch e.kind {
	case "dir":
		return fs.ModeDir
	case "file", "key":
		return 0
	}
	return fs.ModeSymlink
}
func (e fakeEntry) Info() (fs.FileInfo, error) { return fakeInfo(e), nil }

type fakeInfo fakeEntry

func (i fakeInfo) Name() string       { return i.name }
func (i fakeInfo) Size() int64        { return 0 }
func (i fakeInfo) Mode() fs.FileMode  { return fakeEntry(i).Type() }
func (i fakeInfo) ModTime() time.Time { return time.Time{} }
func (i fakeInfo) IsDir() bool        { return i.kind == "dir" }
func (i fakeInfo) Sys() any           { return nil }

// cleanProject is an ordinary project with no secret-looking file: the
// file system the tables are classified against.
func cleanProject() *fakeFiles {
	return newFakeFiles("README.md", "main.go", "go.mod", "go.sum", "a.txt", "b.txt", "file", "file.txt", "in.txt",
		"log.txt", "names.txt", "words.txt", "config", "config.json", "package.json", "x.tgz", "a.gz", "a.zip", "a.7z",
		"src/a.go", "src/b.go", "src/util/c.go", "test/a_test.go", "cmd/x/main.go", "docs/intro.md", ".gitignore",
		".git/", "build/", "fix.patch", "data.json", "x.yml", "env.yaml", "release.tgz", "dist.tgz", "in.mp4",
		"a", "b", "x", "payload.uu", "key.pub", "cert.pem.pub", "main_test.go", ".env.example",
		"~/.ssh/id_rsa", "~/.ssh/id_ed25519.pub", "~/.bashrc", "~/.config/", "/etc/hosts", "/etc/passwd")
}

// secretProject holds secrets of several kinds, for the families that must
// not read them.
func secretProject() *fakeFiles {
	return newFakeFiles("README.md", "main.go", "go.mod", ".env", ".editorconfig", "src/a.go", "config/", "deploy/id_rsa",
		"notes.txt -> ~/.ssh/id_rsa", "docs/readme.md", "~/.ssh/id_rsa", "~/.claude/.credentials.json",
		"~/.config/rclone/rclone.conf", "~/.psql_history")
}

// tableClassifier is the classifier the tables are held to: no rules,
// the clean project on disk.
func tableClassifier() *Classifier {
	c, err := NewClassifier(Rules{})
	if err != nil {
		panic(err)
	}
	return c.WithFiles(cleanProject())
}
