package todolist

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"pincer/tools/todo"
)

func list(statuses string) []todo.Item {
	var items []todo.Item
	for i, c := range statuses {
		st := map[rune]todo.Status{'x': todo.Completed, '>': todo.InProgress, '.': todo.Pending}[c]
		items = append(items, todo.Item{Content: fmt.Sprintf("item %d", i+1), Status: st})
	}
	return items
}

func TestWindow(t *testing.T) {
	tests := []struct {
		statuses       string
		rows           int
		from, to       int
		notes          bool
		wantShownFirst bool
	}{
		{"x>.", 5, 0, 3, false, false},
		{"xxxxx>....", 5, 4, 7, true, false},   // one done item for context, the current one, one pending
		{"xxxxxxxx>.", 5, 6, 10, true, false},  // the window reaches the end
		{">.........", 5, 0, 4, true, false},   // at the start
		{"xxxxxxxxxx", 5, 6, 10, true, false},  // all done: the last ones
		{"xx.x......", 5, 1, 4, true, false},   // no item in progress: the first not done
		{"xxxxx>....", 3, 5, 6, true, false},   // three rows: the current one between two notes
		{"xxxxx>....", 2, 5, 7, false, false},  // no room for notes
		{"xxxxxxxxx>", 1, 9, 10, false, false}, // one row: the current one
	}
	for _, tt := range tests {
		from, to, notes := window(list(tt.statuses), tt.rows, true)
		if from != tt.from || to != tt.to || notes != tt.notes {
			t.Errorf("window(%s, %d) = %d, %d, %v; want %d, %d, %v", tt.statuses, tt.rows, from, to, notes, tt.from, tt.to, tt.notes)
		}
		m := New()
		m.Set(list(tt.statuses))
		if got := len(m.itemLines(20, tt.rows, 0, true, true)); got > tt.rows {
			t.Errorf("%s in %d rows draws %d lines", tt.statuses, tt.rows, got)
		}
	}
}

// TestPaneAndBlock: both draw exactly their size, show the marks and the
// progress, keep the item in progress in view, and show foreign text
// without obeying it.
func TestPaneAndBlock(t *testing.T) {
	items := list("xxx>......")
	items[3].Content = "fix \x1b[2Jthe parser"
	m := New()
	m.Set(items)
	pane := m.Pane(30, 8)
	lines := strings.Split(pane, "\n")
	if len(lines) != 8 {
		t.Fatalf("pane has %d lines, want 8:\n%s", len(lines), pane)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != 30 {
			t.Errorf("pane line %d is %d cells wide, want 30: %q", i, w, l)
		}
	}
	plain := ansi.Strip(pane)
	for _, want := range []string{"Tasks 3/10 done", "☑ item 3", "◐ fix ␛[2Jthe parser", "☐ item 5", "… 2 above", "… 4 more"} {
		if !strings.Contains(plain, want) {
			t.Errorf("pane lacks %q:\n%s", want, plain)
		}
	}
	if strings.Contains(pane, "\x1b[2J") {
		t.Error("the pane passes an escape sequence from the model through")
	}

	h := m.BlockHeight(40)
	if h != 5 {
		t.Errorf("BlockHeight(40) = %d, want 5", h)
	}
	block := ansi.Strip(m.Block(60, h))
	if n := strings.Count(block, "\n") + 1; n != h {
		t.Errorf("block has %d lines, want %d:\n%s", n, h, block)
	}
	for _, want := range []string{"Tasks 3/10 done", "☑ item 3", "◐ fix", "☐ item 5", "☐ item 6"} {
		if !strings.Contains(block, want) {
			t.Errorf("block lacks %q:\n%s", want, block)
		}
	}
	if strings.Contains(block, "…") {
		t.Errorf("the block spends its few lines on notes:\n%s", block)
	}
	m.Set(list("xx"))
	if h := m.BlockHeight(40); h != 1 {
		t.Errorf("a finished list takes %d lines above the input, want 1", h)
	}
	if got := ansi.Strip(m.Block(40, 1)); strings.TrimSpace(got) != "Tasks 2/2 done" {
		t.Errorf("finished block %q", got)
	}
	m.Set(nil)
	if m.BlockHeight(40) != 0 || m.PaneHeight(30, 40) != 0 || m.Block(40, 1) != "" {
		t.Error("an empty list takes room")
	}
}

func TestPaneHeight(t *testing.T) {
	m := New()
	m.Set(list("x>."))
	for _, tt := range []struct{ room, want int }{{40, 5}, {11, 5}, {10, 0}, {6, 0}} {
		if got := m.PaneHeight(30, tt.room); got != tt.want {
			t.Errorf("PaneHeight(%d) = %d, want %d", tt.room, got, tt.want)
		}
	}
}

// TestPaneWrapsTheCurrentItem: in a narrow pane the item in progress
// reads whole (up to three lines); the others are cut to one line.
func TestPaneWrapsTheCurrentItem(t *testing.T) {
	m := New()
	m.Set([]todo.Item{
		{Content: "Read the parser and its tests", Status: todo.Completed},
		{Content: "Fix the panic in header parsing", Status: todo.InProgress},
		{Content: "Update the changelog and the release notes", Status: todo.Pending},
	})
	h := m.PaneHeight(20, 40)
	if h != 6 {
		t.Fatalf("PaneHeight = %d, want 6 (rule, title, three items, one more line for the current one)", h)
	}
	got := strings.Split(ansi.Strip(m.Pane(20, h)), "\n")
	want := []string{
		strings.Repeat("─", 20),
		"Tasks 1/3 done      ",
		"☑ Read the parser a…",
		"◐ Fix the panic in  ",
		"  header parsing    ",
		"☐ Update the change…",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pane\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
