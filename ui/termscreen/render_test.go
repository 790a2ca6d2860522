package termscreen

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"

	"pincer/ui/termscreen/termscreentest"
)

// TestFarChangesLeaveTheScreenAsTheFrame: frames whose rows change in
// several places far apart (which render hands over one change at a time)
// and near each other, in styled and plain text, leave a terminal emulator
// showing each frame cell for cell: text, colours and attributes.
func TestFarChangesLeaveTheScreenAsTheFrame(t *testing.T) {
	const w, h = 40, 10 // newTerminal's size
	r := rand.New(rand.NewPCG(3, 5))
	styles := []string{"", "\x1b[1m", "\x1b[38;2;200;100;50m", "\x1b[48;2;30;30;40m", "\x1b[3;38;2;1;2;3m", "\x1b[7m"}
	words := []string{"ab", "cdef", "g", "hij", "世界", "··", "  ", "    ", "------"} // runs the renderer repeats (REP)
	// A row is words in styles; a change replaces one word.
	rows := make([][]string, h)
	for y := range rows {
		for n := 0; n < w/3; n++ {
			rows[y] = append(rows[y], styles[r.IntN(len(styles))]+words[r.IntN(len(words))]+"\x1b[m")
		}
	}
	view := func() string {
		lines := make([]string, h)
		for y, row := range rows {
			lines[y] = strings.Join(row, "")
		}
		return strings.Join(lines, "\n")
	}
	clock := newFakeClock()
	m := &textModel{text: view()}
	term, o := newTerminal(t)
	o.FPS, o.Clock = 10, clock
	o.Env = append(o.Env, "COLORTERM=truecolor") // colours as the view has them
	p := New(m, o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); p.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	// As strict about REP as tmux: see StrictREP.
	emu := &termscreentest.StrictREP{Emu: termscreentest.Emulator(t, w, h)}
	waitFrames(t, p, 1)
	fed := 0
	for n := range 60 {
		if n > 0 {
			was := view()
			for k := 0; k < 1+r.IntN(4) || view() == was; k++ {
				row := rows[r.IntN(h)]
				row[r.IntN(len(row))] = styles[r.IntN(len(styles))] + words[r.IntN(len(words))] + "\x1b[m"
			}
			clock.advance(time.Second)
			p.Send(view())
			waitFrames(t, p, n+1)
		}
		// The frame is written; it may not all have been read yet from a
		// busy machine's pty.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			term.mu.Lock()
			out := term.out.String()
			term.mu.Unlock()
			emu.WriteString(out[fed:])
			fed = len(out)
			diff := cellsDiffer(emu.Emu, view(), w, h)
			if diff == "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("frame %d: %s\nwritten:\n%q", n, diff, out)
			}
		}
	}
}

// TestFarChangesAreWrittenApart: when the spinner at one end of a status
// line and the clock at the other change, the text between them is not
// written again.
func TestFarChangesAreWrittenApart(t *testing.T) {
	status := func(spin, clock string) string {
		return "\x1b[1m" + spin + "\x1b[m streaming · sandbox workspace   \x1b[38;2;1;2;3m" + clock + "\x1b[m"
	}
	clock := newFakeClock()
	m := &textModel{text: status("⠋", "0:01")}
	p, term, _ := start(t, m, clock)
	term.waitFor(t, "0:01")
	before := len(term.settled(t))
	clock.advance(time.Second)
	p.Send(status("⠙", "0:02"))
	waitFrames(t, p, 2)
	term.waitFor(t, "⠙")
	var frame string
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(frame, "2") && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		frame = term.settled(t)[before:]
	}
	if !strings.Contains(frame, "⠙") || !strings.Contains(frame, "2") {
		t.Fatalf("the changes were not written: %q", frame)
	}
	if strings.Contains(frame, "streaming") {
		t.Errorf("the unchanged text between the changes was written again: %q", frame)
	}
}

// cellsDiffer says where the emulated screen differs from a view drawn
// into cells, or "" where it does not. A blank's foreground, boldness and
// slant do not show, and the screen may change them (blendSpaces).
func cellsDiffer(emu *vt.Emulator, view string, w, h int) string {
	want := uv.NewScreenBuffer(w, h)
	uv.NewStyledString(view).Draw(want, want.Bounds())
	for y := range h {
		for x := range w {
			got, c := emu.CellAt(x, y), want.CellAt(x, y)
			gc, gs := " ", uv.Style{}
			if got != nil && got.Content != "" {
				gc, gs = got.Content, got.Style
			} else if got != nil && got.Width == 0 {
				gc = ""
			}
			wc, ws := " ", uv.Style{}
			if c != nil && c.Content != "" {
				wc, ws = c.Content, c.Style
			} else if c != nil && c.Width == 0 {
				wc = ""
			}
			if wc == " " {
				gs, ws = showsOnBlank(gs), showsOnBlank(ws)
			}
			if gc != wc || !gs.Equal(&ws) {
				return fmt.Sprintf("cell (%d, %d) is %q %+v, want %q %+v", x, y, gc, gs, wc, ws)
			}
		}
	}
	return ""
}

// showsOnBlank is the part of a style that shows on a blank.
func showsOnBlank(s uv.Style) uv.Style {
	return uv.Style{Bg: s.Bg, Underline: s.Underline, UnderlineColor: s.UnderlineColor,
		Attrs: s.Attrs & (uv.AttrReverse | uv.AttrStrikethrough | uv.AttrConceal)}
}

// TestTabStopsPutBack: beside a pane the screen sets tab stops where the
// region's lines begin, and when it ends the terminal has its stops every
// 8 columns again, also when it ends right after a resize.
func TestTabStopsPutBack(t *testing.T) {
	for _, resized := range []bool{false, true} {
		t.Run(fmt.Sprint("resized ", resized), func(t *testing.T) { testTabStopsPutBack(t, resized) })
	}
}

func testTabStopsPutBack(t *testing.T, resized bool) {
	clock := newFakeClock()
	m := &paneModel{}
	term, o := newTerminal(t)
	o.FPS, o.Clock = 10, clock
	p := New(m, o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); p.Run(ctx) }()
	term.waitFor(t, "line 008")
	for n := range 3 {
		clock.advance(time.Second)
		p.Send("next")
		waitFrames(t, p, n+2)
	}
	if resized {
		clock.advance(time.Second)
		p.Send(tea.WindowSizeMsg{Width: 39, Height: 10})
		waitFrames(t, p, 5)
	}
	cancel()
	<-done
	term.waitFor(t, "\x1b[?1049l") // the screen is put back
	out := term.settled(t)
	if !strings.Contains(out, "\x1b[3g") {
		t.Fatalf("no tab stops were set: %q", out)
	}
	emu := termscreentest.Emulator(t, 40, 10)
	emu.WriteString(out + "\r")
	for _, want := range []int{8, 16, 24} {
		emu.WriteString("\t")
		if x := emu.CursorPosition().X; x != want {
			t.Fatalf("a tab went to column %d, want %d", x, want)
		}
	}
}

// TestLineStarts: the tab stops go where most rows of the area begin, up
// to maxTabs of them, in ascending order; a column where one row begins,
// the first column, what lies outside the area, and a column where too few
// rows begin to pay for the tab it adds to the rows at the stops right of
// it get none.
func TestLineStarts(t *testing.T) {
	rep := func(n int, row string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = row
		}
		return out
	}
	pad := strings.Repeat(" ", 30) + "│   "
	for _, tc := range []struct {
		name string
		rows []string
		want []int
	}{
		{"text and code beside a pane", []string{"ab │ text", "cd │ text", "   │   code", "   │   code", "   │   code", "   │       inner", "   │       inner"}, []int{5, 7, 11}},
		{"a stop before the most used column pays when enough rows begin there", append(rep(4, "   │ text"), rep(3, "   │   code")...), []int{5, 7}},
		{"a stop before the most used column is dropped when too few rows begin there", slices.Concat(rep(2, "   │ ● x"), rep(10, "   │   text"), rep(4, "   │     code")), []int{7, 9}},
		{"one row alone is no stop", []string{"   │ text", "   │   once"}, nil},
		{"at most maxTabs", []string{"    a", "    a", "     b", "     b", "      c", "      c", "       d", "       d", "        e", "        e", "        e"}, []int{5, 6, 8}},
		{"what lies left of the area is not looked at", []string{"ab", "ab", "  x", "  x"}, nil},
		{"beside a tree", slices.Concat(rep(20, pad+"  text"), rep(6, pad+"    code"), rep(4, pad+"      inner"), rep(3, pad+"        deep")), []int{36, 38, 40, 42}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, area := 20, uv.Rect(4, 0, 16, len(tc.rows))
			if strings.Contains(tc.name, "tree") {
				w, area = 60, uv.Rect(34, 0, 26, len(tc.rows))
			}
			buf := uv.NewScreenBuffer(w, len(tc.rows))
			uv.NewStyledString(strings.Join(tc.rows, "\n")).Draw(buf, buf.Bounds())
			got := lineStarts(buf.RenderBuffer, area, make([]int, w))
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// areaModel is a model whose scrolling area is fixed, for setTabs.
type areaModel struct {
	textModel
	area uv.Rectangle
}

func (m *areaModel) ScrollArea() (uv.Rectangle, int) { return m.area, 0 }

// TestTabStopsMoveWhenItPays: stops set for an earlier view (the prompt
// and the answer's first line beside the tree) are moved when they hold a
// stop left of where the rows in sight begin, which puts each of those
// rows a tab further; stops that serve as well are left alone.
func TestTabStopsMoveWhenItPays(t *testing.T) {
	rep := func(n int, row string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = row
		}
		return out
	}
	pad := strings.Repeat(" ", 30) + "│   "
	answer := slices.Concat(rep(24, pad+"  text"), rep(10, pad+"    code"), rep(6, pad+"        deep"))
	for _, tc := range []struct {
		name string
		had  []int
		rows []string
		want []int // nil: left alone
	}{
		{"a stop before the text's column is dropped", []int{34, 36, 38, 42}, answer, []int{36, 38, 42}},
		{"stops of the view's own are kept", []int{36, 38, 42}, answer, nil},
		{"an extra stop right of them does no harm", []int{36, 38, 42, 50}, answer, nil},
		{"too few stops", []int{36}, answer, []int{36, 38, 42}},
		{"no stops yet", nil, answer, []int{36, 38, 42}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const w = 60
			h := len(tc.rows)
			p := &Program{model: &areaModel{area: uv.Rect(34, 0, w-34, h)}, width: w, height: h, cells: uv.NewScreenBuffer(w, h)}
			uv.NewStyledString(strings.Join(tc.rows, "\n")).Draw(p.cells, p.cells.Bounds())
			p.tabs = slices.Clone(tc.had)
			seq := p.setTabs(5)
			if tc.want == nil {
				if seq != "" || !slices.Equal(p.tabs, tc.had) {
					t.Errorf("the stops %v were moved to %v by %q", tc.had, p.tabs, seq)
				}
				return
			}
			if !slices.Equal(p.tabs, tc.want) || !strings.HasPrefix(seq, "\x1b[3g") {
				t.Fatalf("stops %v set by %q, want %v", p.tabs, seq, tc.want)
			}
			emu := vt.NewEmulator(w, 4)
			emu.WriteString(seq)
			if x := emu.CursorPosition().X; x != 5 {
				t.Errorf("the cursor was left in column %d, want 5", x)
			}
			emu.WriteString("\r")
			for _, c := range tc.want {
				emu.WriteString("\t")
				if x := emu.CursorPosition().X; x != c {
					t.Errorf("a tab went to column %d, want %d", x, c)
				}
			}
			if again := p.setTabs(5); again != "" {
				t.Errorf("set again at once: %q", again)
			}
		})
	}
}
