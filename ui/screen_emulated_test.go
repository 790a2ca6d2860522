package ui

import (
	"context"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"pincer/agent"
	"pincer/ui/termscreen"
	"pincer/ui/termscreen/termscreentest"
	"pincer/ui/transcript/transcripttest"
)

// recordingApp is the screen's model, keeping the last view it drew so a
// test can compare it with what a terminal shows.
type recordingApp struct {
	*App
	mu   sync.Mutex
	last string
}

func (r *recordingApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := r.App.Update(msg)
	return r, cmd
}

func (r *recordingApp) View() tea.View {
	v := r.App.View()
	r.mu.Lock()
	r.last = v.Content
	r.mu.Unlock()
	return v
}

func (r *recordingApp) lastView() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// emulatedTerminal is a pseudo-terminal whose output goes through a
// terminal emulator.
type emulatedTerminal struct {
	master, tty *os.File
	mu          sync.Mutex
	emu         *vt.Emulator
	raw         strings.Builder
	frozen      bool
}

func newEmulatedTerminal(t *testing.T, w, h int) *emulatedTerminal {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)}); err != nil {
		t.Fatal(err)
	}
	et := &emulatedTerminal{master: master, tty: tty, emu: termscreentest.Emulator(t, w, h)}
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		buf := make([]byte, 32<<10)
		for {
			n, err := master.Read(buf)
			et.mu.Lock()
			if !et.frozen {
				et.emu.Write(buf[:n])
				et.raw.Write(buf[:n])
			}
			et.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { master.Close(); tty.Close(); <-fed }) // before the emulator closes
	return et
}

// settle waits until nothing has arrived for a while; with freeze it
// then stops feeding the emulator (so that what the program writes as it
// ends is not seen).
func (et *emulatedTerminal) settle(t *testing.T, freeze bool) {
	t.Helper()
	last := -1
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(400 * time.Millisecond) {
		et.mu.Lock()
		n := et.raw.Len()
		if n == last {
			et.frozen = freeze
			et.mu.Unlock()
			return
		}
		et.mu.Unlock()
		last = n
	}
	t.Fatal("the terminal never stopped receiving")
}

// rows is the emulated screen as text, one string a row, trailing blanks
// cut.
func (et *emulatedTerminal) rows() []string {
	et.mu.Lock()
	defer et.mu.Unlock()
	out := make([]string, et.emu.Height())
	for y := range out {
		var b strings.Builder
		for x := 0; x < et.emu.Width(); x++ {
			c := et.emu.CellAt(x, y)
			switch {
			case c == nil || c.Content == "":
				if c == nil || c.Width != 0 {
					b.WriteByte(' ')
				}
			default:
				b.WriteString(c.Content)
			}
		}
		out[y] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// viewRows is a view as the rows of text a terminal would show.
func viewRows(content string, w, h int) []string {
	buf := uv.NewScreenBuffer(w, h)
	uv.NewStyledString(content).Draw(buf, buf.Bounds())
	out := make([]string, h)
	for y := range out {
		var b strings.Builder
		for x := 0; x < w; x++ {
			c := buf.CellAt(x, y)
			switch {
			case c == nil || c.Content == "":
				if c == nil || c.Width != 0 {
					b.WriteByte(' ')
				}
			default:
				b.WriteString(c.Content)
			}
		}
		out[y] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// scrollUp is the terminal's scroll up (SU).
var scrollUp = regexp.MustCompile(`\x1b\[[0-9]*S`)

// TestStreamedScreenMatchesItsView streams an answer into the real screen
// on a pseudo-terminal and runs what it writes through a terminal
// emulator: after the answer, the emulated screen must show exactly the
// last frame the screen drew, and so after keys that page the transcript
// and type. The screen moves the transcript with the
// terminal's own scrolling and writes only what is new, so a scroll by a
// wrong distance, in the wrong rows or columns, or a copy of the screen
// that drifted from the terminal's, leaves a screen that differs.
func TestStreamedScreenMatchesItsView(t *testing.T) {
	if testing.Short() {
		t.Skip("streams for a few seconds on a pseudo-terminal")
	}
	for _, tc := range []struct {
		name    string
		w, h    int
		margins bool
		scrolls bool // the terminal scrolls while the answer streams
	}{
		// Beside the tree on a terminal that scrolls whole rows, the
		// transcript steps a page at a time and is drawn anew at each
		// step, never scrolled.
		{"beside the tree, whole rows", 140, 36, false, false},
		{"beside the tree, between margins", 140, 36, true, true},
		{"without the tree", 80, 24, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := &recordingApp{App: newTestApp(t, tc.w, tc.h)}
			term := newEmulatedTerminal(t, tc.w, tc.h)
			p := termscreen.New(app, termscreen.Options{
				FPS: 30, Input: term.tty, Output: term.tty,
				Env: []string{"TERM=xterm-256color", "COLORTERM=truecolor"},
			})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); p.Run(ctx) }()
			defer func() { cancel(); <-done }()
			if tc.margins {
				term.master.WriteString("\x1b[?69;2$y") // DECRPM: left and right margins known
			}
			answer := transcripttest.VariedAnswer(5000)
			for i := 0; i < len(answer); i += 40 {
				p.Send(eventsMsg{agent.TextDelta{Text: answer[i:min(i+40, len(answer))]}})
				time.Sleep(25 * time.Millisecond) // 1.6 KB/s, as a model writes
			}
			term.settle(t, false)
			// Keys after the answer: pages drawn for the person, where
			// the renderer looks for scrolled lines itself.
			for _, k := range []string{"\x1b[5~", "\x1b[5~", "\x1b[6~", "hello"} {
				term.master.WriteString(k)
				time.Sleep(150 * time.Millisecond)
			}
			term.settle(t, true)
			got, want := term.rows(), viewRows(app.lastView(), tc.w, tc.h)
			for y := range want {
				if got[y] != want[y] {
					t.Errorf("row %d shows\n%q\nthe frame has\n%q", y, got[y], want[y])
				}
			}
			term.mu.Lock()
			raw := term.raw.String()
			term.mu.Unlock()
			if tc.scrolls && !scrollUp.MatchString(raw) {
				t.Errorf("the screen never scrolled: the test proves nothing")
			}
		})
	}
}
