package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeManager is a manager for a project in a temp dir whose .fk files
// the fake server in mode handles.
func fakeManager(t *testing.T, mode string, o Options) (*Manager, string) {
	t.Helper()
	root := t.TempDir()
	o.Root = root
	o.Servers = map[string]ServerConfig{"fake": fakeConfig(t, mode)}
	if o.Wait == 0 {
		o.Wait = 5 * time.Second
	}
	if o.FirstWait == 0 {
		o.FirstWait = o.Wait
	}
	m := New(o)
	t.Cleanup(m.Close)
	return m, root
}

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// edit does what an edit does: shows the manager the content before,
// writes the new one and asks for the diagnostics.
func edit(t *testing.T, m *Manager, path, text string) Report {
	t.Helper()
	before, _ := os.ReadFile(path)
	m.Before(path, before)
	write(t, path, text)
	return m.AfterChange(context.Background(), []string{path})
}

func TestAfterChangeReportsErrorsAndWhichAreNew(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"normal", "noversion", "utf16", "slow"} {
		t.Run(mode, func(t *testing.T) {
			m, root := fakeManager(t, mode, Options{})
			path := filepath.Join(root, "a.fk")
			write(t, path, "package a\nERROR: was there before\n")

			rep := edit(t, m, path, "package a\nERROR: was there before\nx := 1 // ERROR: undefined: foo\nWARN: unused x\nHINT: not shown\n")
			if !rep.Checked() || rep.Errors != 2 || rep.Warnings != 1 || rep.New != 2 {
				t.Fatalf("report = %+v", rep)
			}
			text := rep.Text(0)
			for _, want := range []string{
				"a.fk:3:11: error: undefined: foo [new]",
				"a.fk:2:1: error: was there before\n",
				"a.fk:4:1: warning: unused x [new]",
				"2 errors, 1 warning (2 introduced by this change",
			} {
				if !strings.Contains(text+"\n", want) {
					t.Errorf("text lacks %q:\n%s", want, text)
				}
			}
			if strings.Contains(text, "not shown") {
				t.Errorf("a hint reached the model:\n%s", text)
			}
			if rep.Total != 2 || rep.Label() != "2 errors, 1 warning" {
				t.Errorf("total %d label %q", rep.Total, rep.Label())
			}

			rep = edit(t, m, path, "package a\n")
			if rep.Errors != 0 || rep.Total != 0 || rep.Label() != "no problems" {
				t.Fatalf("after the fix: %+v", rep)
			}
			if text := rep.Text(0); !strings.Contains(text, "no errors in a.fk") {
				t.Errorf("after the fix the model reads %q", text)
			}
		})
	}
}

func TestColumnsCountCharacters(t *testing.T) {
	t.Parallel()
	// "é" is two bytes and one UTF-16 unit; "𝄞" four bytes and two units.
	for _, mode := range []string{"normal", "utf16"} {
		t.Run(mode, func(t *testing.T) {
			m, root := fakeManager(t, mode, Options{})
			path := filepath.Join(root, "a.fk")
			write(t, path, "")
			rep := edit(t, m, path, "é𝄞 ERROR: here\n")
			if len(rep.Items) != 1 {
				t.Fatalf("items %+v", rep.Items)
			}
			// utf-8: the fake counts bytes of the Go string (7); utf-16 it
			// still sends the byte offset, which reads as units clamped
			// to the line: what matters is that utf-8 maps to column 4.
			if mode == "normal" && rep.Items[0].Column != 4 {
				t.Errorf("column %d, want 4", rep.Items[0].Column)
			}
		})
	}
}

func TestByteColumnFromUTF16(t *testing.T) {
	t.Parallel()
	line := []byte("é𝄞x")
	for _, tc := range []struct{ units, bytes int }{{0, 0}, {1, 2}, {3, 6}, {4, 7}, {99, 7}} {
		if got := byteColumn(line, tc.units); got != tc.bytes {
			t.Errorf("byteColumn(%d) = %d, want %d", tc.units, got, tc.bytes)
		}
	}
	if n := utf16Units(line); n != 4 {
		t.Errorf("utf16Units = %d", n)
	}
}

func TestNoServerCostsNothing(t *testing.T) {
	t.Parallel()
	m, root := fakeManager(t, "normal", Options{})
	rep := m.AfterChange(context.Background(), []string{filepath.Join(root, "main.txt"), filepath.Join(root, "README.md")})
	if rep.Checked() || rep.Text(0) != "" || rep.Label() != "" {
		t.Errorf("files of no language got %+v", rep)
	}
	for _, in := range m.Servers() {
		if in.State != StateIdle {
			t.Errorf("%s started: %+v", in.Language, in)
		}
	}
	var none *Manager
	if rep := none.AfterChange(context.Background(), []string{"x.go"}); rep.Checked() {
		t.Error("a nil manager reported")
	}
}

func TestMissingProgramIsNotStarted(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	m := New(Options{Root: root, Servers: map[string]ServerConfig{"go": {Command: "no-such-gopls-xyz", Extensions: []string{".go"}}}})
	defer m.Close()
	path := filepath.Join(root, "a.go")
	write(t, path, "package a\n")
	rep := m.AfterChange(context.Background(), []string{path})
	if rep.Checked() {
		t.Errorf("report from a missing server: %+v", rep)
	}
	in := m.Servers()[0]
	if in.State != StateMissing || !strings.Contains(in.Reason, "not on PATH") {
		t.Errorf("info %+v", in)
	}
}

// A server that crashes, hangs or talks garbage is started again a few
// times, then left off with one notice; no call waits longer than Wait.
func TestFailingServersAreLeftOffWithOneNotice(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"crash", "hang", "garbage"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel() // each mode waits on its own server's timeouts
			m, root := fakeManager(t, mode, Options{Wait: 3 * time.Second, StartTimeout: 300 * time.Millisecond, MaxRestarts: 2})
			path := filepath.Join(root, "a.fk")
			write(t, path, "package a\n")
			var notices []string
			for i := 0; i < 6; i++ {
				start := time.Now()
				rep := m.AfterChange(context.Background(), []string{path})
				if took := time.Since(start); took > 4*time.Second {
					t.Errorf("call %d took %v", i, took)
				}
				if rep.Errors > 0 {
					t.Errorf("call %d reported errors: %+v", i, rep)
				}
				notices = append(notices, rep.Notices...)
				// Let the manager notice the death before the next call.
				time.Sleep(100 * time.Millisecond)
			}
			notices = append(notices, m.Notices()...)
			if len(notices) != 1 || !strings.Contains(notices[0], "leaves it off") {
				t.Fatalf("notices %q", notices)
			}
			in := m.Servers()[0]
			if in.State != StateOff || in.Restarts != 3 {
				t.Errorf("info %+v", in)
			}
		})
	}
}

func TestHugeDiagnosticListsStayInBudget(t *testing.T) {
	t.Parallel()
	m, root := fakeManager(t, "huge", Options{Wait: 20 * time.Second})
	path := filepath.Join(root, "a.fk")
	write(t, path, "")
	rep := edit(t, m, path, "ERROR: mine\n")
	if rep.Errors != maxPerFile {
		t.Fatalf("errors %d", rep.Errors)
	}
	text := rep.Text(1000)
	if len(text) > 1000 || !strings.Contains(text, "more not shown") {
		t.Errorf("text of %d bytes:\n%s", len(text), text)
	}
}

// TestSilentServerLeavesFilesPending: a server that is up but never
// publishes, and one still starting when the wait runs out (a busy
// machine), both leave the file pending and say so, rather than an empty
// report the model would read as "not checked".
func TestSilentServerLeavesFilesPending(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"silent", "slowstart"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			m, root := fakeManager(t, mode, Options{Wait: 400 * time.Millisecond})
			path := filepath.Join(root, "a.fk")
			write(t, path, "")
			rep := edit(t, m, path, "ERROR: x\n")
			if len(rep.Pending) != 1 || rep.Errors != 0 {
				t.Fatalf("report %+v", rep)
			}
			if text := rep.Text(0); !strings.Contains(text, "none arrived in time for a.fk") {
				t.Errorf("text %q", text)
			}
		})
	}
}

func TestRefreshReportsFilesChangedOnDisk(t *testing.T) {
	t.Parallel()
	m, root := fakeManager(t, "normal", Options{})
	a, b := filepath.Join(root, "a.fk"), filepath.Join(root, "b.fk")
	write(t, a, "")
	write(t, b, "")
	edit(t, m, a, "ok\n")
	edit(t, m, b, "ok\n")
	if rep := m.Refresh(context.Background()); rep.Checked() {
		t.Errorf("nothing changed, yet %+v", rep)
	}
	// A command changes b behind pincer's back.
	time.Sleep(10 * time.Millisecond)
	write(t, b, "ok\nERROR: broken by sed\n")
	rep := m.Refresh(context.Background())
	if len(rep.Files) != 1 || rep.Files[0] != "b.fk" || rep.Errors != 1 || rep.New != 1 {
		t.Fatalf("refresh %+v", rep)
	}
	if got := m.Problems(); got["b.fk"] != 1 || len(got) != 1 {
		t.Errorf("problems %v", got)
	}
}

// TestRefreshTellsOfFilesACommandMade: a command creates, changes and
// deletes files the server never had open; the server is told of each,
// and the new file's errors are reported like an edit's.
func TestRefreshTellsOfFilesACommandMade(t *testing.T) {
	t.Parallel()
	m, root := fakeManager(t, "normal", Options{})
	a, gone, other := filepath.Join(root, "a.fk"), filepath.Join(root, "gone.fk"), filepath.Join(root, "other.fk")
	write(t, a, "")
	write(t, gone, "ok\n")
	write(t, other, "ok\n")
	write(t, filepath.Join(root, "notes.txt"), "not a fake file\n")
	edit(t, m, a, "ok\n")
	sl := m.slots["fake"]
	waitFor(t, "the files on disk to be recorded", func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return sl.disk != nil
	})
	if rep := m.Refresh(context.Background()); rep.Checked() {
		t.Errorf("nothing changed, yet %+v", rep)
	}
	// A command writes a new file, rewrites one and deletes one.
	time.Sleep(10 * time.Millisecond)
	created := filepath.Join(root, "sub", "new.fk")
	if err := os.MkdirAll(filepath.Dir(created), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, created, "ERROR: made by a command\n")
	write(t, other, "ok\nWARN: changed by a command\n")
	write(t, filepath.Join(root, "notes.txt"), "changed, but no server's\n")
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	rep := m.Refresh(context.Background())
	if strings.Join(rep.Files, " ") != "other.fk sub/new.fk" || rep.Errors != 1 || rep.Warnings != 1 {
		t.Fatalf("refresh %+v", rep)
	}
	var got []fileChange
	if err := sl.srv.call(context.Background(), "fake/watched", nil, &got); err != nil {
		t.Fatal(err)
	}
	want := []fileChange{{fileURI(gone), fileDeleted}, {fileURI(other), fileChanged}, {fileURI(created), fileCreated}}
	if !slices.Equal(got, want) {
		t.Errorf("the server was told %v, want %v", got, want)
	}
	// pincer's own edit of a file is not taken for a command's next time.
	edit(t, m, created, "ok now\n")
	if rep := m.Refresh(context.Background()); rep.Checked() {
		t.Errorf("only pincer's edit happened, yet %+v", rep)
	}
}

func TestCloseEndsServers(t *testing.T) {
	t.Parallel()
	m, root := fakeManager(t, "normal", Options{})
	path := filepath.Join(root, "a.fk")
	write(t, path, "")
	edit(t, m, path, "ok\n")
	m.mu.Lock()
	srv := m.slots["fake"].srv
	m.mu.Unlock()
	if srv == nil {
		t.Fatal("no server")
	}
	done := make(chan struct{})
	go func() { m.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hung")
	}
	if srv.alive() {
		t.Error("the connection still stands")
	}
	if rep := m.AfterChange(context.Background(), []string{path}); rep.Checked() {
		t.Error("a closed manager still checks")
	}
}

func TestReportTextBudget(t *testing.T) {
	t.Parallel()
	rep := Report{Servers: []string{"gopls"}, Files: []string{"a.go"}, Baseline: true}
	for i := 0; i < 50; i++ {
		rep.Items = append(rep.Items, Item{Path: "a.go", Line: i + 1, Column: 1, Severity: SeverityError, Message: strings.Repeat("m", 300), New: true})
	}
	for i := 0; i < 20; i++ {
		rep.Items = append(rep.Items, Item{Path: "a.go", Line: i + 1, Column: 1, Severity: SeverityWarning, Message: "w"})
	}
	rep.Errors, rep.Warnings, rep.New = 50, 20, 50
	for _, budget := range []int{300, 1000, 2000} {
		text := rep.Text(budget)
		if len(text) > budget {
			t.Errorf("budget %d: %d bytes", budget, len(text))
		}
		if !strings.Contains(text, "more not shown") {
			t.Errorf("budget %d: the cut is not said:\n%s", budget, text)
		}
	}
}

func TestOversizeMessagesAreRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, input string
		ok          bool
	}{
		{"fits", "Content-Length: 2\r\n\r\n{}", true},
		{"body too long", "Content-Length: 200\r\n\r\n{\"x\":\"" + strings.Repeat("a", 190) + "\"}", false},
		{"endless header", strings.Repeat("garbage without a line break ", 20), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &capped{r: strings.NewReader(tc.input), max: 100}
			var v map[string]any
			err := cappedCodec{in: in}.ReadObject(bufio.NewReader(in), &v)
			if (err == nil) != tc.ok {
				t.Errorf("err = %v", err)
			}
		})
	}
}

func TestItemJSONNamesTheSeverity(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(Item{Path: "a.go", Line: 1, Column: 2, Severity: SeverityWarning, Message: "m", New: true})
	if err != nil || string(b) != `{"path":"a.go","line":1,"column":2,"message":"m","new":true,"severity":"warning"}` {
		t.Errorf("%s %v", b, err)
	}
}

func TestPlans(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, "go.mod"), "module x\n")
	onPath := map[string]bool{"gopls": true, "pyright-langserver": true}
	look := func(name string) (string, error) {
		if onPath[name] {
			return "/bin/" + name, nil
		}
		return "", os.ErrNotExist
	}
	servers := Merge(Defaults(), map[string]ServerConfig{"c": {Disabled: true}, "zig": {Command: "zls", Extensions: []string{".zig"}, Origin: "~/.config/pincer/config.json"}})
	plans := Plans(root, servers, look)
	got := map[string]Plan{}
	for _, p := range plans {
		got[p.Language] = p
	}
	if plans[0].Language != "go" || !plans[0].Project || plans[0].Path != "/bin/gopls" || plans[0].Reason != "" {
		t.Errorf("first plan %+v, want the project's go", plans[0])
	}
	for _, tc := range []struct {
		lang, command, reason string
	}{
		{"python", "pyright-langserver --stdio", ""}, // the first alternative on PATH
		{"c", "clangd", "disabled in the configuration"},
		{"rust", "rust-analyzer", "rust-analyzer is not on PATH"},
		{"zig", "zls", "zls is not on PATH"},
	} {
		p := got[tc.lang]
		if strings.Join(p.Command, " ") != tc.command || p.Reason != tc.reason || p.Project {
			t.Errorf("%s: %+v", tc.lang, p)
		}
	}
	if got["zig"].Origin != "~/.config/pincer/config.json" || got["go"].Origin != "built in" {
		t.Errorf("origins %q %q", got["zig"].Origin, got["go"].Origin)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// waitFor polls cond for up to ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: it never happened", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
