package termscreen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"
)

// TestShortMovesLandWhereLongOnesDo: frames of absolute and relative
// moves (carriage returns, line feeds, backspaces, reverse index, moves by
// rows, columns and to a column or a row), text (ASCII, wide and
// ambiguous characters, text up to the right edge), styles, erasing and a
// scroll between margins, shown by a terminal emulator as written and as
// shortenMoves rewrites them (with and without tab stops of its own),
// leave the same screen and the cursor in the same place; and the rewrite
// is shorter.
func TestShortMovesLandWhereLongOnesDo(t *testing.T) {
	const w, h = 40, 12
	r := rand.New(rand.NewPCG(7, 11))
	words := []string{"abc", "pass", "• item", "│", "世界", "é", "\x1b[1mbold\x1b[m", "\x1b[38;2;1;2;3mcolour\x1b[m", "\x1b[K", "\x1b[3X", "  "}
	moves := []string{"\r", "\n", "\b", "\x1bM", "\x1b[A", "\x1b[2B", "\x1b[3C", "\x1b[4D", "\x1b[9G", "\x1b[5d", "\r\n", "\n\x1b[6D"}
	saved, tabbed := 0, 0
	for n := range 600 {
		var b strings.Builder
		for range 1 + r.IntN(14) {
			switch k := r.IntN(12); {
			case k < 3:
				fmt.Fprintf(&b, "\x1b[%d;%dH", 1+r.IntN(h), 1+r.IntN(w))
			case k < 5:
				b.WriteString(moves[r.IntN(len(moves))])
			case k < 10:
				b.WriteString(words[r.IntN(len(words))])
			case k == 10:
				// Up to the right edge: a wrap left pending.
				fmt.Fprintf(&b, "\x1b[%d;%dH%s", 1+r.IntN(h), w-3, "wxyz"[:1+r.IntN(3)])
			default:
				fmt.Fprintf(&b, "\x1b[;%dr\x1b[1;1H\x1b[S\x1b[r", 2+r.IntN(h-2))
			}
		}
		frame := b.String()
		var tabs []int
		setup := ""
		if n%2 == 1 {
			// Stops of the screen's own, as setTabs sets them.
			tabs = []int{3 + r.IntN(10)}
			if r.IntN(2) == 0 {
				tabs = append(tabs, tabs[0]+1+r.IntN(8))
			}
			setup = "\x1b[3g"
			for _, c := range tabs {
				setup += fmt.Sprintf("\x1b[%dG\x1bH", c+1)
			}
		}
		x0, y0 := r.IntN(w), r.IntN(h)
		short := string(shortenMoves([]byte(frame), x0, y0, w, h, tabs))
		saved += len(frame) - len(short)
		if strings.Contains(short, "\t") {
			tabbed++
		}
		long, got := vt.NewEmulator(w, h), vt.NewEmulator(w, h)
		start := fmt.Sprintf("%s\x1b[%d;%dH", setup, y0+1, x0+1)
		long.WriteString(start + frame)
		got.WriteString(start + short)
		if a, b := screenText(long), screenText(got); a != b || long.CursorPosition() != got.CursorPosition() {
			t.Fatalf("frame %d from (%d, %d), tabs %v\n%q\nrewritten\n%q\nshows\n%s\ncursor %v, want\n%s\ncursor %v", n, x0, y0, tabs, frame, short, b, got.CursorPosition(), a, long.CursorPosition())
		}
		if len(short) > len(frame) {
			t.Fatalf("the rewrite of %q is longer: %q", frame, short)
		}
	}
	if saved == 0 || tabbed == 0 {
		t.Errorf("%d bytes saved, %d frames moved by tabs: the test proves little", saved, tabbed)
	}
}

// TestShortMoves: what a move to the start of the next line beside a pane
// becomes, and where the cursor is not certain enough to rewrite.
func TestShortMoves(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		x, y     int
		want     string
	}{
		{"next line, back to the pane's edge", "words\x1b[14;37H", 59, 12, "words\n\x1b[37G"},
		{"next line, to a tab stop", "words\x1b[14;37H", 59, 12, "words\r\n\t"},
		{"a relative move made shorter", "words\n\x1b[28D", 59, 12, "words\r\n\t"},
		{"a run of moves made one", "x\r\x1b[3B\x1b[36C\x1bM", 10, 3, "x\n\n\t"},
		{"to the second stop", "\x1b[5;39H", 80, 3, "\r\n\t\t"},
		{"not a stop: no tab", "\x1b[5;40H", 80, 3, "\n\x1b[40G"},
		{"a line feed on the last row scrolls: left alone", "\n\x1b[5D", 10, 44, "\n\x1b[5D"},
		{"two lines down", "disk.\x1b[27;37H", 74, 24, "disk.\n\n\x1b[37G"},
		{"up a line", "\x1b[12;1H", 5, 12, "\r\x1bM"},
		{"a wide character: the column by an absolute one", "世界\x1b[16;20H", 3, 14, "世界\n\x1b[20G"},
		{"cursor not known", "\x1b[16;20H", -1, -1, "\x1b[16;20H"},
		{"at the right edge the wrap may be pending", "ab\x1b[16;20H", 158, 14, "ab\x1b[16;20H"},
		{"margins set", "\x1b[;9r\x1b[2;20H", 3, 4, "\x1b[;9r\x1b[2;20H"},
		{"already short", "\x1b[H", 50, 30, "\x1b[H"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tabs []int
			if strings.Contains(tc.name, "tab") || strings.Contains(tc.name, "stop") || strings.Contains(tc.name, "shorter") || strings.Contains(tc.name, "run") {
				tabs = []int{36, 38}
			}
			if got := string(shortenMoves([]byte(tc.in), tc.x, tc.y, 160, 45, tabs)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func screenText(e *vt.Emulator) string {
	var b strings.Builder
	for y := range e.Height() {
		for x := range e.Width() {
			c := e.CellAt(x, y)
			if c == nil || c.Content == "" {
				b.WriteByte(' ')
				continue
			}
			fmt.Fprintf(&b, "%s", c.Content)
			if !c.Style.IsZero() {
				b.WriteString("\x00")
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestParam: parameters are read by position, and a missing, empty, zero
// or unreadable one gives the default.
func TestParam(t *testing.T) {
	for _, c := range []struct {
		params string
		n, def int
		want   int
	}{
		{"", 0, 1, 1},
		{"5", 0, 1, 5},
		{"5;12", 1, 1, 12},
		{"5;12", 2, 7, 7},
		{";12", 0, 1, 1},
		{"5;", 1, 1, 1},
		{"0;3", 0, 1, 1},
		{"38:5:1", 0, 1, 1},
		{"2;38;5;196", 3, 1, 196},
	} {
		if got := param([]byte(c.params), c.n, c.def); got != c.want {
			t.Errorf("param(%q, %d, %d) = %d, want %d", c.params, c.n, c.def, got, c.want)
		}
	}
}

// BenchmarkParam measures reading a colour's parameters, which
// shortenMoves does for every control sequence of a frame.
func BenchmarkParam(b *testing.B) {
	params := []byte("38;2;120;200;80")
	b.ReportAllocs()
	for b.Loop() {
		_ = param(params, 0, 1)
	}
}
