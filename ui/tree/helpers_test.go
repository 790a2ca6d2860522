package tree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// makeProject creates files under a fresh root; a name ending in "/" is an
// empty directory.
func makeProject(t testing.TB, files ...string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, files...)
	return root
}

func writeFiles(t testing.TB, root string, files ...string) {
	t.Helper()
	for _, name := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		content := "x"
		if filepath.Base(name) == ".gitignore" {
			content = "*.log\nbuild/\n"
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// plainStyles draws no escape codes, so tests can read the pane as text.
func plainStyles() Styles { return Styles{} }

// newPane returns a focused pane of the given size over root with its root
// directory listed.
func newPane(t testing.TB, root string, w, h int) *Model {
	t.Helper()
	m := New(root)
	m.SetStyles(plainStyles())
	m.SetSize(w, h)
	m.Focus()
	drain(t, &m, m.Init())
	return &m
}

// drain runs cmd and every Cmd that follows from it, the way the Bubble Tea
// loop would, and returns the messages the pane did not consume.
func drain(t testing.TB, m *Model, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	var out []tea.Msg
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100 {
			t.Fatal("the pane keeps asking for listings: more than 100 Cmds in a row")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case ListedMsg:
			queue = append(queue, m.Update(msg))
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			out = append(out, msg)
		}
	}
	return out
}

// press sends key presses named like "down", "j", "enter", "ctrl+n" and
// runs what follows from them.
func press(t testing.TB, m *Model, keys ...string) []tea.Msg {
	t.Helper()
	var out []tea.Msg
	for _, k := range keys {
		out = append(out, drain(t, m, m.Update(keyPress(k)))...)
	}
	return out
}

func keyPress(name string) tea.KeyPressMsg {
	special := map[string]rune{
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"enter": tea.KeyEnter, "home": tea.KeyHome, "end": tea.KeyEnd,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "tab": tea.KeyTab, "esc": tea.KeyEscape,
	}
	if code, ok := special[name]; ok {
		return tea.KeyPressMsg{Code: code}
	}
	if rest, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: []rune(rest)[0], Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: []rune(name)[0], Text: name}
}

// lines returns the pane's lines without escape codes and trailing spaces.
func lines(m *Model) []string {
	out := strings.Split(ansi.Strip(m.View()), "\n")
	for i, l := range out {
		out[i] = strings.TrimRight(l, " ")
	}
	return out
}

// body returns the entry lines: the pane without its title and the empty
// lines below the last entry.
func body(m *Model) []string {
	ls := lines(m)[1:]
	for len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// selected returns the selected entry's path, or "" when there is none.
func selected(m *Model) string {
	rel, _, _ := m.Selected()
	return rel
}
