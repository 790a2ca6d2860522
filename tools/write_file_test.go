package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/chat"
)

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name     string
		existing map[string]string
		args     string
		file     string // file to check afterwards
		want     string // its content
		result   string // expected result text (prefix)
		isErr    bool
		touch    chat.TouchKind
	}{
		{"create", nil, `{"path": "new.txt", "content": "a\nb\n"}`, "new.txt", "a\nb\n", "Created new.txt: new file, 2 lines, 4 bytes.", false, chat.TouchCreated},
		{"create with parents", nil, `{"path": "x/y/z.md", "content": "# z"}`, "x/y/z.md", "# z", "Created x/y/z.md: new file, 1 line, 3 bytes.", false, chat.TouchCreated},
		{"create empty", nil, `{"path": "e", "content": ""}`, "e", "", "Created e: new file, 0 lines, 0 bytes.", false, chat.TouchCreated},
		{"overwrite", map[string]string{"f.txt": "old\n"}, `{"path": "f.txt", "content": "new\nlines\n"}`, "f.txt", "new\nlines\n",
			"Edited f.txt: replaced the whole content (1 line before, 2 lines now).\n     1\tnew\n     2\tlines", false, chat.TouchChanged},
		{"same content", map[string]string{"f.txt": "same"}, `{"path": "f.txt", "content": "same"}`, "f.txt", "same", "f.txt: the file already had this content; nothing changed.", false, 0},
		{"directory", map[string]string{"d/": ""}, `{"path": "d", "content": "x"}`, "", "", "d is a directory; give a file path", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tempRoot(t)
			writeFiles(t, root, tt.existing)
			res := run(t, Options{Root: root}, "write_file", tt.args)
			if res.IsError != tt.isErr || !strings.HasPrefix(res.Content, tt.result) {
				t.Errorf("result = %q (IsError %v), want %q (IsError %v)", res.Content, res.IsError, tt.result, tt.isErr)
			}
			if tt.file != "" {
				if got := readFile(t, filepath.Join(root, tt.file)); got != tt.want {
					t.Errorf("file holds %q, want %q", got, tt.want)
				}
			}
			if tt.touch != 0 {
				if len(res.Touched) != 1 || res.Touched[0] != (chat.Touch{Path: tt.file, Kind: tt.touch}) {
					t.Errorf("Touched = %v, want %s %s", res.Touched, tt.file, tt.touch)
				}
			} else if len(res.Touched) != 0 {
				t.Errorf("Touched = %v, want none", res.Touched)
			}
		})
	}
}

func TestWritePlanWritesNothing(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{"f.txt": "old"})
	opts := Options{Root: root}
	for _, args := range []string{`{"path": "f.txt", "content": "new"}`, `{"path": "sub/n.txt", "content": "n"}`} {
		call := decode(t, opts, "write_file", args)
		p, ok := call.(Planner)
		if !ok {
			t.Fatal("write_file call is not a Planner")
		}
		ch, err := p.Plan(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if string(ch.After) == "" || ch.Path == "" || ch.Rel == "" {
			t.Errorf("incomplete change: %+v", ch)
		}
	}
	if got := readFile(t, filepath.Join(root, "f.txt")); got != "old" {
		t.Errorf("Plan changed f.txt to %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "sub")); !os.IsNotExist(err) {
		t.Errorf("Plan created the parent directory: %v", err)
	}
	ch, _ := decode(t, opts, "write_file", `{"path": "f.txt", "content": "new"}`).(Planner).Plan(context.Background())
	if string(ch.Before) != "old" || ch.Created || ch.Rel != "f.txt" || ch.Path != filepath.Join(root, "f.txt") {
		t.Errorf("change = %+v", ch)
	}
	ch, _ = decode(t, opts, "write_file", `{"path": "sub/n.txt", "content": "n"}`).(Planner).Plan(context.Background())
	if ch.Before != nil || !ch.Created {
		t.Errorf("new file change = %+v, want Before nil and Created", ch)
	}
}

func TestWriteFileAccess(t *testing.T) {
	root := tempRoot(t)
	opts := Options{Root: root}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	tests := []struct{ path, want string }{
		{"a/../b.txt", filepath.Join(root, "b.txt")},
		{"/etc/hosts", "/etc/hosts"},
		{"~/notes.txt", filepath.Join(home, "notes.txt")},
		{"../outside.txt", filepath.Join(filepath.Dir(root), "outside.txt")},
	}
	for _, tt := range tests {
		c := decode(t, opts, "write_file", `{"path": "`+tt.path+`", "content": ""}`)
		a := c.Access()
		if len(a.Writes) == 0 || a.Writes[0] != tt.want || len(a.Reads) != 0 || a.Command != "" {
			t.Errorf("Access for %s = %+v, want Writes[0] %s", tt.path, a, tt.want)
		}
	}
}
