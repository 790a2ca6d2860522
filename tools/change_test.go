package tools

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/chat"
)

func TestApplyChangedOnDisk(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(p string) // runs after planning
		before  []byte
		wantErr bool
	}{
		{"unchanged", func(string) {}, []byte("v1"), false},
		{"modified", func(p string) { os.WriteFile(p, []byte("v2"), 0o644) }, []byte("v1"), true},
		{"deleted", func(p string) { os.Remove(p) }, []byte("v1"), true},
		{"created meanwhile", func(p string) { os.WriteFile(p, []byte("theirs"), 0o644) }, nil, true},
		{"still missing", func(string) {}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tempRoot(t)
			p := filepath.Join(root, "f.txt")
			if tt.before != nil {
				os.WriteFile(p, tt.before, 0o644)
			}
			ch := &Change{Path: p, Rel: "f.txt", Before: tt.before, After: []byte("mine"), Created: tt.before == nil}
			tt.setup(p)
			onDisk, _ := os.ReadFile(p)
			err := Apply(ch, ch.After)
			if tt.wantErr {
				if !errors.Is(err, ErrChangedOnDisk) {
					t.Fatalf("Apply = %v, want ErrChangedOnDisk", err)
				}
				if !strings.Contains(err.Error(), "f.txt") {
					t.Errorf("error does not name the file: %v", err)
				}
				now, _ := os.ReadFile(p)
				if string(now) != string(onDisk) {
					t.Errorf("a refused Apply changed the file to %q", now)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, p); got != "mine" {
				t.Errorf("file = %q, want mine", got)
			}
		})
	}
}

func TestApplyIsAtomicAndKeepsMode(t *testing.T) {
	root := tempRoot(t)
	p := filepath.Join(root, "run.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho old\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o751); err != nil {
		t.Fatal(err)
	}
	// A reader that opened the file before the write keeps seeing the old
	// content: the new one arrives by rename, not by rewriting in place.
	old, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	ch := &Change{Path: p, Rel: "run.sh", Before: []byte("#!/bin/sh\necho old\n"), After: []byte("#!/bin/sh\necho new\n")}
	if err := Apply(ch, ch.After); err != nil {
		t.Fatal(err)
	}
	seen, _ := io.ReadAll(old)
	if string(seen) != "#!/bin/sh\necho old\n" {
		t.Errorf("open handle sees %q; the file was rewritten in place", seen)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o751 {
		t.Errorf("mode = %v, want 0751 kept", info.Mode().Perm())
	}
	if got := readFile(t, p); got != "#!/bin/sh\necho new\n" {
		t.Errorf("content = %q", got)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only run.sh (no temporary files left)", len(entries))
	}
}

func TestApplyCreatesParentsAndFollowsLinks(t *testing.T) {
	root := tempRoot(t)
	p := filepath.Join(root, "a", "b", "new.txt")
	if err := Apply(&Change{Path: p, Rel: "a/b/new.txt", After: []byte("x"), Created: true}, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "x" {
		t.Errorf("new file = %q", got)
	}
	target := filepath.Join(root, "target.txt")
	link := filepath.Join(root, "link.txt")
	os.WriteFile(target, []byte("t1"), 0o644)
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if err := Apply(&Change{Path: link, Rel: "link.txt", Before: []byte("t1"), After: []byte("t2")}, []byte("t2")); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if got := readFile(t, target); got != "t2" {
		t.Errorf("link target = %q, want t2", got)
	}
}

func TestApplyReviewedContent(t *testing.T) {
	root := tempRoot(t)
	p := filepath.Join(root, "f.txt")
	os.WriteFile(p, []byte("a\nb\nc\n"), 0o644)
	ch := &Change{Path: p, Rel: "f.txt", Before: []byte("a\nb\nc\n"), After: []byte("a\nB\nc\n"), Summary: "replaced 1 occurrence (line 2)"}
	reviewed := []byte("a\nBee\nc\n")
	if err := Apply(ch, reviewed); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != string(reviewed) {
		t.Fatalf("file = %q, want the reviewed content", got)
	}
	res := AppliedResult(ch, reviewed)
	if w := missing(res.Content, "with changes the user made during review", "     2\tBee"); w != "" {
		t.Errorf("result lacks %q: %s", w, res.Content)
	}
	res = AppliedResult(ch, ch.After)
	if !strings.HasPrefix(res.Content, "Edited f.txt: replaced 1 occurrence (line 2).\n     1\ta\n     2\tB\n     3\tc") {
		t.Errorf("result = %q", res.Content)
	}
	if len(res.Touched) != 1 || res.Touched[0] != (chat.Touch{Path: "f.txt", Kind: chat.TouchChanged}) {
		t.Errorf("Touched = %v", res.Touched)
	}
}
