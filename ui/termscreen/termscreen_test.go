package termscreen

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"

	"pincer/ui/termscreen/termscreentest"
)

// fakeClock is a clock that moves only when the test says so.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []fakeTimer
	armed  int // AfterFunc calls so far
}

type fakeTimer struct {
	at time.Time
	f  func()
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed++
	c.timers = append(c.timers, fakeTimer{at: c.now.Add(d), f: f})
}

// advance moves the clock and fires the timers that fell due.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	kept := c.timers[:0]
	for _, t := range c.timers {
		if !t.at.After(c.now) {
			due = append(due, t.f)
		} else {
			kept = append(kept, t)
		}
	}
	c.timers = kept
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

func (c *fakeClock) counts() (armed, waiting int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.armed, len(c.timers)
}

// textModel shows its text; a string message replaces it.
type textModel struct {
	text    string
	updates int
}

func (m *textModel) Init() tea.Cmd { return nil }

func (m *textModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.updates++
	if s, ok := msg.(string); ok {
		m.text = s
	}
	return m, nil
}

func (m *textModel) View() tea.View {
	v := tea.NewView(m.text)
	v.AltScreen = true
	return v
}

// terminal is a pseudo-terminal the program draws on; out collects what
// it writes.
type terminal struct {
	master *os.File
	mu     sync.Mutex
	out    bytes.Buffer
}

func newTerminal(t *testing.T) (*terminal, Options) {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: 10, Cols: 40}); err != nil {
		t.Fatal(err)
	}
	term := &terminal{master: master}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			term.mu.Lock()
			term.out.Write(buf[:n])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { master.Close(); tty.Close() })
	return term, Options{Input: tty, Output: tty, Env: []string{"TERM=xterm-256color"}}
}

// waitFor waits until the terminal has been sent want.
func (term *terminal) waitFor(t *testing.T, want string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		term.mu.Lock()
		got := term.out.String()
		term.mu.Unlock()
		if strings.Contains(got, want) {
			return
		}
	}
	t.Fatalf("the terminal was never sent %q", want)
}

func start(t *testing.T, m tea.Model, clock Clock) (*Program, *terminal, <-chan struct{}) {
	t.Helper()
	term, o := newTerminal(t)
	o.FPS, o.Clock = 10, clock
	p := New(m, o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); p.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return p, term, done
}

// waitFrames waits until the program has drawn n frames.
func waitFrames(t *testing.T, p *Program, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if p.Frames() >= n {
			return
		}
	}
	t.Fatalf("%d frames drawn, want %d", p.Frames(), n)
}

// TestFirstFrameNeedsNoTick: the first frame reaches the terminal while
// the clock stands still; a renderer that writes from a ticker would
// never show it.
func TestFirstFrameNeedsNoTick(t *testing.T) {
	clock := newFakeClock()
	_, term, _ := start(t, &textModel{text: "first frame"}, clock)
	term.waitFor(t, "first frame")
	if armed, _ := clock.counts(); armed != 0 {
		t.Errorf("%d timers were set before the first frame, want none", armed)
	}
}

// TestIdleWakesNothing: once drawn, a screen where nothing changes sets
// no timer and draws no frame, however long the clock runs.
func TestIdleWakesNothing(t *testing.T) {
	clock := newFakeClock()
	m := &textModel{text: "still"}
	p, term, _ := start(t, m, clock)
	term.waitFor(t, "still")
	for range 100 {
		clock.advance(time.Second)
	}
	time.Sleep(50 * time.Millisecond) // room for a stray wake-up to show
	if n := p.Frames(); n != 1 {
		t.Errorf("%d frames after 100 idle seconds, want 1", n)
	}
	if armed, waiting := clock.counts(); armed != 0 || waiting != 0 {
		t.Errorf("an idle screen set %d timers (%d waiting), want none", armed, waiting)
	}
}

// TestFramesAreCappedWhileChangesKeepComing: a change right after a frame
// waits for the cap; a burst of changes costs one frame; after a quiet
// spell a change is drawn at once again.
func TestFramesAreCappedWhileChangesKeepComing(t *testing.T) {
	clock := newFakeClock()
	m := &textModel{text: "one"}
	p, term, _ := start(t, m, clock)
	term.waitFor(t, "one")

	for _, s := range []string{"two", "three", "four"} {
		p.Send(s)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if armed, _ := clock.counts(); armed > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a change right after a frame set no timer")
		}
	}
	time.Sleep(20 * time.Millisecond) // let the rest of the burst arrive
	if n := p.Frames(); n != 1 {
		t.Fatalf("%d frames before the cap's interval was up, want 1", n)
	}
	clock.advance(100 * time.Millisecond)
	waitFrames(t, p, 2)
	term.waitFor(t, "four")
	if armed, _ := clock.counts(); armed != 1 {
		t.Errorf("a burst of 3 changes set %d timers, want 1", armed)
	}

	clock.advance(time.Second) // a quiet spell
	p.Send("five")
	waitFrames(t, p, 3)
	term.waitFor(t, "five")
	if armed, _ := clock.counts(); armed != 1 {
		t.Errorf("a change after a quiet spell waited for a timer (%d set), want it drawn at once", armed)
	}
}

// TestUnchangedViewWritesNothing: an update that leaves the view as it
// was draws no frame.
func TestUnchangedViewWritesNothing(t *testing.T) {
	clock := newFakeClock()
	m := &textModel{text: "same"}
	p, term, done := start(t, m, clock)
	term.waitFor(t, "same")
	clock.advance(time.Second)
	p.Send("same")
	p.Send(tea.Quit()) // handled after "same": the program ends
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the program did not quit")
	}
	if m.updates != 2 {
		t.Fatalf("%d updates, want 2 (the size, then the unchanged text)", m.updates)
	}
	if n := p.Frames(); n != 1 {
		t.Errorf("%d frames for an unchanged view, want 1", n)
	}
}

// TestCommandsRun: Batch and Sequence commands run, Sequence in order, and
// Quit ends Run.
func TestCommandsRun(t *testing.T) {
	m := &seqModel{}
	_, o := newTerminal(t)
	p := New(m, o)
	done := make(chan error, 1)
	go func() { _, err := p.Run(context.Background()); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the program did not quit")
	}
	if got := strings.Join(m.got, " "); got != "a b b c" {
		t.Errorf("sequence ran as %q, want %q (the batch inside it whole before c)", got, "a b b c")
	}
}

type seqModel struct{ got []string }

func say(s string) tea.Cmd { return func() tea.Msg { return s } }

func (m *seqModel) Init() tea.Cmd {
	return tea.Batch(tea.Sequence(say("a"), tea.Batch(say("b"), say("b")), say("c"), tea.Quit))
}

func (m *seqModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(string); ok {
		m.got = append(m.got, s)
	}
	return m, nil
}

func (m *seqModel) View() tea.View { return tea.NewView(strings.Join(m.got, " ")) }

// paneModel is a side pane of fixed lines beside a region that scrolls,
// like the tree beside the transcript.
type paneModel struct {
	first   int           // the number of the region's top line
	at      int           // first, as the last view drew it
	moved   int           // how far the region moved up between the last two views
	claim   int           // when not 0, what ScrollArea says instead of moved
	step    int           // lines the region moves on each string (0: 1)
	margins chan struct{} // closed when a MarginsMsg comes, if not nil
}

func (m *paneModel) Init() tea.Cmd { return nil }

func (m *paneModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case string:
		m.first += max(m.step, 1)
	case MarginsMsg:
		close(m.margins)
	}
	return m, nil
}

func (m *paneModel) View() tea.View {
	m.moved, m.at = m.first-m.at, m.first
	var b strings.Builder
	for y := range 9 {
		// Each line of the region unlike the others, as an answer's are:
		// written again in place, each costs its whole width.
		n := m.first + y
		fmt.Fprintf(&b, "\x1b[1mfile%d\x1b[m │ line %03d %s", y, n, strings.Repeat(string(rune('a'+n%26)), 28))
		b.WriteByte('\n')
	}
	b.WriteString("status")
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

func (m *paneModel) ScrollArea() (image.Rectangle, int) {
	if m.claim != 0 {
		return image.Rect(8, 0, 60, 9), m.claim
	}
	return image.Rect(8, 0, 60, 9), m.moved
}

// TestRegionBesideAPaneScrolls: when the region beside the pane moves up
// a line, the terminal is told to scroll and gets the new line, not
// every line of the region again.
func TestRegionBesideAPaneScrolls(t *testing.T) {
	clock := newFakeClock()
	m := &paneModel{}
	p, term, _ := start(t, m, clock)
	term.waitFor(t, "line 008")
	term.mu.Lock()
	before := term.out.Len()
	term.mu.Unlock()
	clock.advance(time.Second)
	p.Send("next")
	waitFrames(t, p, 2)
	term.waitFor(t, "009 jjjj") // the frame's new line has been read
	term.mu.Lock()
	frame := term.out.String()[before:]
	term.mu.Unlock()
	if !strings.Contains(frame, "\x1b[;9r") {
		t.Errorf("the region was not scrolled: %q", frame)
	}
	// One new line of the region is about 45 bytes; the region written
	// again would be about 9 of them.
	if len(frame) > 200 {
		t.Errorf("a one-line scroll wrote %d bytes, want at most 200: %q", len(frame), frame)
	}
}

// TestRegionScrollsBetweenMargins: on a terminal with left and right
// margins the region scrolls between them, and the pane beside it is not
// written again.
func TestRegionScrollsBetweenMargins(t *testing.T) {
	clock := newFakeClock()
	m := &paneModel{margins: make(chan struct{})}
	p, term, _ := start(t, m, clock)
	term.waitFor(t, "line 008")
	term.master.WriteString("\x1b[?69;2$y") // DECRPM: the mode is known, and reset
	select {
	case <-m.margins:
	case <-time.After(10 * time.Second):
		t.Fatal("the model was not told about the margins")
	}
	// The message asked for a frame, which waits for the cap.
	waitFor(t, "the frame the margins asked for", func() bool { armed, _ := clock.counts(); return armed == 1 })
	term.mu.Lock()
	before := term.out.Len()
	term.mu.Unlock()
	clock.advance(time.Second)
	// That frame changed nothing, but counts for the cap: the next waits.
	p.Send("next")
	waitFor(t, "the next frame", func() bool { armed, _ := clock.counts(); return armed == 2 })
	clock.advance(time.Second)
	term.waitFor(t, "009 jjjj")
	term.mu.Lock()
	frame := term.out.String()[before:]
	term.mu.Unlock()
	for _, want := range []string{"\x1b[9s", "\x1b[;9r", ansi.ScrollUp(1)} {
		if !strings.Contains(frame, want) {
			t.Errorf("the scroll lacks %q: %q", want, frame)
		}
	}
	// The scroll, from setting the margins to putting them back, in the
	// margins' shortest forms: 53 bytes in their full ones.
	from, to := strings.Index(frame, ansi.SetModeLeftRightMargin), strings.LastIndex(frame, "\x1b[r")
	if from < 0 || to < from {
		t.Fatalf("no whole scroll in %q", frame)
	}
	if scroll := frame[from : to+3]; len(scroll) > 40 {
		t.Errorf("the scroll takes %d bytes, want at most 40: %q", len(scroll), scroll)
	}
	if strings.Contains(frame, "file") {
		t.Errorf("the pane beside the region was written again: %q", frame)
	}
}

// TestMarginsInShortForm: a margin at the screen's edge is left out.
func TestMarginsInShortForm(t *testing.T) {
	for _, tc := range []struct {
		first, last, size int
		final             byte
		want              string
	}{
		{1, 41, 45, 'r', "\x1b[;41r"},
		{3, 41, 45, 'r', "\x1b[3;41r"},
		{1, 45, 45, 'r', "\x1b[r"},
		{34, 160, 160, 's', "\x1b[34s"},
		{34, 120, 160, 's', "\x1b[34;120s"},
	} {
		if got := margin(tc.first, tc.last, tc.size, tc.final); got != tc.want {
			t.Errorf("margin(%d, %d, %d, %q) = %q, want %q", tc.first, tc.last, tc.size, tc.final, got, tc.want)
		}
	}
}

// TestScrollTakesTheModelsWord: the program scrolls by what the model
// says moved, and only when the frame agrees; it does not search for a
// shift the model did not name.
func TestScrollTakesTheModelsWord(t *testing.T) {
	for _, tc := range []struct {
		name   string
		claim  int // 0: the truth
		step   int
		scroll bool
	}{
		{"the truth", 0, 1, true},
		{"a wrong distance", 2, 1, false},
		{"no movement", -1, 1, false},
		// Moving the pane's 9 rows costs more than the 2 kept save.
		{"most of the region beside a pane", 0, 7, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := newFakeClock()
			m := &paneModel{claim: tc.claim, step: tc.step}
			p, term, _ := start(t, m, clock)
			term.waitFor(t, "line 008")
			term.mu.Lock()
			before := term.out.Len()
			term.mu.Unlock()
			clock.advance(time.Second)
			p.Send("next")
			waitFrames(t, p, 2)
			frame := term.settled(t)[before:]
			if got := strings.Contains(frame, "\x1b[;9r"); got != tc.scroll {
				t.Errorf("scrolled: %v, want %v: %q", got, tc.scroll, frame)
			}
		})
	}
}

// TestInputIsDrawnAtOnce: a key right after a frame is drawn at once,
// while other changes wait for the frame cap.
func TestInputIsDrawnAtOnce(t *testing.T) {
	clock := newFakeClock()
	m := &textModel{text: "one"}
	p, term, _ := start(t, m, clock)
	term.waitFor(t, "one")
	p.Send("two") // right after the first frame: waits for the cap
	waitFor(t, "the cap's timer", func() bool { armed, _ := clock.counts(); return armed == 1 })
	p.Send(tea.KeyPressMsg{Code: 'x', Text: "x"})
	waitFrames(t, p, 2)
	term.waitFor(t, "two")
	if armed, _ := clock.counts(); armed != 1 {
		t.Errorf("the key waited for a timer (%d set)", armed)
	}
}

// settled is what the terminal has been sent once nothing more arrives
// for a moment.
func (term *terminal) settled(t *testing.T) string {
	t.Helper()
	last := -1
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		term.mu.Lock()
		n := term.out.Len()
		term.mu.Unlock()
		if n == last {
			term.mu.Lock()
			defer term.mu.Unlock()
			return term.out.String()
		}
		last = n
	}
	t.Fatal("the terminal never stopped receiving")
	return ""
}

// deferModel is a textModel that records whether output was deferred
// when each view was drawn.
type deferModel struct {
	textModel
	deferring bool
	views     []bool
}

func (m *deferModel) DeferOutput(on bool) { m.deferring = on }

func (m *deferModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.textModel.Update(msg)
	if k, ok := msg.(tea.KeyPressMsg); ok {
		m.text += k.Text
	}
	return m, nil
}

func (m *deferModel) View() tea.View {
	m.views = append(m.views, m.deferring)
	return m.textModel.View()
}

// TestKeyDefersOutputThatIsDue: a key drawn while a capped frame is due
// asks the model to leave the output for that frame; a key at an idle
// screen does not, and the deferral ends with the key's frame.
func TestKeyDefersOutputThatIsDue(t *testing.T) {
	clock := newFakeClock()
	m := &deferModel{textModel: textModel{text: "one"}}
	p, term, done := start(t, m, clock)
	term.waitFor(t, "one")
	clock.advance(time.Second)
	p.Send(tea.KeyPressMsg{Code: 'a', Text: "a"}) // idle: nothing is due
	term.waitFor(t, "onea")
	p.Send("two") // right after a frame: waits for the cap
	waitFor(t, "the cap's timer", func() bool { armed, _ := clock.counts(); return armed == 1 })
	p.Send(tea.KeyPressMsg{Code: 'b', Text: "b"})
	term.waitFor(t, "twob")
	clock.advance(time.Second) // the capped frame
	waitFor(t, "the capped frame", func() bool { return p.Frames() >= 3 })
	p.Send(tea.Quit())
	<-done
	got := fmt.Sprint(m.views)
	if got != "[false false true]" && got != "[false false true false]" {
		t.Errorf("views drawn deferring output: %s, want only the key's while a frame was due", got)
	}
	if m.deferring {
		t.Error("output is still deferred after the key's frame")
	}
}

// waitFor waits until ok holds.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("waited in vain for %s", what)
}

func TestLinesStandAlone(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  bool
	}{
		{[]string{"plain", "text"}, true},
		{[]string{"\x1b[1mbold\x1b[m", "\x1b[31mred\x1b[0m", "\x1b[32mopen at the end"}, true},
		{[]string{"\x1b[31mred runs on", "into this"}, false},
		{[]string{"\x1b[31mred\x1b[m then \x1b[1mbold", ""}, false},
		{[]string{"\x1b]8;;http://x\x1b\\link", "text"}, false},
	} {
		if got := linesStandAlone(tc.lines); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.lines, got, tc.want)
		}
	}
}

// TestStyleRunsAcrossLines: a line that leaves its style open colours the
// next one, and a change to that next line alone is drawn in it.
func TestStyleRunsAcrossLines(t *testing.T) {
	clock := newFakeClock()
	m := &textModel{text: "\x1b[31mred\nplain"}
	p, term, _ := start(t, m, clock)
	term.waitFor(t, "plain")
	term.mu.Lock()
	before := term.out.Len()
	term.mu.Unlock()
	clock.advance(time.Second)
	p.Send("\x1b[31mred\nplain2")
	waitFrames(t, p, 2)
	out := term.settled(t)
	if frame := out[before:]; !strings.Contains(frame, "2") {
		t.Fatalf("the change was not written: %q", frame)
	}
	// The terminal may still have the pen the last frame left: what
	// counts is the colour the emulated screen shows.
	emu := termscreentest.Emulator(t, 40, 10)
	emu.WriteString(out)
	for x := range 40 {
		if c := emu.CellAt(x, 1); c != nil && c.Content == "2" {
			if !sameColor(c.Style.Fg, ansi.Red) {
				t.Errorf("the changed line lost the style the line before left open: %+v in %q", c.Style, out[before:])
			}
			return
		}
	}
	t.Errorf("no 2 on the second row: %q", out)
}

func TestBlendSpaces(t *testing.T) {
	red := uv.Style{Fg: ansi.Red}
	green := uv.Style{Fg: ansi.Green}
	onBlue := uv.Style{Fg: ansi.Red, Bg: ansi.Blue}
	under := uv.Style{Fg: ansi.Red, Underline: uv.UnderlineSingle}
	plain := uv.Style{}
	cell := func(s string, st uv.Style) uv.Cell { return uv.Cell{Content: s, Width: 1, Style: st} }
	for _, tc := range []struct {
		name string
		line uv.Line
		want []uv.Style // the style of each cell after
	}{
		{"a blank between coloured words takes the word after",
			uv.Line{cell("a", red), cell(" ", red), cell("b", green)},
			[]uv.Style{red, green, green}},
		{"a blank before a background takes the word before",
			uv.Line{cell("a", red), cell(" ", green), cell("b", onBlue)},
			[]uv.Style{red, red, onBlue}},
		{"a blank after a background takes the word after",
			uv.Line{cell("a", onBlue), cell(" ", red), cell("b", green)},
			[]uv.Style{onBlue, green, green}},
		{"a blank next to plain text is plain",
			uv.Line{cell("a", red), cell(" ", red), cell("b", plain), cell(" ", green), cell("c", green)},
			[]uv.Style{red, plain, plain, plain, green}},
		{"a blank with a background keeps it",
			uv.Line{cell("a", red), cell(" ", onBlue), cell("b", green)},
			[]uv.Style{red, onBlue, green}},
		{"an underlined blank keeps its style",
			uv.Line{cell("a", red), cell(" ", under), cell("b", green)},
			[]uv.Style{red, under, green}},
		{"leading and trailing blanks are plain",
			uv.Line{cell(" ", green), cell("a", red), cell(" ", green)},
			[]uv.Style{plain, red, plain}},
		{"between two backgrounds a blank is plain",
			uv.Line{cell("a", onBlue), cell(" ", red), cell("b", onBlue)},
			[]uv.Style{onBlue, plain, onBlue}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blendSpaces(tc.line)
			for i, want := range tc.want {
				if !tc.line[i].Style.Equal(&want) {
					t.Errorf("cell %d: style %+v, want %+v", i, tc.line[i].Style, want)
				}
			}
		})
	}
}

// TestDefaultColoursNeedNoCodes: text in the colours the view made the
// terminal's defaults is drawn without colour codes; other colours stay.
func TestDefaultColoursNeedNoCodes(t *testing.T) {
	fg, bg := color.RGBA{0xd4, 0xd4, 0xd8, 0xff}, color.RGBA{0x18, 0x18, 0x1b, 0xff}
	other := color.RGBA{0xff, 0x00, 0x00, 0xff}
	for _, tc := range []struct {
		profile        colorprofile.Profile
		cellFg, cellBg color.Color
		wantFg, wantBg color.Color
	}{
		{colorprofile.TrueColor, fg, bg, nil, nil},
		{colorprofile.TrueColor, other, bg, other, nil},
		{colorprofile.TrueColor, fg, other, nil, other},
		// In 256 colours the theme's foreground and the nearest palette
		// entry are one colour to the terminal.
		{colorprofile.ANSI256, ansi.IndexedColor(188), nil, nil, nil},
		{colorprofile.ANSI256, ansi.IndexedColor(189), nil, ansi.IndexedColor(189), nil},
	} {
		p := &Program{profile: tc.profile}
		line := uv.Line{{Content: "a", Width: 1, Style: uv.Style{Fg: tc.cellFg, Bg: tc.cellBg}}}
		p.useDefaults(line, p.convert(fg), p.convert(bg))
		if got := line[0].Style; !sameColor(got.Fg, tc.wantFg) || !sameColor(got.Bg, tc.wantBg) {
			t.Errorf("%v: fg %v bg %v became %v %v, want %v %v", tc.profile, tc.cellFg, tc.cellBg, got.Fg, got.Bg, tc.wantFg, tc.wantBg)
		}
	}
}

// viewCounter is a textModel that counts the views worked out.
type viewCounter struct {
	textModel
	mu             sync.Mutex
	views, handled int
}

func (m *viewCounter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.textModel.Update(msg)
	m.mu.Lock()
	m.handled++
	m.mu.Unlock()
	return m, nil
}

func (m *viewCounter) View() tea.View {
	m.mu.Lock()
	m.views++
	m.mu.Unlock()
	return m.textModel.View()
}

func (m *viewCounter) count() (views, handled int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.views, m.handled
}

// TestUnchangedViewCountsForTheCap: output that changes nothing in sight
// (an answer growing below a view that holds still) has its view worked
// out once per frame interval, not once per message.
func TestUnchangedViewCountsForTheCap(t *testing.T) {
	clock := newFakeClock()
	m := &viewCounter{textModel: textModel{text: "one"}}
	p, term, _ := start(t, m, clock)
	term.waitFor(t, "one")
	clock.advance(time.Second) // a quiet spell: the next change may draw at once
	for range 20 {
		p.Send("one") // the same text
	}
	p.Send("two")
	waitFor(t, "the messages handled", func() bool { _, n := m.count(); return n >= 22 })
	if got, _ := m.count(); got > 3 {
		t.Errorf("%d views worked out for 21 messages in one frame interval, want at most 3", got)
	}
	clock.advance(time.Second)
	term.waitFor(t, "two")
}

// dueModel is a textModel that asks the program, while it handles a
// message, how long until output may be drawn, as a command started by
// that message would.
type dueModel struct {
	textModel
	p    *Program
	mu   sync.Mutex
	dues []time.Duration
}

func (m *dueModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.textModel.Update(msg)
	if _, ok := msg.(string); ok && m.p != nil {
		m.mu.Lock()
		m.dues = append(m.dues, m.p.FrameDue())
		m.mu.Unlock()
	}
	return m, nil
}

func (m *dueModel) seen() []time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]time.Duration(nil), m.dues...)
}

// TestOutputAtFrameDueDrawsAtOnce: output handed over when FrameDue says
// is drawn at once, never on the cap's timer (a second wake-up per frame),
// and the frame it makes counts for the cap before the message's commands
// run, so that output they bring waits for the next frame instead of
// arriving a moment too early.
func TestOutputAtFrameDueDrawsAtOnce(t *testing.T) {
	clock := newFakeClock()
	m := &dueModel{textModel: textModel{text: "start"}}
	p, term, _ := start(t, m, clock)
	term.waitFor(t, "start")
	m.mu.Lock()
	m.p = p
	m.mu.Unlock()
	clock.advance(time.Second) // a quiet spell
	if due := p.FrameDue(); due != 0 {
		t.Fatalf("FrameDue after a quiet spell = %v, want 0", due)
	}
	armed0, _ := clock.counts()
	const interval = time.Second / 10 // start's FPS
	for i := range 5 {
		frames := p.Frames()
		p.Send(fmt.Sprintf("piece-%d", i))
		waitFor(t, "the frame", func() bool { return p.Frames() > frames })
		if due := p.FrameDue(); due != interval {
			t.Fatalf("FrameDue after frame %d = %v, want the whole interval %v", i, due, interval)
		}
		clock.advance(interval / 4)
		if due := p.FrameDue(); due != interval*3/4 {
			t.Fatalf("FrameDue a quarter interval on = %v, want %v", due, interval*3/4)
		}
		clock.advance(p.FrameDue()) // the batch waits for the frame, as the bridge does
	}
	if armed, _ := clock.counts(); armed != armed0 {
		t.Errorf("%d frames waited on the cap's timer, want none: output came when FrameDue said", armed-armed0)
	}
	for i, due := range m.seen() {
		if due != interval {
			t.Errorf("while handling output %d, FrameDue = %v, want %v: the frame it makes must count before its commands run", i, due, interval)
		}
	}
}
