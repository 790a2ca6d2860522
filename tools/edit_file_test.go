package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editArgs builds edit_file arguments as JSON.
func editArgs(path, oldText, newText string, replaceAll bool) string {
	b, _ := json.Marshal(editFileArgs{Path: path, OldText: oldText, NewText: newText, ReplaceAll: replaceAll})
	return string(b)
}

const goFile = `package agent

func Run() error {
	for i := 0; i < 3; i++ {
		step(i)
	}
	return nil
}

func step(i int) {
	log(i)
	log(i)
}
`

func TestEditFile(t *testing.T) {
	tests := []struct {
		name     string
		content  string // "" with missing=true: the file does not exist
		missing  bool
		args     string
		want     string // file content afterwards ("" = unchanged)
		isErr    bool
		contains []string // in the result text
	}{
		{"unique replace", goFile, false, editArgs("f.go", "\treturn nil\n", "\treturn fmt.Errorf(\"x\")\n", false),
			strings.Replace(goFile, "\treturn nil\n", "\treturn fmt.Errorf(\"x\")\n", 1), false,
			[]string{"Edited f.go: replaced 1 occurrence (line 7).", "     7\t\treturn fmt.Errorf(\"x\")"}},
		{"multi-line replace reports new lines", goFile, false, editArgs("f.go", "func step(i int) {\n\tlog(i)\n\tlog(i)\n}", "func step(i int) {\n\tlog(i)\n}", false),
			strings.Replace(goFile, "func step(i int) {\n\tlog(i)\n\tlog(i)\n}", "func step(i int) {\n\tlog(i)\n}", 1), false,
			[]string{"replaced 1 occurrence (lines 10-12)"}},
		{"not unique", goFile, false, editArgs("f.go", "\tlog(i)\n", "\tlog(i + 1)\n", false), "", true,
			[]string{"old_text occurs 2 times in f.go (at lines 11, 12)", "set replace_all to true"}},
		{"replace all", goFile, false, editArgs("f.go", "log(i)", "trace(i)", true),
			strings.ReplaceAll(goFile, "log(i)", "trace(i)"), false,
			[]string{"replaced 2 occurrences (line 11, line 12)"}},
		{"delete", goFile, false, editArgs("f.go", "\tlog(i)\n\tlog(i)\n", "", false),
			strings.Replace(goFile, "\tlog(i)\n\tlog(i)\n", "", 1), false,
			[]string{"deleted 1 occurrence (was at line 11)"}},
		{"indentation differs", goFile, false, editArgs("f.go", "func Run() error {\n    for i := 0; i < 3; i++ {\n        step(i)", "x", false), "", true,
			[]string{"old_text was not found in f.go exactly, but lines 3-5 match it when whitespace is ignored",
				"line 4 starts with 1 tab in the file but with 4 spaces in old_text",
				"     3\tfunc Run() error {\n     4\t\tfor i := 0; i < 3; i++ {\n     5\t\t\tstep(i)"}},
		{"trailing whitespace differs", goFile, false, editArgs("f.go", "\treturn nil  \n}", "x", false), "", true,
			[]string{"lines 7-8 match it when whitespace is ignored", "trailing whitespace differs"}},
		{"inner whitespace differs", goFile, false, editArgs("f.go", "for i := 0;  i < 3; i++", "x", false), "", true,
			[]string{"line 4 matches it when whitespace is ignored", "whitespace inside the lines differs"}},
		{"closest lines", goFile, false, editArgs("f.go", "func step(n int) {\n\tlog(n)\n\tlog(i)\n}", "x", false), "", true,
			[]string{"The most similar text is at lines 10-13", "the first line that differs is line 10, where the file has \"func step(i int) {\" but old_text has \"func step(n int) {\"",
				"     9\t\n    10\tfunc step(i int) {"}},
		{"nothing similar", goFile, false, editArgs("f.go", "SELECT * FROM users WHERE id = 42;", "x", false), "", true,
			[]string{"nothing in the file is similar to it", "read it again with read_file"}},
		{"missing file", "", true, editArgs("f.go", "x", "y", false), "", true,
			[]string{"file not found: f.go", "call edit_file with an empty old_text, or use write_file"}},
		{"create with empty old_text", "", true, editArgs("f.go", "", "package x\n", false), "package x\n", false,
			[]string{"Created f.go: new file, 1 line."}},
		{"empty old_text on content", goFile, false, editArgs("f.go", "", "x", false), "", true,
			[]string{`"old_text" is empty but f.go already has content`}},
		{"empty old_text fills empty file", "", false, editArgs("f.go", "", "x\n", false), "x\n", false,
			[]string{"Edited f.go: filled the empty file with 1 line."}},
		{"binary file", "\x00\x01\x02", false, editArgs("f.go", "\x01", "y", false), "", true,
			[]string{"f.go is a binary file"}},
		{"crlf file with lf old_text", "a\r\nb\r\nc\r\n", false, editArgs("f.go", "a\nb\n", "a\nB\nextra\n", false),
			"a\r\nB\r\nextra\r\nc\r\n", false, []string{"replaced 1 occurrence (lines 1-3)"}},
		{"crlf file with crlf old_text", "a\r\nb\r\n", false, editArgs("f.go", "b\r\n", "c\n", false),
			"a\r\nc\r\n", false, nil},
		{"lf file with crlf old_text", "a\nb\nc\n", false, editArgs("f.go", "a\r\nb\r\n", "x\r\n", false),
			"x\nc\n", false, nil},
		{"crlf file not found hint", "one\r\ntwo\r\nthree\r\n", false, editArgs("f.go", "one\n  two", "x", false), "", true,
			[]string{"lines 1-2 match it when whitespace is ignored", "     2\ttwo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tempRoot(t)
			p := filepath.Join(root, "f.go")
			if !tt.missing {
				if err := os.WriteFile(p, []byte(tt.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res := run(t, Options{Root: root}, "edit_file", tt.args)
			if res.IsError != tt.isErr {
				t.Errorf("IsError = %v, want %v: %s", res.IsError, tt.isErr, res.Content)
			}
			if w := missing(res.Content, tt.contains...); w != "" {
				t.Errorf("result lacks %q:\n%s", w, res.Content)
			}
			got, _ := os.ReadFile(p)
			want := tt.want
			if want == "" {
				want = tt.content
			}
			if string(got) != want {
				t.Errorf("file =\n%q\nwant\n%q", got, want)
			}
			if tt.isErr && len(res.Touched) != 0 {
				t.Errorf("failed edit marks %v as touched", res.Touched)
			}
		})
	}
}

func TestEditPlanWritesNothing(t *testing.T) {
	root := tempRoot(t)
	p := filepath.Join(root, "f.go")
	os.WriteFile(p, []byte(goFile), 0o644)
	call := decode(t, Options{Root: root}, "edit_file", editArgs("f.go", "return nil", "return err", false))
	planner, ok := call.(Planner)
	if !ok {
		t.Fatal("edit_file call is not a Planner")
	}
	ch, err := planner.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if readFile(t, p) != goFile {
		t.Fatal("Plan wrote the file")
	}
	if string(ch.Before) != goFile || string(ch.After) != strings.Replace(goFile, "return nil", "return err", 1) || ch.Created {
		t.Fatalf("change = %+v", ch)
	}
	if ch.Summary != "replaced 1 occurrence (line 7)" {
		t.Errorf("Summary = %q", ch.Summary)
	}
	// The file changes between planning and applying: Apply refuses.
	os.WriteFile(p, []byte(goFile+"// more\n"), 0o644)
	if err := Apply(ch, ch.After); err == nil || !strings.Contains(err.Error(), "changed on disk") {
		t.Fatalf("Apply after a change on disk = %v", err)
	}
	// A plan failure is an error written for the model.
	_, err = decode(t, Options{Root: root}, "edit_file", editArgs("f.go", "no such text", "x", false)).(Planner).Plan(context.Background())
	if err == nil || !strings.Contains(err.Error(), "old_text was not found in f.go") {
		t.Fatalf("Plan of a missing text = %v", err)
	}
}

func TestEditHintLargeFile(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 20000; i++ {
		fmt.Fprintf(&b, "\tvalue%d := compute(%d, \"label-%d\")\n", i, i, i)
	}
	file := []byte(b.String())
	old := "\tvalue12345 := compute(12345, \"label-12345\")\n\tvalue12346 := compute(12346, \"label-99999\")\n"
	hint := notFoundHint(context.Background(), file, old, "big.go")
	if w := missing(hint, "The most similar text is at lines 12345-12346", "the first line that differs is line 12346"); w != "" {
		t.Fatalf("hint lacks %q:\n%s", w, hint)
	}
}

// TestEditFileManyOccurrences checks what an edit says of old_text found
// many times: the first places and a count, not every place. Naming each
// place once cost a scan of the file per place, so a large file of
// repeated text (a project's trap, or a minified bundle) held pincer for
// minutes before the approval was even asked, and the summary shown in
// the approval dialog grew with the file.
func TestEditFileManyOccurrences(t *testing.T) {
	root := tempRoot(t)
	line := strings.Repeat("ab", 500) + "\n" // 500 occurrences of "ab" a line
	writeFiles(t, root, map[string]string{"rep.txt": strings.Repeat(line, 50), "two.txt": "x\ny\nx\n"})
	tests := []struct {
		name, args string
		isErr      bool
		want       []string
	}{
		{"not unique", `{"path": "rep.txt", "old_text": "ab", "new_text": "c"}`, true,
			[]string{"old_text occurs 25000 times in rep.txt (at lines 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 and 24990 more)"}},
		{"replace all", `{"path": "rep.txt", "old_text": "ab", "new_text": "c", "replace_all": true}`, false,
			[]string{"replaced 25000 occurrences (line 1, line 1, line 1, line 1, line 1, line 1, line 1, line 1, line 1, line 1 and 24990 more)"}},
		{"few are all named", `{"path": "two.txt", "old_text": "x", "new_text": "z\nw"}`, true,
			[]string{"(at lines 1, 3)"}},
		{"lines after a multi-line replacement", `{"path": "two.txt", "old_text": "x", "new_text": "z\nw", "replace_all": true}`, false,
			[]string{"(lines 1-2, lines 4-5)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call := decode(t, Options{Root: root}, "edit_file", tt.args)
			ch, err := call.(Planner).Plan(context.Background())
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = ch.Summary
			}
			if (err != nil) != tt.isErr {
				t.Fatalf("error = %v, want an error: %v", err, tt.isErr)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			if len(got) > 400 {
				t.Errorf("%d bytes: the places must be capped", len(got))
			}
		})
	}
}

// TestEditHintSkipsHugeFiles checks that old_text not found in a file
// larger than maxHintFile is said without looking for similar text: the
// search holds several copies of the file (a 300 MB file of one line took
// pincer to 2 GB before the model was told), and a small file still gets
// its hint.
func TestEditHintSkipsHugeFiles(t *testing.T) {
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"huge", bytes.Repeat([]byte("a"), maxHintFile+1), "old_text was not found in f.txt, which is too large (16.0 MiB) to look for similar text; read the part you mean with read_file (offset and limit)"},
		{"small", []byte("alpha\nbeta\n"), "The most similar text is at line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := notFoundHint(context.Background(), tt.file, "betx\n", "f.txt"); !strings.Contains(got, tt.want) {
				t.Errorf("hint %q lacks %q", got[:min(len(got), 300)], tt.want)
			}
		})
	}
}
