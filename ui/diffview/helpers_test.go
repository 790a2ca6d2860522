package diffview

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/themes"
	"pincer/tools"
)

// newModel builds a model of the change from before to after, sized.
func newModel(rel, before, after string, w, h int) Model {
	m := New(&tools.Change{Rel: rel, Path: "/work/" + rel, Before: []byte(before), After: []byte(after)}, themes.Dark())
	m.SetSize(w, h)
	return m
}

// only accepts hunk i alone.
func only(m Model, i int) Model {
	for k := 0; k < m.Hunks(); k++ {
		m.SetAccepted(k, k == i)
	}
	return m
}

func press(m Model, keys ...string) Model {
	for _, k := range keys {
		m, _ = m.Update(keyMsg(k))
	}
	return m
}

// keyMsg builds the key press message for a key name as bubbles writes it.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	r, _ := utf8.DecodeRuneInString(k)
	return tea.KeyPressMsg{Code: r, Text: k}
}

// checkFrame asserts the shape of a view: exactly h lines, each exactly w
// cells wide, and no control characters but colour sequences.
func checkFrame(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), h, ansi.Strip(view))
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("line %d is %d cells wide, want %d: %q", i, got, w, ansi.Strip(l))
		}
		plain := ansi.Strip(l)
		for _, r := range plain {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Errorf("line %d has control character %U: %q", i, r, plain)
			}
		}
	}
}

// plainLines is the view without colours, its lines right-trimmed.
func plainLines(view string) []string {
	lines := strings.Split(ansi.Strip(view), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// findLine returns the index of the first plain line containing s, or -1.
func findLine(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

// longGoFile is a Go source of n numbered functions, and a version of it
// with every tenth function changed, for scrolling and benchmarks.
func longGoFile(n int) (before, after string) {
	var b, a strings.Builder
	b.WriteString("package long\n\n")
	a.WriteString("package long\n\n")
	for i := 0; i < n; i++ {
		line := "func f" + strconv.Itoa(i) + "() int { return " + strconv.Itoa(i) + " } // a comment to make the line longer\n"
		b.WriteString(line)
		if i%10 == 5 {
			a.WriteString("// f" + strconv.Itoa(i) + " now doubles.\nfunc f" + strconv.Itoa(i) + "() int { return 2 * " + strconv.Itoa(i) + " }\n")
			continue
		}
		a.WriteString(line)
	}
	return b.String(), a.String()
}
