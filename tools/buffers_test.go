package tools

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// fakeEditor holds buffers by path, as an editor with open files does.
type fakeEditor struct {
	buffers  map[string]string
	readErr  error
	writeErr error
	writes   int
}

func (e *fakeEditor) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if e.readErr != nil {
		return nil, e.readErr
	}
	text, ok := e.buffers[path]
	if !ok {
		return nil, errors.New("not open")
	}
	return []byte(text), nil
}

func (e *fakeEditor) WriteFile(ctx context.Context, path string, content []byte) error {
	if e.writeErr != nil {
		return e.writeErr
	}
	e.writes++
	e.buffers[path] = string(content)
	return nil
}

// TestBuffersRead: read_file reads the editor's text, unsaved changes
// included, and the disk when the editor does not have it.
func TestBuffersRead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		readErr error
		want    string
	}{
		{"the editor's text", nil, "unsaved"},
		{"not offered", ErrNoBuffers, "on disk"},
		{"the editor fails", errors.New("boom"), "on disk"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tempRoot(t)
			writeFiles(t, root, map[string]string{"a.txt": "on disk\n"})
			ed := &fakeEditor{buffers: map[string]string{filepath.Join(root, "a.txt"): "unsaved\n"}, readErr: tc.readErr}
			res := run(t, Options{Root: root, Buffers: ed}, "read_file", `{"path":"a.txt"}`)
			if res.IsError || !strings.Contains(res.Content, tc.want) {
				t.Errorf("read %q, want %q", res.Content, tc.want)
			}
		})
	}
}

// TestBuffersEdit: an edit is planned on the editor's text and written
// through the editor, the disk untouched; one whose buffer changed since
// it was planned, or that the editor refuses, writes nothing; an editor
// that does not take writes leaves the disk to be written; a new file is
// written to the disk.
func TestBuffersEdit(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       string
		writeErr   error
		meanwhile  string // the buffer's text after planning, "" to leave it
		wantBuffer string
		wantDisk   string
		wantErr    string
	}{
		{name: "through the editor", args: `{"path":"a.txt","old_text":"two","new_text":"TWO"}`,
			wantBuffer: "one\nTWO\nunsaved\n", wantDisk: "one\ntwo\n"},
		{name: "changed in the editor since", args: `{"path":"a.txt","old_text":"two","new_text":"TWO"}`, meanwhile: "typed more\n",
			wantBuffer: "typed more\n", wantDisk: "one\ntwo\n", wantErr: "changed"},
		{name: "the editor refuses", args: `{"path":"a.txt","old_text":"two","new_text":"TWO"}`, writeErr: errors.New("read-only buffer"),
			wantBuffer: "one\ntwo\nunsaved\n", wantDisk: "one\ntwo\n", wantErr: "read-only buffer"},
		{name: "the editor takes no writes", args: `{"path":"a.txt","old_text":"one","new_text":"ONE"}`, writeErr: ErrNoBuffers,
			wantBuffer: "one\ntwo\nunsaved\n", wantErr: ErrChangedOnDisk.Error()[:20], wantDisk: "one\ntwo\n"},
		{name: "a new file", args: `{"path":"b.txt","old_text":"","new_text":"new\n"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tempRoot(t)
			writeFiles(t, root, map[string]string{"a.txt": "one\ntwo\n"})
			a := filepath.Join(root, "a.txt")
			ed := &fakeEditor{buffers: map[string]string{a: "one\ntwo\nunsaved\n"}, writeErr: tc.writeErr}
			call := decode(t, Options{Root: root, Buffers: ed}, "edit_file", tc.args)
			ch, err := call.(Planner).Plan(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if tc.meanwhile != "" {
				ed.buffers[a] = tc.meanwhile
			}
			err = ApplyContext(context.Background(), ch, ch.After)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("apply: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("apply: %v, want an error with %q", err, tc.wantErr)
			}
			if tc.name == "a new file" {
				if got := readFile(t, filepath.Join(root, "b.txt")); got != "new\n" || ed.writes != 0 {
					t.Errorf("b.txt = %q, %d editor writes", got, ed.writes)
				}
				return
			}
			if got := ed.buffers[a]; got != tc.wantBuffer {
				t.Errorf("buffer %q, want %q", got, tc.wantBuffer)
			}
			if got := readFile(t, a); got != tc.wantDisk {
				t.Errorf("disk %q, want %q", got, tc.wantDisk)
			}
		})
	}
}
