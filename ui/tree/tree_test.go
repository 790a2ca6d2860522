package tree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"pincer/tools"
)

// sample is the project most tests use. app.log and build/ are ignored by
// the .gitignore that writeFiles writes.
var sample = []string{
	".gitignore", "README.md", "go.mod", "app.log", "build/out.bin",
	"cmd/pincer/main.go", "docs/guide.md",
	"pkg/a.go", "pkg/b.go", "pkg/sub/c.go", "pkg/sub/debug.log",
}

// sampleTop is how the top level of sample looks.
var sampleTop = []string{
	"▸ cmd/",
	"▸ docs/",
	"▸ pkg/",
	"  .gitignore",
	"  README.md",
	"  go.mod",
}

func TestListingIsLazyAndInCmds(t *testing.T) {
	root := makeProject(t, sample...)
	var calls []string
	m := New(root)
	m.SetStyles(plainStyles())
	m.SetSize(30, 12)
	m.Focus()
	m.list = func(root, rel string) ([]tools.Entry, error) {
		calls = append(calls, rel)
		return tools.ListDir(root, rel)
	}

	cmd := m.Init()
	if len(calls) != 0 {
		t.Fatalf("Init read the disk itself: %v", calls)
	}
	if got := body(&m); !reflect.DeepEqual(got, []string{"loading…"}) {
		t.Errorf("before the listing arrives the pane shows %q, want loading…", got)
	}
	drain(t, &m, cmd)
	if !reflect.DeepEqual(calls, []string{""}) {
		t.Errorf("Init listed %q, want only the root", calls)
	}
	if got := body(&m); !reflect.DeepEqual(got, sampleTop) {
		t.Errorf("top level =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(sampleTop, "\n"))
	}

	// Expanding pkg (third line) reads pkg alone, and only in the Cmd.
	calls = nil
	m.Update(keyPress("down"))
	m.Update(keyPress("down"))
	cmd = m.Update(keyPress("right"))
	if len(calls) != 0 {
		t.Fatalf("Update read the disk: %v", calls)
	}
	if cmd == nil {
		t.Fatal("expanding an unread directory returned no Cmd")
	}
	drain(t, &m, cmd)
	if !reflect.DeepEqual(calls, []string{"pkg"}) {
		t.Errorf("expanding pkg listed %q, want only pkg", calls)
	}

	// Collapsing and expanding again needs no new listing.
	calls = nil
	press(t, &m, "left", "right")
	if len(calls) != 0 {
		t.Errorf("expanding an already read directory listed %q again", calls)
	}
}

func TestExpandCollapse(t *testing.T) {
	root := makeProject(t, sample...)
	tests := []struct {
		name string
		keys []string
		want []string
		sel  string
	}{
		{"start", nil, sampleTop, "cmd"},
		{"right expands", []string{"down", "down", "right"}, []string{
			"▸ cmd/", "▸ docs/", "▾ pkg/", "  ▸ sub/", "    a.go", "    b.go",
			"  .gitignore", "  README.md", "  go.mod",
		}, "pkg"},
		{"enter toggles open", []string{"down", "down", "enter"}, []string{
			"▸ cmd/", "▸ docs/", "▾ pkg/", "  ▸ sub/", "    a.go", "    b.go",
			"  .gitignore", "  README.md", "  go.mod",
		}, "pkg"},
		{"enter toggles closed", []string{"down", "down", "enter", "enter"}, sampleTop, "pkg"},
		{"nested, ignored file hidden", []string{"end", "up", "up", "up", "right", "right", "right"}, []string{
			"▸ cmd/", "▸ docs/", "▾ pkg/", "  ▾ sub/", "      c.go", "    a.go", "    b.go",
			"  .gitignore", "  README.md", "  go.mod",
		}, "pkg/sub"},
		{"left collapses an open dir", []string{"right", "left"}, sampleTop, "cmd"},
		{"left on a child goes to its parent", []string{"right", "right", "left"}, []string{
			"▾ cmd/", "  ▸ pincer/", "▸ docs/", "▸ pkg/", "  .gitignore", "  README.md", "  go.mod",
		}, "cmd"},
		{"collapse keeps the inner state", []string{"right", "right", "right", "up", "left", "right"}, []string{
			"▾ cmd/", "  ▾ pincer/", "      main.go", "▸ docs/", "▸ pkg/", "  .gitignore", "  README.md", "  go.mod",
		}, "cmd"},
		{"right on an open dir moves to its first child", []string{"right", "right"}, []string{
			"▾ cmd/", "  ▸ pincer/", "▸ docs/", "▸ pkg/", "  .gitignore", "  README.md", "  go.mod",
		}, "cmd/pincer"},
		{"right on a file does nothing", []string{"end", "right"}, sampleTop, "go.mod"},
		{"left at the top level does nothing", []string{"end", "left"}, sampleTop, "go.mod"},
		{"vim keys", []string{"j", "j", "l", "j", "l", "k"}, []string{
			"▸ cmd/", "▸ docs/", "▾ pkg/", "  ▾ sub/", "      c.go", "    a.go", "    b.go",
			"  .gitignore", "  README.md", "  go.mod",
		}, "pkg"},
		{"vim h collapses", []string{"j", "j", "l", "j", "l", "k", "h"}, sampleTop, "pkg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newPane(t, root, 30, 20)
			press(t, m, tt.keys...)
			got := body(m)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("after %v:\n%s\nwant\n%s", tt.keys, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if s := selected(m); s != tt.sel {
				t.Errorf("after %v the selection is %q, want %q", tt.keys, s, tt.sel)
			}
		})
	}
}

func TestNavigationBounds(t *testing.T) {
	root := makeProject(t, manyFiles(50)...)
	tests := []struct {
		keys      []string
		sel       string
		wantFirst string // first entry line drawn
	}{
		{nil, "f00", "  f00"},
		{[]string{"up"}, "f00", "  f00"},
		{[]string{"k", "k"}, "f00", "  f00"},
		{[]string{"down"}, "f01", "  f00"},
		{[]string{"end"}, "f49", "  f40"},
		{[]string{"G"}, "f49", "  f40"},
		{[]string{"end", "down"}, "f49", "  f40"},
		{[]string{"end", "home"}, "f00", "  f00"},
		{[]string{"end", "g"}, "f00", "  f00"},
		{[]string{"pgdown"}, "f09", "  f00"}, // 10 entry lines: a page moves 9
		{[]string{"pgdown", "pgdown"}, "f18", "  f09"},
		{[]string{"pgdown", "pgdown", "pgup"}, "f09", "  f09"},
		{[]string{"pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown"}, "f49", "  f40"},
		{[]string{"end", "pgup", "pgup", "pgup", "pgup", "pgup", "pgup"}, "f00", "  f00"},
		{[]string{"down", "down", "down", "down", "down", "down", "down", "down", "down", "down"}, "f10", "  f01"},
	}
	for _, tt := range tests {
		m := newPane(t, root, 20, 11)
		press(t, m, tt.keys...)
		if s := selected(m); s != tt.sel {
			t.Errorf("after %v the selection is %q, want %q", tt.keys, s, tt.sel)
		}
		if first := lines(m)[1]; first != tt.wantFirst {
			t.Errorf("after %v the first line is %q, want %q", tt.keys, first, tt.wantFirst)
		}
		if m.cursor < m.offset || m.cursor >= m.offset+m.bodyHeight() {
			t.Errorf("after %v the selection (row %d) is off screen (rows %d..%d)", tt.keys, m.cursor, m.offset, m.offset+m.bodyHeight()-1)
		}
	}
}

// manyFiles returns n file names f00, f01, ….
func manyFiles(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("f%02d", i)
	}
	return out
}

func TestEnterOnFileSelects(t *testing.T) {
	root := makeProject(t, sample...)
	tests := []struct {
		keys []string
		want []tea.Msg
	}{
		{[]string{"right", "right", "right", "down", "enter"}, []tea.Msg{SelectMsg{Path: "cmd/pincer/main.go"}}},
		{[]string{"end", "enter"}, []tea.Msg{SelectMsg{Path: "go.mod"}}},
		{[]string{"enter"}, nil}, // a directory opens instead
		{[]string{"right", "down", "enter", "enter"}, nil},
	}
	for _, tt := range tests {
		m := newPane(t, root, 30, 20)
		got := press(t, m, tt.keys...)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("after %v the pane sent %v, want %v", tt.keys, got, tt.want)
		}
	}
}

func TestKeysIgnoredWithoutFocus(t *testing.T) {
	root := makeProject(t, sample...)
	m := newPane(t, root, 30, 20)
	m.Blur()
	before := lines(m)
	for _, k := range []string{"down", "right", "enter", "end"} {
		if cmd := m.Update(keyPress(k)); cmd != nil {
			t.Errorf("%s without focus returned a Cmd", k)
		}
	}
	if got := lines(m); !reflect.DeepEqual(got, before) {
		t.Errorf("keys changed an unfocused pane:\n%s", strings.Join(got, "\n"))
	}
	if m.Focused() {
		t.Error("Focused() after Blur")
	}
	m.Focus()
	press(t, m, "down")
	if s := selected(m); s != "docs" {
		t.Errorf("after Focus, down selects %q, want docs", s)
	}
}

func TestClickAndScroll(t *testing.T) {
	root := makeProject(t, sample...)
	m := newPane(t, root, 30, 20)
	drain(t, m, m.Click(3)) // line 3 is pkg: the title is line 0
	if s := selected(m); s != "pkg" {
		t.Fatalf("click on line 3 selected %q, want pkg", s)
	}
	if got := lines(m)[4]; got != "  ▸ sub/" {
		t.Errorf("click on a directory did not open it: line 4 is %q", got)
	}
	for _, line := range []int{0, -1, 19, 40} {
		if cmd := m.Click(line); cmd != nil || selected(m) != "pkg" {
			t.Errorf("click on line %d changed the pane (selection %q)", line, selected(m))
		}
	}

	small := newPane(t, makeProject(t, manyFiles(30)...), 20, 6)
	small.Scroll(3)
	if got := lines(small)[1]; got != "  f03" {
		t.Errorf("after scrolling 3 the first line is %q, want f03", got)
	}
	if s := selected(small); s != "f00" {
		t.Errorf("scrolling moved the selection to %q", s)
	}
	small.Scroll(100)
	if got := lines(small)[1]; got != "  f25" {
		t.Errorf("scrolling past the end shows %q first, want f25", got)
	}
	small.Scroll(-100)
	if got := lines(small)[1]; got != "  f00" {
		t.Errorf("scrolling past the top shows %q first, want f00", got)
	}
}

func TestMarks(t *testing.T) {
	root := makeProject(t, sample...)
	type mark struct {
		path string
		kind MarkKind
	}
	tests := []struct {
		name  string
		marks []mark
		keys  []string
		want  map[string]string // line prefix → its last cell
	}{
		{"changed file inside a collapsed dir marks the dir",
			[]mark{{"pkg/sub/c.go", MarkChanged}}, nil,
			map[string]string{"▸ pkg/": "•", "▸ cmd/": "", "  go.mod": ""}},
		{"an expanded dir hands the mark down to the collapsed child",
			[]mark{{"pkg/sub/c.go", MarkChanged}}, []string{"down", "down", "right"},
			map[string]string{"▾ pkg/": "", "  ▸ sub/": "•", "    a.go": ""}},
		{"the file itself shows the full mark",
			[]mark{{"pkg/sub/c.go", MarkChanged}, {"pkg/a.go", MarkCreated}}, []string{"down", "down", "right", "down", "right"},
			map[string]string{"▾ pkg/": "", "  ▾ sub/": "", "      c.go": "●", "    a.go": "+"}},
		{"created beats changed below a dir",
			[]mark{{"pkg/sub/c.go", MarkChanged}, {"pkg/a.go", MarkCreated}}, nil,
			map[string]string{"▸ pkg/": "•"}},
		{"reads mark the file but not its dirs",
			[]mark{{"docs/guide.md", MarkRead}, {"go.mod", MarkRead}}, nil,
			map[string]string{"▸ docs/": "", "  go.mod": "·"}},
		{"a stronger mark wins and a weaker one does not undo it",
			[]mark{{"go.mod", MarkCreated}, {"go.mod", MarkChanged}, {"go.mod", MarkRead}, {"README.md", MarkRead}, {"README.md", MarkChanged}}, nil,
			map[string]string{"  go.mod": "+", "  README.md": "●"}},
		{"absolute paths inside the root work, others are ignored",
			[]mark{{filepath.Join(root, "go.mod"), MarkChanged}, {filepath.Join(filepath.Dir(root), "x", "go.mod"), MarkCreated}, {"../go.mod", MarkCreated}, {"", MarkChanged}}, nil,
			map[string]string{"  go.mod": "●"}},
		{"paths are cleaned",
			[]mark{{"./pkg//sub/../a.go", MarkChanged}}, nil,
			map[string]string{"▸ pkg/": "•"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newPane(t, root, 24, 20)
			for _, mk := range tt.marks {
				m.Mark(mk.path, mk.kind)
			}
			press(t, m, tt.keys...)
			got := map[string]string{}
			for _, l := range strings.Split(m.View(), "\n")[1:] {
				r := []rune(l) // every glyph here is one cell wide
				name := strings.TrimRight(string(r[:len(r)-markWidth]), " ")
				if _, ok := tt.want[name]; ok {
					got[name] = strings.TrimSpace(string(r[len(r)-markWidth:]))
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("marks %v:\n%s\ngot %q, want %q", tt.marks, m.View(), got, tt.want)
			}
		})
	}
}

func TestMarkOfAndClear(t *testing.T) {
	m := New(t.TempDir())
	m.Mark("a/b/c.go", MarkChanged)
	m.Mark("a/d.go", MarkRead)
	m.Mark("r/x.go", MarkRead)
	tests := []struct {
		rel        string
		own, below MarkKind
	}{
		{"a/b/c.go", MarkChanged, MarkNone},
		{"a/b", MarkNone, MarkChanged},
		{"a", MarkNone, MarkChanged},
		{"a/d.go", MarkRead, MarkNone},
		{"x", MarkNone, MarkNone},
		{"r", MarkNone, MarkNone}, // reads do not climb
	}
	for _, tt := range tests {
		own, below := m.MarkOf(tt.rel)
		if own != tt.own || below != tt.below {
			t.Errorf("MarkOf(%q) = %v, %v; want %v, %v", tt.rel, own, below, tt.own, tt.below)
		}
	}
	m.ClearMarks()
	if own, below := m.MarkOf("a/b/c.go"); own != MarkNone || below != MarkNone {
		t.Errorf("after ClearMarks: %v, %v", own, below)
	}
	if own, below := m.MarkOf("a"); own != MarkNone || below != MarkNone {
		t.Errorf("after ClearMarks the dir keeps %v, %v", own, below)
	}
}

func TestRefresh(t *testing.T) {
	tests := []struct {
		name    string
		keys    []string
		change  func(t *testing.T, root string)
		after   []string // keys pressed after the refresh
		want    []string
		sel     string
		selLine int // line of the selection on screen, title = 0
	}{
		{"new file appears, expansion and selection kept",
			[]string{"down", "down", "right", "down", "right", "down"},
			func(t *testing.T, root string) { writeFiles(t, root, "pkg/sub/b.go", "pkg/aa.go") }, nil,
			[]string{"▸ cmd/", "▸ docs/", "▾ pkg/", "  ▾ sub/", "      b.go", "      c.go", "    a.go", "    aa.go", "    b.go", "  .gitignore", "  README.md", "  go.mod"},
			"pkg/sub/c.go", 6},
		{"deleted file goes, the selection moves to what took its place",
			[]string{"down", "down", "right", "down", "down"},
			func(t *testing.T, root string) { remove(t, root, "pkg/a.go") }, nil,
			[]string{"▸ cmd/", "▸ docs/", "▾ pkg/", "  ▸ sub/", "    b.go", "  .gitignore", "  README.md", "  go.mod"},
			"pkg/b.go", 5},
		{"deleted expanded directory goes with its children",
			[]string{"down", "down", "right", "down", "right"},
			func(t *testing.T, root string) { remove(t, root, "pkg/sub") }, nil,
			[]string{"▸ cmd/", "▸ docs/", "▾ pkg/", "    a.go", "    b.go", "  .gitignore", "  README.md", "  go.mod"},
			"pkg/a.go", 4},
		{"newly ignored files go",
			[]string{"end"},
			func(t *testing.T, root string) {
				if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\nbuild/\ndocs/\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}, nil,
			[]string{"▸ cmd/", "▸ pkg/", "  .gitignore", "  README.md", "  go.mod"},
			"go.mod", 5},
		{"a directory open under a collapsed one is read again when shown",
			[]string{"right", "right", "right", "up", "left"},
			func(t *testing.T, root string) { writeFiles(t, root, "cmd/pincer/new.go") }, []string{"right"},
			[]string{"▾ cmd/", "  ▾ pincer/", "      main.go", "      new.go", "▸ docs/", "▸ pkg/", "  .gitignore", "  README.md", "  go.mod"},
			"cmd", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := makeProject(t, sample...)
			m := newPane(t, root, 30, 20)
			press(t, m, tt.keys...)
			tt.change(t, root)
			drain(t, m, m.Refresh())
			press(t, m, tt.after...)
			if got := body(m); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("after refresh:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if s := selected(m); s != tt.sel {
				t.Errorf("selection %q, want %q", s, tt.sel)
			}
			if line := m.cursor - m.offset + 1; line != tt.selLine {
				t.Errorf("selection on line %d, want %d", line, tt.selLine)
			}
		})
	}
}

func remove(t *testing.T, root, rel string) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
}

func TestRefreshKeepsScreenPosition(t *testing.T) {
	root := makeProject(t, manyFiles(40)...)
	m := newPane(t, root, 20, 11)
	press(t, m, "pgdown", "pgdown", "down", "down") // f20, scrolled
	line := m.cursor - m.offset
	firstBefore := lines(m)[1]
	writeFiles(t, root, "a-new-first-file")
	drain(t, m, m.Refresh())
	if s := selected(m); s != "f20" {
		t.Fatalf("selection %q after refresh, want f20", s)
	}
	if got := m.cursor - m.offset; got != line {
		t.Errorf("the selection moved from screen line %d to %d", line, got)
	}
	if got := lines(m)[1]; got != firstBefore {
		t.Errorf("the first line changed from %q to %q; the view must not jump", firstBefore, got)
	}

	// Scrolled away from the selection: the scroll position stays.
	m.Scroll(15)
	offset := m.offset
	if m.cursor >= offset {
		t.Fatalf("setup: selection %d is still on screen at offset %d", m.cursor, offset)
	}
	writeFiles(t, root, "b-new")
	drain(t, m, m.Refresh())
	if m.offset != offset {
		t.Errorf("offset %d after refresh, want %d", m.offset, offset)
	}
}

func TestStaleListingIsDropped(t *testing.T) {
	root := makeProject(t, sample...)
	m := newPane(t, root, 30, 20)
	first := m.Refresh()
	second := m.Refresh()
	writeFiles(t, root, "zz-new")
	newer := second().(ListedMsg)
	remove(t, root, "zz-new")
	older := first().(ListedMsg)
	if older.Seq >= newer.Seq {
		t.Fatalf("the second Refresh has Seq %d, the first %d", newer.Seq, older.Seq)
	}
	m.Update(newer)
	m.Update(older) // arrives late: must not undo the newer listing
	if got := body(m); got[len(got)-1] != "  zz-new" {
		t.Errorf("a late, older listing overwrote a newer one:\n%s", strings.Join(got, "\n"))
	}
	if cmd := m.Update(ListedMsg{Root: "/elsewhere", Seq: 99, Dirs: []Listing{{Rel: ""}}}); cmd != nil || len(body(m)) != 7 {
		t.Errorf("a listing for another root changed the pane:\n%s", strings.Join(body(m), "\n"))
	}
}

func TestListingErrors(t *testing.T) {
	root := makeProject(t, sample...)
	fail := map[string]error{}
	m := New(root)
	m.SetStyles(plainStyles())
	m.SetSize(60, 20)
	m.Focus()
	m.list = func(root, rel string) ([]tools.Entry, error) {
		if err := fail[rel]; err != nil {
			return nil, fmt.Errorf("list %s: %w", rel, err)
		}
		return tools.ListDir(root, rel)
	}
	drain(t, &m, m.Init())
	fail["docs"] = fs.ErrPermission
	fail["cmd"] = errors.New("input/output error")
	press(t, &m, "right", "down", "down", "right")
	want := []string{
		"▾ cmd/", "  cannot read: list cmd: input/output error",
		"▾ docs/", "  cannot read: permission denied",
		"▸ pkg/", "  .gitignore", "  README.md", "  go.mod",
	}
	if got := body(&m); !reflect.DeepEqual(got, want) {
		t.Errorf("errors shown as\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Nothing retries on its own; Refresh does.
	if cmd := m.Update(keyPress("up")); cmd != nil {
		t.Error("moving the selection asked for a listing")
	}
	delete(fail, "docs")
	drain(t, &m, m.Refresh())
	if got := body(&m)[3]; got != "    guide.md" {
		t.Errorf("after the error cleared, line 3 is %q, want guide.md", got)
	}

	// The root itself unreadable.
	fail[""] = fs.ErrNotExist
	drain(t, &m, m.Refresh())
	if got := body(&m); !reflect.DeepEqual(got, []string{"cannot read: it no longer exists"}) {
		t.Errorf("an unreadable root shows %q", got)
	}
	if _, _, ok := m.Selected(); ok {
		t.Error("a note line is selectable as an entry")
	}
}

func TestEmptyProject(t *testing.T) {
	m := newPane(t, makeProject(t), 20, 4)
	if got := body(m); !reflect.DeepEqual(got, []string{"no files"}) {
		t.Errorf("an empty project shows %q", got)
	}
	for _, k := range []string{"down", "up", "end", "home", "left", "right", "enter", "pgdown", "pgup"} {
		if msgs := press(t, m, k); len(msgs) != 0 {
			t.Errorf("%s in an empty project sent %v", k, msgs)
		}
	}
}

// Files a language server reports errors in are marked ✗ over any other
// mark, and so is each collapsed directory above one; the next report
// replaces the last.
func TestProblemMarks(t *testing.T) {
	root := makeProject(t, sample...)
	tests := []struct {
		name     string
		problems []map[string]int
		keys     []string
		want     map[string]string
	}{
		{"a broken file marks its collapsed dir",
			[]map[string]int{{"pkg/sub/c.go": 2}}, nil,
			map[string]string{"▸ pkg/": "✗", "▸ cmd/": "", "  go.mod": "●"}},
		{"an expanded dir hands the mark down",
			[]map[string]int{{"pkg/a.go": 1}}, []string{"down", "down", "right"},
			map[string]string{"▾ pkg/": "", "    a.go": "✗"}},
		{"the problem wins over the change mark",
			[]map[string]int{{"go.mod": 1}}, nil,
			map[string]string{"  go.mod": "✗"}},
		{"the fix clears the mark",
			[]map[string]int{{"go.mod": 1, "pkg/a.go": 3}, {}}, nil,
			map[string]string{"  go.mod": "●", "▸ pkg/": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newPane(t, root, 24, 20)
			m.Mark("go.mod", MarkChanged)
			for _, p := range tt.problems {
				m.SetProblems(p)
			}
			press(t, m, tt.keys...)
			got := map[string]string{}
			for _, l := range strings.Split(m.View(), "\n")[1:] {
				r := []rune(l)
				name := strings.TrimRight(string(r[:len(r)-markWidth]), " ")
				if _, ok := tt.want[name]; ok {
					got[name] = strings.TrimSpace(string(r[len(r)-markWidth:]))
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s\ngot %q, want %q", m.View(), got, tt.want)
			}
		})
	}
}
