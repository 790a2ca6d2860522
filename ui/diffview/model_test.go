package diffview

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/themes"
	"pincer/tools"
)

// bodyTop is the first line of the diff in a view without a note.
const bodyTop = 1

// TestHunkNavigation checks the keys that move between hunks: the hunk
// becomes current and its title is scrolled into view.
func TestHunkNavigation(t *testing.T) {
	steps := []struct {
		key     string
		current int
		title   bool // the current hunk's title is the first line of the diff
	}{
		{"j", 1, true},
		{"]", 2, true},
		{"k", 1, true},
		{"[", 0, true},
		{"k", 0, true},
		{"end", 4, false},
		{"j", 4, false},
		{"home", 0, true},
	}
	m := storeChange(t, 80, 12)
	for _, s := range steps {
		m = press(m, s.key)
		if m.Current() != s.current {
			t.Fatalf("after %q: Current() = %d, want %d", s.key, m.Current(), s.current)
		}
		lines := plainLines(m.View())
		title := findLine(lines, m.d.titles[m.current])
		if title < 0 {
			t.Fatalf("after %q: the title of hunk %d is not in view:\n%s", s.key, m.current+1, strings.Join(lines, "\n"))
		}
		if s.title && title != bodyTop {
			t.Errorf("after %q: the title of hunk %d is on line %d, want %d", s.key, m.current+1, title, bodyTop)
		}
	}
}

// TestGoToHunkScrollsOnlyWhenNeeded checks that moving to a hunk that is
// in view whole leaves the view where it is.
func TestGoToHunkScrollsOnlyWhenNeeded(t *testing.T) {
	m := newModel("f.txt", "a\nb\nc\nd\ne\n", "A\nb\nC\nd\nE\n", 80, 20)
	before := m.View()
	m = press(m, "j", "j")
	if m.Current() != 2 {
		t.Fatalf("Current() = %d, want 2", m.Current())
	}
	after, was := unmarked(plainLines(m.View())), unmarked(plainLines(before))
	if after[bodyTop] != was[bodyTop] {
		t.Errorf("the view scrolled: first line %q, was %q", after[bodyTop], was[bodyTop])
	}
}

// TestScrollFollowsCurrent checks that scrolling the current hunk out of
// view makes a hunk in view current, so that space acts on what shows.
func TestScrollFollowsCurrent(t *testing.T) {
	m := storeChange(t, 80, 8)
	seen := map[int]bool{}
	for i := 0; i < 8; i++ {
		m = press(m, "pgdown")
		seen[m.Current()] = true
		lines := plainLines(m.View())
		marked := slices.ContainsFunc(lines[bodyTop:], func(l string) bool { return strings.HasPrefix(l, currentMark) })
		if !marked {
			t.Fatalf("after %d pages no line of current hunk %d is in view:\n%s", i+1, m.Current()+1, strings.Join(lines, "\n"))
		}
	}
	if len(seen) < 3 {
		t.Errorf("paging to the end made only hunks %v current", seen)
	}
	current := m.Current()
	m = press(m, "space")
	for i := 0; i < m.Hunks(); i++ {
		if m.Accepted(i) != (i != current) {
			t.Errorf("space did not act on the current hunk %d alone: accepted %v", current, m.accepted)
			break
		}
	}
}

// TestScrollKeys checks line, page and wheel scrolling by what reaches the
// first line of the diff.
func TestScrollKeys(t *testing.T) {
	base := storeChange(t, 80, 10)
	all := unmarked(plainLines(storeChange(t, 80, 200).View())[bodyTop:])
	for all[len(all)-1] == "" {
		all = all[:len(all)-1]
	}
	cases := []struct {
		name string
		do   func(Model) Model
		top  int // index in all of the first line shown
	}{
		{"down", func(m Model) Model { return press(m, "down") }, 1},
		{"down up", func(m Model) Model { return press(m, "down", "down", "up") }, 1},
		{"page down", func(m Model) Model { return press(m, "pgdown") }, 8},
		{"page down up", func(m Model) Model { return press(m, "pgdown", "pgdown", "pgup") }, 8},
		{"wheel", func(m Model) Model {
			m, _ = m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
			return m
		}, wheelLines},
		{"up at the top", func(m Model) Model { return press(m, "up") }, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := unmarked(plainLines(tc.do(base).View()))[bodyTop]
			if got != all[tc.top] {
				t.Errorf("first line = %q, want %q", got, all[tc.top])
			}
		})
	}
	end := unmarked(plainLines(press(base, "end").View()))
	if last := all[len(all)-1]; end[len(end)-1] != last && !slices.Contains(end, last) {
		t.Errorf("end does not show the last line %q:\n%s", last, strings.Join(end, "\n"))
	}
}

// TestSelectionKeys checks space, a and r.
func TestSelectionKeys(t *testing.T) {
	cases := []struct {
		keys     []string
		rejected []int
	}{
		{[]string{"space"}, []int{0}},
		{[]string{"space", "space"}, nil},
		{[]string{"j", "space", "j", "j", "space"}, []int{1, 3}},
		{[]string{"r"}, []int{0, 1, 2, 3, 4}},
		{[]string{"r", "a"}, nil},
		{[]string{"r", "j", "space"}, []int{0, 2, 3, 4}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.keys, "+"), func(t *testing.T) {
			m := press(storeChange(t, 80, 20), tc.keys...)
			if _, rejected, total := m.Result(); !slices.Equal(rejected, tc.rejected) || total != 5 {
				t.Errorf("rejected = %v of %d, want %v of 5", rejected, total, tc.rejected)
			}
		})
	}
}

// TestDialogKeysAreIgnored checks that the keys the dialog keeps for itself
// change nothing here, and that the key map does not claim them.
func TestDialogKeysAreIgnored(t *testing.T) {
	m := press(storeChange(t, 80, 20), "j")
	want := m.View()
	for _, k := range []string{"y", "n", "c", "f", "esc", "enter"} {
		msg := keyMsg(k)
		switch k {
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		}
		for _, group := range m.KeyMap.FullHelp() {
			for _, b := range group {
				if key.Matches(msg, b) {
					t.Errorf("binding %q takes the dialog's key %q", b.Help().Desc, k)
				}
			}
		}
		got, cmd := m.Update(msg)
		if cmd != nil || got.View() != want || got.Current() != m.Current() {
			t.Errorf("key %q changed the view", k)
		}
	}
}

// TestKeyMapHelp checks that every binding is listed with its help.
func TestKeyMapHelp(t *testing.T) {
	k := DefaultKeyMap()
	var full []key.Binding
	for _, g := range k.FullHelp() {
		full = append(full, g...)
	}
	all := []key.Binding{k.NextHunk, k.PrevHunk, k.Toggle, k.AcceptAll, k.RejectAll, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Layout, k.Wrap}
	if len(full) != len(all) {
		t.Errorf("FullHelp lists %d bindings, the key map has %d", len(full), len(all))
	}
	for _, b := range append(full, k.ShortHelp()...) {
		if b.Help().Key == "" || b.Help().Desc == "" || len(b.Keys()) == 0 {
			t.Errorf("binding %v lacks keys or help", b.Keys())
		}
	}
}

// TestResizeKeepsPlace checks that the hunk at the top stays there when
// the width changes the layout.
func TestResizeKeepsPlace(t *testing.T) {
	m := press(storeChange(t, 80, 12), "j", "j")
	title := m.d.titles[2]
	for _, w := range []int{160, 100, 80} {
		m.SetSize(w, 12)
		lines := plainLines(m.View())
		if i := findLine(lines, title); i != bodyTop {
			t.Errorf("at width %d the title of hunk 3 is on line %d, want %d:\n%s", w, i, bodyTop, strings.Join(lines, "\n"))
		}
	}
}

// TestSetThemeRedraws checks that drawn lines are not reused across themes.
func TestSetThemeRedraws(t *testing.T) {
	m := storeChange(t, 80, 20)
	dark := m.View()
	m.SetTheme(themes.Light())
	light := m.View()
	if !strings.Contains(dark, bgSGR(themes.Dark().Palette.DiffAddedBg)) {
		t.Error("dark view lacks the dark added background")
	}
	if strings.Contains(light, bgSGR(themes.Dark().Palette.DiffAddedBg)) || !strings.Contains(light, bgSGR(themes.Light().Palette.DiffAddedBg)) {
		t.Error("after SetTheme(Light) the view keeps the dark colours")
	}
}

// TestScrollDrawsOnlyNewRows checks the cache: scrolling draws the rows
// that come into view and no others, and scrolling back draws nothing.
func TestScrollDrawsOnlyNewRows(t *testing.T) {
	before, after := longGoFile(2000)
	m := newModel("long.go", before, after, 120, 40)
	m.View()
	drawn := len(m.c.lines)
	if drawn > 40 {
		t.Fatalf("first view drew %d rows for 40 lines", drawn)
	}
	m = press(m, "down")
	m.View()
	if n := len(m.c.lines); n-drawn > 1 {
		t.Errorf("scrolling one line drew %d rows", n-drawn)
	}
	drawn = len(m.c.lines)
	m = press(m, "up")
	m.View()
	if n := len(m.c.lines); n != drawn {
		t.Errorf("scrolling back drew %d rows", n-drawn)
	}
}

// unmarked drops the marker column from diff lines.
func unmarked(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if strings.HasPrefix(l, currentMark) {
			out[i] = strings.TrimPrefix(l, currentMark)
		} else {
			out[i] = strings.TrimPrefix(l, " ")
		}
	}
	return out
}

// TestPreviewIsNotAReview: a diff shown as a preview (what a rewind will
// change) speaks of no proposal and no accepting: its hunks have no
// label, space does not reject one, and an empty change says the file is
// already so.
func TestPreviewIsNotAReview(t *testing.T) {
	ch := &tools.Change{Path: "a.txt", Rel: "a.txt", Before: []byte("one\ntwo\n"), After: []byte("one\n2\n")}
	m := NewPreview(ch, themes.Dark())
	m.SetSize(80, 12)
	view := ansi.Strip(m.View())
	for _, never := range []string{"accepted", "rejected", "proposal"} {
		if strings.Contains(view, never) {
			t.Errorf("the preview says %q:\n%s", never, view)
		}
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: ' ', Text: " "})
	if !m.Accepted(0) {
		t.Error("space rejected a hunk of a preview")
	}
	same := NewPreview(&tools.Change{Path: "b.txt", Rel: "b.txt", Before: []byte("x\n"), After: []byte("x\n")}, themes.Dark())
	same.SetSize(80, 6)
	if v := ansi.Strip(same.View()); strings.Contains(v, "proposal") || !strings.Contains(v, "already as it will be") {
		t.Errorf("an unchanged file in a preview:\n%s", v)
	}
	// The review itself keeps its words.
	r := New(ch, themes.Dark())
	r.SetSize(80, 12)
	if !strings.Contains(ansi.Strip(r.View()), "accepted") {
		t.Error("the review lost its accepted label")
	}
}
