package termscreen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"
)

// TestShortMovesLandWhereLongOnesDo: frames of absolute moves, text
// (ASCII, wide and ambiguous characters, text up to the right edge),
// styles, erasing and a scroll between margins, shown by a terminal
// emulator as written and as shortenMoves rewrites them, leave the same
// screen and the cursor in the same place; and the rewrite is shorter.
func TestShortMovesLandWhereLongOnesDo(t *testing.T) {
	const w, h = 40, 12
	r := rand.New(rand.NewPCG(7, 11))
	words := []string{"abc", "pass", "• item", "│", "世界", "é", "\x1b[1mbold\x1b[m", "\x1b[38;2;1;2;3mcolour\x1b[m", "\x1b[K", "\x1b[3X", "  "}
	saved := 0
	for n := range 300 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			switch k := r.IntN(10); {
			case k < 4:
				fmt.Fprintf(&b, "\x1b[%d;%dH", 1+r.IntN(h), 1+r.IntN(w))
			case k < 8:
				b.WriteString(words[r.IntN(len(words))])
			case k == 8:
				// Up to the right edge: a wrap left pending.
				fmt.Fprintf(&b, "\x1b[%d;%dH%s", 1+r.IntN(h), w-3, "wxyz"[:1+r.IntN(3)])
			default:
				fmt.Fprintf(&b, "\x1b[;%dr\x1b[1;1H\x1b[S\x1b[r", 2+r.IntN(h-2))
			}
		}
		frame := b.String()
		x0, y0 := r.IntN(w), r.IntN(h)
		short := string(shortenMoves([]byte(frame), x0, y0, w, h))
		saved += len(frame) - len(short)
		long, got := vt.NewEmulator(w, h), vt.NewEmulator(w, h)
		start := fmt.Sprintf("\x1b[%d;%dH", y0+1, x0+1)
		long.WriteString(start + frame)
		got.WriteString(start + short)
		if a, b := screenText(long), screenText(got); a != b || long.CursorPosition() != got.CursorPosition() {
			t.Fatalf("frame %d from (%d, %d)\n%q\nrewritten\n%q\nshows\n%s\ncursor %v, want\n%s\ncursor %v", n, x0, y0, frame, short, b, got.CursorPosition(), a, long.CursorPosition())
		}
		if len(short) > len(frame) {
			t.Fatalf("the rewrite of %q is longer: %q", frame, short)
		}
	}
	if saved == 0 {
		t.Error("no move was shortened: the test proves nothing")
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
		{"next line, back to the pane's edge", "words\x1b[14;37H", 59, 12, "words\n\x1b[28D"},
		{"two lines down", "disk.\x1b[27;37H", 74, 24, "disk.\n\n\x1b[43D"},
		{"up a line", "\x1b[12;1H", 5, 12, "\r\x1bM"},
		{"a wide character: the column by a carriage return", "世界\x1b[16;20H", 3, 14, "世界\r\n\x1b[19C"},
		{"cursor not known", "\x1b[16;20H", -1, -1, "\x1b[16;20H"},
		{"at the right edge the wrap may be pending", "ab\x1b[16;20H", 158, 14, "ab\x1b[16;20H"},
		{"margins set", "\x1b[;9r\x1b[2;20H", 3, 4, "\x1b[;9r\x1b[2;20H"},
		{"already short", "\x1b[H", 50, 30, "\x1b[H"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(shortenMoves([]byte(tc.in), tc.x, tc.y, 160, 45)); got != tc.want {
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
