package tree

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/tools"
)

// awkward holds names that are long, wide, or full of control characters.
var awkward = []string{
	"a_really_long_file_name_that_never_ends.go",
	"文件名很长的文件名很长的文件.go",
	"emoji-🚀-rocket.md",
	"bad\nname.txt",
	"esc\x1b[31mred.txt",
	"tab\there.txt",
	"deep/er/and/deeper/still/going/down/file-at-the-bottom.txt",
}

// expandAll opens every directory on screen, top to bottom.
func expandAll(t *testing.T, m *Model) {
	t.Helper()
	for i := 0; i < len(m.rows); i++ {
		if n := m.rows[i].n; n != nil && n.isDir && !n.expanded {
			drain(t, m, m.expand(n))
		}
	}
}

func TestViewDimensions(t *testing.T) {
	root := makeProject(t, append(append([]string{}, sample...), awkward...)...)
	sizes := [][2]int{{1, 1}, {1, 5}, {2, 3}, {3, 3}, {5, 2}, {12, 6}, {20, 30}, {31, 7}, {80, 40}}
	for _, styles := range []struct {
		name string
		s    Styles
	}{{"plain", plainStyles()}, {"default", DefaultStyles()}, {"layout in styles", layoutStyles()}} {
		for _, focused := range []bool{true, false} {
			for _, size := range sizes {
				w, h := size[0], size[1]
				t.Run(fmt.Sprintf("%s/focus=%v/%dx%d", styles.name, focused, w, h), func(t *testing.T) {
					m := newPane(t, root, w, h)
					m.SetStyles(styles.s)
					expandAll(t, m)
					m.Mark("pkg/a.go", MarkChanged)
					m.Mark("go.mod", MarkRead)
					if !focused {
						m.Blur()
					}
					for _, keys := range [][]string{nil, {"end"}, {"home", "down", "down", "down"}} {
						press(t, m, keys...)
						checkSize(t, m.View(), w, h)
					}
				})
			}
		}
	}
}

// layoutStyles sets what a careless theme might: padding, borders, sizes.
func layoutStyles() Styles {
	s := DefaultStyles()
	s.Title = s.Title.Padding(0, 3).Border(lipgloss.RoundedBorder())
	s.File = s.File.Padding(1, 2).Width(50).Margin(1)
	s.Dir = s.Dir.MaxWidth(3).Height(4)
	s.Cursor = s.Cursor.PaddingLeft(4).Transform(strings.ToUpper)
	s.Changed = s.Changed.Padding(0, 1)
	return s
}

// checkSize fails unless view is exactly h lines of exactly w cells.
func checkSize(t *testing.T, view string, w, h int) {
	t.Helper()
	ls := strings.Split(view, "\n")
	if len(ls) != h {
		t.Fatalf("%d lines, want %d:\n%s", len(ls), h, view)
	}
	for i, l := range ls {
		if got := lipgloss.Width(l); got != w {
			t.Errorf("line %d is %d cells wide, want %d: %q", i, got, w, l)
		}
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("line %d is %d cells by ansi.StringWidth, want %d: %q", i, got, w, l)
		}
	}
}

func TestViewEmptySize(t *testing.T) {
	m := newPane(t, makeProject(t, sample...), 0, 10)
	if v := m.View(); v != "" {
		t.Errorf("width 0 drew %q", v)
	}
	m.SetSize(10, 0)
	if v := m.View(); v != "" {
		t.Errorf("height 0 drew %q", v)
	}
	m.SetSize(-3, -3)
	if v := m.View(); v != "" {
		t.Errorf("negative size drew %q", v)
	}
}

func TestViewTruncatesAndSanitises(t *testing.T) {
	root := makeProject(t, awkward...)
	m := newPane(t, root, 20, 12)
	view := m.View()
	if strings.Contains(view, "\x1b") || strings.Contains(view, "\t") {
		t.Errorf("a control character from a file name reached the screen: %q", view)
	}
	want := map[string]bool{
		"▸ deep/":            true,
		"  a_really_long_f…": true, // 18 cells: 20 less the mark column
		"  bad␊name.txt":     true,
		"  emoji-🚀-rocket…":  true, // the rocket is two cells
		"  esc␛[31mred.txt":  true,
		"  tab here.txt":     true,
	}
	for _, l := range lines(m)[1:] {
		if l == "" {
			continue
		}
		if !want[l] && !strings.HasPrefix(l, "  文件") {
			t.Errorf("unexpected line %q", l)
		}
		delete(want, l)
	}
	for l := range want {
		t.Errorf("missing line %q in\n%s", l, strings.Join(lines(m), "\n"))
	}
	for _, l := range lines(m) {
		if strings.HasPrefix(l, "  文件") && (!strings.HasSuffix(l, "…") || ansi.StringWidth(l) > 18) {
			t.Errorf("the wide name is not cut to 18 cells with …: %q", l)
		}
	}

	// Deep entries: the indentation is cut before the pane overflows.
	expandAll(t, m)
	for _, l := range lines(m) {
		if ansi.StringWidth(l) > 20 {
			t.Errorf("line wider than the pane: %q", l)
		}
	}
}

// entryLine draws an expected entry line of a pane w cells wide: left padded to
// the mark column, then the mark.
func entryLine(w int, left, mark string) string {
	pad := w - markWidth - ansi.StringWidth(left)
	if mark == "" {
		return left + strings.Repeat(" ", pad+markWidth)
	}
	return left + strings.Repeat(" ", pad) + " " + mark
}

func TestViewGolden(t *testing.T) {
	root := filepath.Join(makeProject(t), "pincer")
	writeFiles(t, root, sample...)
	m := newPane(t, root, 28, 10)
	m.Mark("pkg/sub/c.go", MarkChanged)
	m.Mark("pkg/a.go", MarkCreated)
	m.Mark("go.mod", MarkRead)
	m.Mark("docs/guide.md", MarkChanged)
	press(t, m, "down", "down", "right", "down", "right", "down")

	want := strings.Join([]string{
		"pincer" + strings.Repeat(" ", 22),
		entryLine(28, "▸ cmd/", ""),
		entryLine(28, "▸ docs/", "•"),
		entryLine(28, "▾ pkg/", ""),
		entryLine(28, "  ▾ sub/", ""),
		entryLine(28, "      c.go", "●"),
		entryLine(28, "    a.go", "+"),
		entryLine(28, "    b.go", ""),
		entryLine(28, "  .gitignore", ""),
		entryLine(28, "  README.md", ""),
	}, "\n")
	if got := m.View(); got != want {
		t.Errorf("pane:\n%s\nwant\n%s", got, want)
	}
	if s := selected(m); s != "pkg/sub/c.go" {
		t.Errorf("selection %q, want pkg/sub/c.go", s)
	}

	// Scrolled to the end the title stays and go.mod shows its read mark.
	press(t, m, "end")
	got := lines(m)
	if got[0] != "pincer" || got[9] != strings.TrimRight(entryLine(28, "  go.mod", "·"), " ") {
		t.Errorf("scrolled to the end:\n%s", strings.Join(got, "\n"))
	}
}

func TestViewStyles(t *testing.T) {
	root := makeProject(t, sample...)
	m := newPane(t, root, 30, 10)
	styles := Styles{
		Cursor:        lipgloss.NewStyle().Reverse(true),
		CursorBlurred: lipgloss.NewStyle().Underline(true),
		Changed:       lipgloss.NewStyle().Foreground(lipgloss.Yellow),
		Created:       lipgloss.NewStyle().Foreground(lipgloss.Green),
	}
	m.SetStyles(styles)
	m.Mark("go.mod", MarkChanged)
	m.Mark("pkg/a.go", MarkCreated)
	press(t, m, "down")

	const reverse, underline, yellow, green = "\x1b[7m", "\x1b[4m", "\x1b[33m", "\x1b[32m"
	ls := strings.Split(m.View(), "\n")
	for i, l := range ls {
		if got, want := strings.Contains(l, reverse), i == 2; got != want {
			t.Errorf("focused: line %d reversed = %v, want %v: %q", i, got, want, l)
		}
	}
	if !strings.Contains(ls[6], yellow+"●") {
		t.Errorf("the changed mark is not yellow: %q", ls[6])
	}
	if !strings.Contains(ls[3], green+"•") {
		t.Errorf("pkg does not show the created file below it in green: %q", ls[3])
	}
	m.Blur()
	ls = strings.Split(m.View(), "\n")
	for i, l := range ls {
		if strings.Contains(l, reverse) {
			t.Errorf("blurred: line %d still uses the focused cursor: %q", i, l)
		}
		if got, want := strings.Contains(l, underline), i == 2; got != want {
			t.Errorf("blurred: line %d underlined = %v, want %v: %q", i, got, want, l)
		}
	}
}

// Every change to what the pane shows must reach View, cached or not.
func TestViewFollowsEveryChange(t *testing.T) {
	root := makeProject(t, manyFiles(30)...)
	m := newPane(t, root, 20, 8)
	m.SetStyles(Styles{Cursor: lipgloss.NewStyle().Reverse(true)})
	tests := []struct {
		name   string
		change func()
	}{
		{"key", func() { press(t, m, "down") }},
		{"mark", func() { m.Mark("f01", MarkChanged) }},
		{"clear marks", func() { m.ClearMarks() }},
		{"blur", func() { m.SetStyles(Styles{Cursor: lipgloss.NewStyle().Bold(true)}); m.Blur() }},
		{"focus", func() { m.Focus() }},
		{"styles", func() { m.SetStyles(Styles{Cursor: lipgloss.NewStyle().Italic(true)}) }},
		{"scroll", func() { m.Scroll(2) }},
		{"size", func() { m.SetSize(22, 8) }},
		{"click", func() { drain(t, m, m.Click(3)) }},
		{"refresh", func() { remove(t, root, "f05"); drain(t, m, m.Refresh()) }},
	}
	for _, tt := range tests {
		before := m.View()
		tt.change()
		if after := m.View(); after == before {
			t.Errorf("%s: View did not change:\n%s", tt.name, after)
		}
		if again := m.View(); again != m.View() {
			t.Errorf("%s: two Views differ", tt.name)
		}
	}
}

// hugeLister serves a root holding n files and nothing else.
func hugeLister(n int) lister {
	entries := make([]tools.Entry, n)
	for i := range entries {
		name := fmt.Sprintf("file-%05d.go", i)
		entries[i] = tools.Entry{Name: name, Rel: name}
	}
	return func(_, rel string) ([]tools.Entry, error) {
		if rel != "" {
			return nil, nil
		}
		return entries, nil
	}
}

func hugePane(tb testing.TB, n, w, h int) *Model {
	tb.Helper()
	m := New(tb.TempDir())
	m.list = hugeLister(n)
	m.SetStyles(DefaultStyles())
	m.SetSize(w, h)
	m.Focus()
	drain(tb, &m, m.Init())
	return &m
}

func TestHugeDirectory(t *testing.T) {
	m := hugePane(t, 10000, 40, 30)
	checkSize(t, m.View(), 40, 30)
	press(t, m, "end")
	checkSize(t, m.View(), 40, 30)
	if s := selected(m); s != "file-09999.go" {
		t.Errorf("end selects %q", s)
	}
	if got := lines(m)[29]; !strings.HasPrefix(got, "  file-09999.go") {
		t.Errorf("last line %q", got)
	}
}

// BenchmarkView draws a pane whose state changed since the last frame, over
// directories of different sizes: the cost must not grow with the size.
func BenchmarkView(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			m := hugePane(b, n, 40, 45)
			m.moveTo(n / 2)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.changed()
				_ = m.View()
			}
		})
	}
}

// BenchmarkViewIdle draws a pane that did not change: the cached frame.
func BenchmarkViewIdle(b *testing.B) {
	m := hugePane(b, 10000, 40, 45)
	_ = m.View()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.View()
	}
}

// BenchmarkKeyDown moves the selection one line and draws, in a directory
// of 10,000 entries.
func BenchmarkKeyDown(b *testing.B) {
	m := hugePane(b, 10000, 40, 45)
	down, up := keyPress("down"), keyPress("up")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			m.Update(down)
		} else {
			m.Update(up)
		}
		_ = m.View()
	}
}

// BenchmarkApplyListing applies a refreshed listing of 10,000 entries: the
// work after each tool run when such a directory is open.
func BenchmarkApplyListing(b *testing.B) {
	m := hugePane(b, 10000, 40, 45)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		drain(b, m, m.Refresh())
	}
}
