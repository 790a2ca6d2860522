package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/tools"
)

func runTool(t *testing.T, ts []tools.Tool, name string, args any) tools.Result {
	t.Helper()
	for _, tl := range ts {
		if tl.Name() != name {
			continue
		}
		raw, _ := json.Marshal(args)
		call, err := tl.Decode(string(raw))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r, err := call.Run(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return r
	}
	t.Fatalf("no tool %s", name)
	return tools.Result{}
}

func TestNavigationTools(t *testing.T) {
	t.Parallel()
	m, root := fakeManager(t, "normal", Options{})
	path := filepath.Join(root, "a.fk")
	write(t, path, "func Fake(x int) string\n  Fake(1)\n")
	ts := Tools(m, root)
	for _, tc := range []struct {
		tool  string
		args  any
		want  string
		isErr bool
	}{
		{"lsp_definition", map[string]any{"path": "a.fk", "line": 2, "symbol": "Fake"}, "a.fk:1:6: func Fake(x int) string", false},
		{"lsp_references", map[string]any{"path": "a.fk", "line": 1, "symbol": "Fake"}, "a.fk:1:1: func Fake(x int) string\na.fk:2:3: Fake(1)", false},
		{"lsp_hover", map[string]any{"path": "a.fk", "line": 1, "symbol": "Fake"}, "Fake does nothing.", false},
		{"lsp_symbols", map[string]any{"path": "a.fk"}, "function Fake  a.fk:1\n  variable inner  a.fk:2", false},
		{"lsp_symbols", map[string]any{"query": "Fa"}, "function FaFound  a.fk:3", false},
		{"lsp_hover", map[string]any{"path": "a.fk", "line": 1, "symbol": "Nope"}, `"Nope" is not on line 1 of a.fk, which reads: func Fake(x int) string`, true},
		{"lsp_hover", map[string]any{"path": "a.fk", "line": 9, "symbol": "Fake"}, "a.fk has 3 lines; line 9 is not one of them", true},
		{"lsp_hover", map[string]any{"path": "notes.txt", "line": 1, "symbol": "x"}, "no language server runs for this file", true},
	} {
		r := runTool(t, ts, tc.tool, tc.args)
		if r.IsError != tc.isErr || !strings.Contains(r.Content, tc.want) {
			t.Errorf("%s %v:\n%s\nwant %q (error %v)", tc.tool, tc.args, r.Content, tc.want, tc.isErr)
		}
	}
	if !m.AnyRunning() {
		t.Error("AnyRunning is false")
	}
}

func TestRenameIsPlannedNotWritten(t *testing.T) {
	t.Parallel()
	m, root := fakeManager(t, "normal", Options{})
	path := filepath.Join(root, "a.fk")
	write(t, path, "func Fake(x int) string\n")
	var rename tools.Tool
	for _, tl := range Tools(m, root) {
		if tl.Name() == "lsp_rename" {
			rename = tl
		}
	}
	if !rename.Mutates() {
		t.Error("lsp_rename does not say it mutates")
	}
	call, err := rename.Decode(`{"path": "a.fk", "line": 1, "symbol": "Fake", "new_name": "Real"}`)
	if err != nil {
		t.Fatal(err)
	}
	if acc := call.Access(); len(acc.Writes) != 1 || acc.Writes[0] != path {
		t.Errorf("access %+v", acc)
	}
	ch, err := call.(tools.Planner).Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if string(ch.After) != "func Real(x int) string\n" || string(ch.Before) != "func Fake(x int) string\n" || ch.Rel != "a.fk" {
		t.Errorf("change %q → %q (%s)", ch.Before, ch.After, ch.Rel)
	}
	if data := readFile(t, path); data != "func Fake(x int) string\n" {
		t.Errorf("planning wrote the file: %q", data)
	}
	if _, err := rename.Decode(`{"path": "a.fk", "line": 1, "symbol": "Fake", "new_name": "Fake"}`); err == nil {
		t.Error("a rename to the same name was accepted")
	}
}

func TestApplyEdits(t *testing.T) {
	t.Parallel()
	text := []byte("héllo wörld\nsecond line\n")
	for _, tc := range []struct {
		name  string
		edits []textEdit
		utf8  bool
		want  string
		err   string
	}{
		{"utf-16 columns", []textEdit{{Range: Range{Start: Position{0, 6}, End: Position{0, 11}}, NewText: "earth"}}, false, "héllo earth\nsecond line\n", ""},
		{"utf-8 columns", []textEdit{{Range: Range{Start: Position{0, 7}, End: Position{0, 13}}, NewText: "earth"}}, true, "héllo earth\nsecond line\n", ""},
		{"two edits, given out of order", []textEdit{{Range: Range{Start: Position{1, 0}, End: Position{1, 6}}, NewText: "2nd"}, {Range: Range{Start: Position{0, 0}, End: Position{0, 5}}, NewText: "hi"}}, false, "hi wörld\n2nd line\n", ""},
		{"overlap", []textEdit{{Range: Range{Start: Position{0, 0}, End: Position{0, 5}}}, {Range: Range{Start: Position{0, 3}, End: Position{0, 8}}}}, false, "", "overlap"},
		{"past the end", []textEdit{{Range: Range{Start: Position{7, 0}, End: Position{7, 1}}}}, false, "", "past the end"},
	} {
		got, err := applyEdits(text, tc.edits, tc.utf8)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v", tc.name, err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %q, %v", tc.name, got, err)
		}
	}
}

func TestGoplsNavigationAndRename(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts gopls")
	}
	root := goProject(t)
	m := goplsManager(t, root)
	m.opts.RequestTimeout = 60 * time.Second
	ts := Tools(m, root)
	def := runTool(t, ts, "lsp_definition", map[string]any{"path": "main.go", "line": 6, "symbol": "greeting"})
	if def.IsError || !strings.Contains(def.Content, "greet.go:3:6: func greeting() string {") {
		t.Errorf("definition:\n%s", def.Content)
	}
	refs := runTool(t, ts, "lsp_references", map[string]any{"path": "greet.go", "line": 3, "symbol": "greeting"})
	if !strings.Contains(refs.Content, "greet.go:3:6") || !strings.Contains(refs.Content, "main.go:6:14") {
		t.Errorf("references:\n%s", refs.Content)
	}
	hover := runTool(t, ts, "lsp_hover", map[string]any{"path": "main.go", "line": 6, "symbol": "Println"})
	if !strings.Contains(hover.Content, "func fmt.Println") && !strings.Contains(hover.Content, "func Println") {
		t.Errorf("hover:\n%s", hover.Content)
	}
	for _, tl := range ts {
		if tl.Name() != "lsp_rename" {
			continue
		}
		call, err := tl.Decode(`{"path": "greet.go", "line": 3, "symbol": "greeting", "new_name": "salutation"}`)
		if err != nil {
			t.Fatal(err)
		}
		chs, err := call.(interface {
			PlanAll(context.Context) ([]*tools.Change, error)
		}).PlanAll(context.Background())
		if err != nil || len(chs) != 2 {
			t.Fatalf("rename: %v, %d changes", err, len(chs))
		}
		if !strings.Contains(string(chs[0].After), "salutation") || !strings.Contains(string(chs[1].After), "salutation") {
			t.Errorf("rename: %q / %q", chs[0].After, chs[1].After)
		}
		if strings.Contains(readFile(t, filepath.Join(root, "main.go")), "salutation") {
			t.Error("planning the rename wrote main.go")
		}
	}
}
