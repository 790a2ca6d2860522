package complete

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func keyPress(name string) tea.KeyPressMsg {
	special := map[string]tea.KeyPressMsg{
		"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown}, "enter": {Code: tea.KeyEnter},
		"tab": {Code: tea.KeyTab}, "shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
		"esc": {Code: tea.KeyEscape}, "pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown},
		"left": {Code: tea.KeyLeft}, "backspace": {Code: tea.KeyBackspace},
		"ctrl+n": {Code: 'n', Mod: tea.ModCtrl}, "ctrl+p": {Code: 'p', Mod: tea.ModCtrl},
	}
	if k, ok := special[name]; ok {
		return k
	}
	return tea.KeyPressMsg{Code: []rune(name)[0], Text: name}
}

var commands = []Item{
	{Value: "clear", Label: "/clear", Detail: "start a new session"},
	{Value: "compact", Label: "/compact", Detail: "summarise the conversation so far"},
	{Value: "help", Label: "/help", Detail: "show the keys"},
	{Value: "model", Label: "/model", Detail: "switch the model"},
	{Value: "quit", Label: "/quit", Detail: "leave pincer"},
}

func TestKeys(t *testing.T) {
	tests := []struct {
		name       string
		query      string
		keys       []string
		wantAction Action // of the last key
		wantItem   string // Value returned with the last key
		wantSel    string // selected afterwards, "" when closed
		open       bool
	}{
		{"enter accepts the best", "", []string{"enter"}, Accepted, "clear", "", false},
		{"tab accepts", "mo", []string{"tab"}, Accepted, "model", "", false},
		{"down moves", "", []string{"down"}, Moved, "", "compact", true},
		{"ctrl+n moves", "", []string{"ctrl+n", "ctrl+n"}, Moved, "", "help", true},
		{"ctrl+p moves back", "", []string{"down", "down", "ctrl+p"}, Moved, "", "compact", true},
		{"shift+tab moves back", "", []string{"down", "shift+tab"}, Moved, "", "clear", true},
		{"up wraps to the last", "", []string{"up"}, Moved, "", "quit", true},
		{"down wraps to the first", "", []string{"down", "down", "down", "down", "down"}, Moved, "", "clear", true},
		{"accept after moving", "", []string{"down", "down", "enter"}, Accepted, "help", "", false},
		{"esc closes", "", []string{"esc"}, Closed, "", "", false},
		{"other keys are the input's", "", []string{"a"}, Ignored, "", "clear", true},
		{"left is the input's", "", []string{"left"}, Ignored, "", "clear", true},
		{"backspace is the input's", "", []string{"backspace"}, Ignored, "", "clear", true},
		{"pgdown stops at the end", "", []string{"pgdown", "pgdown", "pgdown"}, Moved, "", "quit", true},
		{"pgup stops at the start", "", []string{"down", "pgup"}, Moved, "", "clear", true},
		{"no match: enter is the input's", "zzz", []string{"enter"}, Ignored, "", "", true},
		{"no match: esc is the input's", "zzz", []string{"esc"}, Ignored, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New()
			m.SetSize(40, 3)
			m.Open(commands, tt.query)
			var action Action
			var item Item
			for _, k := range tt.keys {
				action, item = m.HandleKey(keyPress(k))
			}
			if action != tt.wantAction || item.Value != tt.wantItem {
				t.Errorf("after %v: %v %q, want %v %q", tt.keys, action, item.Value, tt.wantAction, tt.wantItem)
			}
			sel, _ := m.Selected()
			if !m.IsOpen() {
				sel = Item{}
			}
			if sel.Value != tt.wantSel {
				t.Errorf("after %v the selection is %q, want %q", tt.keys, sel.Value, tt.wantSel)
			}
			if m.IsOpen() != tt.open {
				t.Errorf("after %v IsOpen = %v, want %v", tt.keys, m.IsOpen(), tt.open)
			}
		})
	}
}

func TestClosedPopupIgnoresKeys(t *testing.T) {
	m := New()
	for _, k := range []string{"enter", "tab", "esc", "down", "up"} {
		if a, _ := m.HandleKey(keyPress(k)); a != Ignored {
			t.Errorf("a never opened popup took %s: %v", k, a)
		}
	}
	m.Open(commands, "")
	m.Close()
	if m.Visible() || m.Height() != 0 || m.View() != "" {
		t.Errorf("a closed popup still shows: visible %v, height %d", m.Visible(), m.Height())
	}
	if a, _ := m.HandleKey(keyPress("enter")); a != Ignored {
		t.Errorf("a closed popup took enter: %v", a)
	}
	// Reopening starts at the best match again.
	m.Open(commands, "")
	m.HandleKey(keyPress("down"))
	m.Close()
	m.Open(commands, "")
	if sel, _ := m.Selected(); sel.Value != "clear" {
		t.Errorf("reopened with %q selected", sel.Value)
	}
}

func TestSetQuery(t *testing.T) {
	m := New()
	m.Open(commands, "")
	m.HandleKey(keyPress("down"))
	m.SetQuery("")
	if sel, _ := m.Selected(); sel.Value != "compact" {
		t.Errorf("the same query moved the selection to %q", sel.Value)
	}
	m.SetQuery("q")
	if got := values(m.Results()); !reflect.DeepEqual(got, []string{"quit"}) {
		t.Errorf("q offers %v", got)
	}
	if sel, _ := m.Selected(); sel.Value != "quit" {
		t.Errorf("a new query selects %q, want the best match", sel.Value)
	}
	m.SetQuery("qx")
	if m.Visible() || !m.IsOpen() {
		t.Errorf("no match: visible %v, open %v; want hidden but open", m.Visible(), m.IsOpen())
	}
	if _, ok := m.Selected(); ok {
		t.Error("something is selected with no match")
	}
	m.SetQuery("")
	if m.Total() != len(commands) || !m.Visible() {
		t.Errorf("deleting the query back offers %d items", m.Total())
	}
	if m.Query() != "" {
		t.Errorf("Query() = %q", m.Query())
	}
}

func values(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Value)
	}
	return out
}

func TestSetItemsKeepsQueryAndSelection(t *testing.T) {
	m := New()
	files := fileItems([]string{"a/tree.go", "b/tree.go", "c/tree.go"})
	m.Open(files, "tree")
	m.HandleKey(keyPress("down"))
	if sel, _ := m.Selected(); sel.Value != "b/tree.go" {
		t.Fatalf("setup: selected %q", sel.Value)
	}
	m.SetItems(fileItems([]string{"0/tree.go", "a/tree.go", "b/tree.go", "d/x.go"}))
	if m.Query() != "tree" {
		t.Errorf("SetItems changed the query to %q", m.Query())
	}
	if sel, _ := m.Selected(); sel.Value != "b/tree.go" {
		t.Errorf("SetItems moved the selection to %q", sel.Value)
	}
	if got := values(m.Results()); !reflect.DeepEqual(got, []string{"0/tree.go", "a/tree.go", "b/tree.go"}) {
		t.Errorf("after SetItems: %v", got)
	}
	m.SetItems(fileItems([]string{"z/tree.go"}))
	if sel, _ := m.Selected(); sel.Value != "z/tree.go" {
		t.Errorf("the selected item went; selection %q, want the best", sel.Value)
	}
}

func TestOpenWithAnotherSliceOfTheSameLength(t *testing.T) {
	m := New()
	m.Open(fileItems([]string{"a.go", "b.go"}), "")
	m.Open(fileItems([]string{"c.go", "d.go"}), "")
	if got := values(m.Results()); !reflect.DeepEqual(got, []string{"c.go", "d.go"}) {
		t.Errorf("reopened with new items of the same count, offers %v", got)
	}
	// The same slice with an element changed in place is the caller's
	// business; a new slice is always read.
}

func TestResultsAreCapped(t *testing.T) {
	paths := make([]string, 1000)
	for i := range paths {
		paths[i] = fmt.Sprintf("dir/file%03d.go", i)
	}
	m := New()
	m.Open(fileItems(paths), "file")
	if m.Total() != 1000 || len(m.Results()) != maxResults {
		t.Errorf("total %d, results %d; want 1000 and %d", m.Total(), len(m.Results()), maxResults)
	}
	m.SetQuery("")
	if m.Total() != 1000 || len(m.Results()) != maxResults {
		t.Errorf("empty query: total %d, results %d", m.Total(), len(m.Results()))
	}
}

func TestLoadFiles(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		".gitignore": "*.log\nbuild/\n", "main.go": "x", "z.go": "x", "debug.log": "x",
		"build/out": "x", "pkg/a.go": "x", "pkg/deep/b.go": "x", "a/b.go": "x",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		limit     int
		want      []string
		truncated bool
	}{
		{0, []string{".gitignore", "main.go", "z.go", "a/b.go", "pkg/a.go", "pkg/deep/b.go"}, false},
		{6, []string{".gitignore", "main.go", "z.go", "a/b.go", "pkg/a.go", "pkg/deep/b.go"}, false},
		{2, nil, true},
	}
	for _, tt := range tests {
		msg := LoadFiles(context.Background(), root, tt.limit)().(FilesMsg)
		if msg.Err != nil {
			t.Errorf("limit %d: %v", tt.limit, msg.Err)
		}
		if msg.Truncated != tt.truncated {
			t.Errorf("limit %d: truncated %v, want %v", tt.limit, msg.Truncated, tt.truncated)
		}
		if tt.want != nil && !reflect.DeepEqual(values(msg.Items), tt.want) {
			t.Errorf("limit %d: %v, want %v", tt.limit, values(msg.Items), tt.want)
		}
		if tt.truncated && len(msg.Items) != tt.limit {
			t.Errorf("limit %d: %d items", tt.limit, len(msg.Items))
		}
		if msg.Root != root {
			t.Errorf("Root = %q", msg.Root)
		}
	}

	msg := LoadFiles(context.Background(), filepath.Join(root, "missing"), 0)().(FilesMsg)
	if !errors.Is(msg.Err, fs.ErrNotExist) || !strings.Contains(msg.Err.Error(), "completion") {
		t.Errorf("a missing root gives %v", msg.Err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if msg := LoadFiles(ctx, root, 0)().(FilesMsg); !errors.Is(msg.Err, context.Canceled) {
		t.Errorf("a cancelled load gives %v", msg.Err)
	}
}
