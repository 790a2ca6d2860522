// Package termscreen runs a Bubble Tea model on the terminal and draws a frame
// only when something changed: the first frame goes out at once, so does
// the first frame after a quiet spell, and while changes keep coming the
// frames are capped at a rate. With nothing changing nothing wakes: no
// frame ticker, no polls.
//
// Bubble Tea's own Program writes frames from a ticker that runs for the
// life of the program, so its first frame waits for a tick and an idle
// screen still wakes at the frame rate. This package drives the same
// tea.Model (Init, Update, View, commands) on ultraviolet's terminal:
// input decoding, raw mode, window size, and the cell diffing that keeps
// what is written to the terminal small.
package termscreen

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"os"
	"os/signal"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// Clock is the time the frame cap is measured in; tests pass a fake one.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once after d, on a goroutine of its own.
	AfterFunc(d time.Duration, f func())
}

type realClock struct{}

func (realClock) Now() time.Time                      { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) { time.AfterFunc(d, f) }

// Options configure a Program.
type Options struct {
	// FPS caps the frames a second while changes keep coming (0: 30).
	FPS int
	// Input and Output are the terminal; nil is the process's own
	// (standard input and output, or the controlling terminal when they
	// are not one).
	Input, Output uv.File
	// Env is the environment the terminal is known by (TERM and so on);
	// nil is the process's.
	Env []string
	// Clock measures the frame cap; nil is the real clock.
	Clock Clock
}

// ScrollArea is what a model tells the program when its view has a
// region that scrolls as a block beside parts that stay put (a
// transcript beside a side pane): when the region's lines have moved up,
// the program moves them with the terminal's own scrolling and writes
// only what is new, instead of writing the whole region again.
type ScrollArea interface {
	// ScrollArea returns the region, and how many lines its content moved
	// up since the view before (0 when it did not move up). The program
	// checks the frame against it before it scrolls.
	ScrollArea() (area uv.Rectangle, moved int)
}

// OutputDeferrer is a model that can leave output that keeps coming (an
// answer streaming) out of a frame drawn for the person's input while the
// next capped frame is due anyway: the echo of a key then costs what it
// costs at an idle prompt, and the output follows in its own frame.
type OutputDeferrer interface {
	DeferOutput(on bool)
}

// MarginsMsg tells the model that the terminal can scroll a part of its
// width (it has left and right margins, DECSLRM): a ScrollArea beside
// other content then scrolls without moving that content. Until it
// comes, and on terminals that never send it (tmux among them), a
// scroll moves whole rows, and what stands beside the area is drawn
// again after it.
type MarginsMsg struct{}

// Program runs one model on one terminal.
type Program struct {
	model    tea.Model
	opts     Options
	clock    Clock
	interval time.Duration
	msgs     chan tea.Msg
	errs     chan error
	done     chan struct{}

	in, out uv.File
	env     uv.Environ
	rend    *uv.TerminalRenderer
	buf     bytes.Buffer     // what the next write sends
	cells   uv.ScreenBuffer  // the frame being drawn
	shown   *uv.RenderBuffer // the frame on the terminal, for finding scrolls
	changed []bool           // rows of the frame being drawn that differ from the last
	// The last frame's lines, and whether each stood alone (see
	// linesStandAlone).
	lastLines []string
	lastAlone bool
	sync      bool // the terminal takes synchronized output (mode 2026)
	margins   bool // the terminal scrolls between left and right margins (DECSLRM)
	profile   colorprofile.Profile

	width  int
	height int
	// next is when the cap next lets output be drawn: an interval after
	// the last frame's work began. nextFrame is the same as nanoseconds
	// since start (on the monotonic clock), for FrameDue, which other
	// goroutines call.
	next      time.Time
	start     time.Time
	nextFrame atomic.Int64
	pending   bool // a frame is due when the cap allows
	drawn     bool // a frame has been written
	lastView  tea.View
	frames    atomic.Int64
	keyboards bool // the keyboard protocols were pushed
	// tabs are the tab stops set on the terminal, ascending, where lines
	// of the scrolling area most often begin; nil when they are not known
	// (the terminal's own, or after a resize).
	tabs []int
	// tabsMoved says the terminal's tab stops are not its own: setTabs
	// moved them, and they are put back at the end (after a resize too,
	// where tabs is forgotten but a terminal may keep the stops).
	tabsMoved bool
	// styles is the terminal's pen as the frames written so far left it
	// (see styleRewrite): it may differ from the renderer's between frames,
	// and is put back before anything but a frame is written.
	styles styleRewrite
	starts []int      // per column, rows that begin there (scratch for setTabs)
	runs   [][2]int   // scratch for render
	split  []splitRow // scratch for render
}

// splitRow is a row render hands over one change at a time: its changes,
// and the row as the frame has it.
type splitRow struct {
	y    int
	runs [][2]int
	line uv.Line
}

// New makes a program for m.
func New(m tea.Model, o Options) *Program {
	fps := o.FPS
	if fps <= 0 {
		fps = 30
	}
	clock := o.Clock
	if clock == nil {
		clock = realClock{}
	}
	return &Program{
		model:    m,
		opts:     o,
		clock:    clock,
		start:    clock.Now(),
		interval: time.Second / time.Duration(fps),
		msgs:     make(chan tea.Msg, 64),
		errs:     make(chan error, 1),
		done:     make(chan struct{}),
	}
}

// FrameDue is how long from now until the frame cap lets output be drawn
// (0: at once). Whoever batches output for the screen (the agent's events)
// delivers it then: output that arrives before it waits for the cap on a
// timer of its own, which costs a second wake-up per frame. Safe from any
// goroutine.
func (p *Program) FrameDue() time.Duration {
	next := p.nextFrame.Load()
	if next == 0 {
		return 0
	}
	return max(p.start.Add(time.Duration(next)).Sub(p.clock.Now()), 0)
}

// claim counts a frame begun at now for the cap, before the model's
// commands run: output they bring in the meantime waits for the next
// frame (FrameDue) rather than arriving a moment too early and waiting
// on the cap's timer. A view that turns out unchanged counts too
// (otherwise output that changes nothing in sight, an answer growing
// below a view that holds still, would have the view worked out again
// for every piece of it).
func (p *Program) claim(now time.Time) {
	p.next = now.Add(p.interval)
	p.nextFrame.Store(int64(p.next.Sub(p.start)))
}

// capped reports whether output at now must wait for the cap.
func (p *Program) capped(now time.Time) bool { return p.drawn && now.Before(p.next) }

// Frames is how many frames have been written, for tests and benchmarks.
func (p *Program) Frames() int { return int(p.frames.Load()) }

// Send hands msg to the model as if a command had returned it. It never
// blocks once the program has ended.
func (p *Program) Send(msg tea.Msg) {
	select {
	case p.msgs <- msg:
	case <-p.done:
	}
}

// frameMsg says a frame held back by the cap is due.
type frameMsg struct{}

// profileMsg says the terminal shows more colours than first thought.
type profileMsg struct{ profile colorprofile.Profile }

// Run shows the model until it quits (tea.Quit), ctx ends, or the
// process is asked to terminate. It returns the final model.
func (p *Program) Run(ctx context.Context) (m tea.Model, err error) {
	defer close(p.done)
	if err := p.open(); err != nil {
		return p.model, err
	}
	w, h, err := term.GetSize(p.out.Fd())
	if err != nil {
		return p.model, fmt.Errorf("read the terminal's size: %w", err)
	}
	state, err := term.MakeRaw(p.in.Fd())
	if err != nil {
		return p.model, fmt.Errorf("set up the terminal: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	input, err := p.readInput(ctx)
	if err != nil {
		_ = term.Restore(p.in.Fd(), state)
		return p.model, err
	}
	defer func() {
		// A terminal that has gone (a closed window) cannot be put back;
		// that is no reason to report an error.
		p.restore()
		cancel()
		input.stop()
		_ = term.Restore(p.in.Fd(), state)
		if r := recover(); r != nil {
			err = fmt.Errorf("the screen stopped on a bug: %v\n%s", r, debug.Stack())
		}
	}()
	p.rend = uv.NewTerminalRenderer(&p.buf, p.env)
	// The first frame goes out in the colours the environment names;
	// reading the terminfo database and asking tmux whether it passes
	// true colour through happen beside it, and a terminal that shows
	// more colours is repainted once they answer.
	p.profile = colorprofile.Env(p.env)
	p.rend.SetColorProfile(p.profile)
	if p.profile >= colorprofile.ANSI && p.profile < colorprofile.TrueColor && p.env.Getenv("NO_COLOR") == "" {
		go func(term string, env []string, had colorprofile.Profile) {
			if full := max(colorprofile.Terminfo(term), colorprofile.Tmux(env)); full > had {
				p.Send(profileMsg{full})
			}
		}(p.env.Getenv("TERM"), p.env, p.profile)
	}
	p.rend.SetRelativeCursor(true)
	p.rend.SetFullscreen(false)
	p.rend.SetTabStops(-1)
	p.rend.SetBackspace(true)
	p.rend.SetMapNewline(false)
	p.rend.SetScrollOptim(false) // see draw
	p.cells = uv.NewScreenBuffer(w, h)
	p.shown = uv.NewRenderBuffer(w, h)
	if !overSSH(p.env) {
		// Synchronized output (mode 2026) keeps a frame from tearing;
		// the answer, if any, turns it on.
		p.buf.WriteString(ansi.RequestModeSynchronizedOutput)
	}
	// Wide characters: the answer to this query says whether the
	// terminal measures them by grapheme cluster.
	p.buf.WriteString(ansi.RequestModeUnicodeCore)
	// Left and right margins: where the terminal has them, a region
	// beside a pane scrolls without moving the pane.
	p.buf.WriteString(ansi.RequestModeLeftRightMargin)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, stopSignals()...)
	defer signal.Stop(sigs)
	winch := make(chan os.Signal, 1)
	if rs := resizeSignals(); len(rs) > 0 { // Notify with none would relay every signal
		signal.Notify(winch, rs...)
		defer signal.Stop(winch)
	}

	// The first frame goes out before the model's start-up commands
	// (listing the project, reading the store) compete with it.
	initCmd := p.model.Init()
	p.resize(w, h)
	p.update(tea.WindowSizeMsg{Width: w, Height: h})
	p.run(initCmd)
	for {
		var msg tea.Msg
		select {
		case ev := <-input.events:
			// What the person does goes before output waiting its turn.
			msg = translate(ev)
			if quit, err := p.handle(msg); quit {
				return p.model, err
			}
			continue
		default:
		}
		select {
		case <-ctx.Done():
			return p.model, nil
		case <-sigs:
			return p.model, nil
		case err := <-p.errs:
			return p.model, err
		case <-winch:
			if w, h, err := term.GetSize(p.out.Fd()); err == nil {
				msg = tea.WindowSizeMsg{Width: w, Height: h}
			}
		case ev := <-input.events:
			msg = translate(ev)
		case msg = <-p.msgs:
		}
		if quit, err := p.handle(msg); quit {
			return p.model, err
		}
	}
}

// open settles which terminal the program runs on.
func (p *Program) open() error {
	p.env = uv.Environ(p.opts.Env)
	if p.opts.Env == nil {
		p.env = uv.Environ(os.Environ())
	}
	p.in, p.out = p.opts.Input, p.opts.Output
	if p.in != nil && p.out != nil {
		return nil
	}
	if term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd()) {
		p.in, p.out = os.Stdin, os.Stdout
		return nil
	}
	in, out, err := uv.OpenTTY()
	if err != nil {
		return fmt.Errorf("open the terminal: %w", err)
	}
	p.in, p.out = in, out
	return nil
}

// input is the terminal's decoded input.
type input struct {
	events chan uv.Event
	cancel func() bool
	done   chan struct{}
}

// readInput decodes the terminal's input into events until stopped. It
// sleeps while no key is pressed: the decoder sets a timer only to tell
// a lone Esc from the start of a sequence.
func (p *Program) readInput(ctx context.Context) (*input, error) {
	cr, err := uv.NewCancelReader(p.in)
	if err != nil {
		return nil, fmt.Errorf("read the terminal: %w", err)
	}
	in := &input{events: make(chan uv.Event), cancel: cr.Cancel, done: make(chan struct{})}
	drv := uv.NewTerminalReader(cr, p.env.Getenv("TERM"))
	go func() {
		defer close(in.done)
		defer cr.Close()
		_ = drv.StreamEvents(ctx, in.events)
	}()
	return in, nil
}

// stop ends the reading; a read the system cannot cancel is left behind
// after half a second rather than holding up the exit.
func (in *input) stop() {
	in.cancel()
	select {
	case <-in.done:
	case <-time.After(500 * time.Millisecond):
	}
}

// overSSH reports a session over SSH, where a query's answer may come
// too late to be told from typing.
func overSSH(env uv.Environ) bool {
	_, tty := env.LookupEnv("SSH_TTY")
	_, conn := env.LookupEnv("SSH_CONNECTION")
	return tty || conn
}

// The requests Bubble Tea's commands make of the program arrive as
// messages of unexported types; they are told apart by their type.
var (
	sequenceType  = reflect.TypeOf(tea.Sequence(func() tea.Msg { return nil }, func() tea.Msg { return nil })())
	clipboardType = reflect.TypeOf(tea.SetClipboard("")())
	backgroundReq = reflect.TypeOf(tea.RequestBackgroundColor())
	foregroundReq = reflect.TypeOf(tea.RequestForegroundColor())
	cmdSliceType  = reflect.TypeOf([]tea.Cmd(nil))
)

// handle deals with one message; quit says the program ends.
func (p *Program) handle(msg tea.Msg) (quit bool, err error) {
	switch m := msg.(type) {
	case nil:
		return false, nil
	case frameMsg:
		p.pending = false
		p.claim(p.clock.Now())
		p.draw(false)
		return false, nil
	case profileMsg:
		p.profile = m.profile
		p.rend.SetColorProfile(m.profile)
		p.rend.Erase()
		p.lastView.Content = "" // drawn anew in the new colours
		p.frame()
		return false, nil
	case tea.QuitMsg:
		return true, nil
	case tea.InterruptMsg:
		return true, tea.ErrInterrupted
	case tea.BatchMsg:
		for _, c := range m {
			p.run(c)
		}
		return false, nil
	case tea.RawMsg:
		p.write(fmt.Sprint(m.Msg))
		return false, nil
	case tea.WindowSizeMsg:
		if m.Width == p.width && m.Height == p.height {
			return false, nil // the size the model already has
		}
		p.resize(m.Width, m.Height)
	case tea.ModeReportMsg:
		switch {
		case m.Mode == ansi.ModeSynchronizedOutput && m.Value == ansi.ModeReset:
			p.sync = true
		case m.Mode == ansi.ModeLeftRightMargin && !m.Value.IsNotRecognized() && !m.Value.IsPermanentlyReset():
			if !p.margins {
				p.margins = true
				p.update(MarginsMsg{})
			}
			return false, nil
		case m.Mode == ansi.ModeUnicodeCore && (m.Value.IsSet() || m.Value == ansi.ModeReset):
			if p.cells.Method != ansi.GraphemeWidth {
				p.buf.WriteString(ansi.SetModeUnicodeCore)
				p.cells.Method = ansi.GraphemeWidth
				p.rend.SetWidthMethod(ansi.GraphemeWidth)
				p.rend.SetGraphemeWidth(true)
				p.lastView.Content = "" // measured anew
			}
		}
	}
	switch reflect.TypeOf(msg) {
	case sequenceType:
		cmds := reflect.ValueOf(msg).Convert(cmdSliceType).Interface().([]tea.Cmd)
		go p.sequence(cmds)
		return false, nil
	case clipboardType:
		p.write(ansi.SetSystemClipboard(reflect.ValueOf(msg).String()))
		return false, nil
	case backgroundReq:
		p.write(ansi.RequestBackgroundColor)
		return false, nil
	case foregroundReq:
		p.write(ansi.RequestForegroundColor)
		return false, nil
	}
	p.update(msg)
	return false, nil
}

// update hands msg to the model and asks for a frame: at once for what
// the person does (a key, a paste, a click), however recent the last
// frame; the cap is for output that keeps coming, and typing during an
// answer must echo as fast as typing at an idle prompt.
func (p *Program) update(msg tea.Msg) {
	now := p.clock.Now()
	person := personal(msg)
	direct := !person && !p.pending && !p.capped(now)
	if person || direct {
		p.claim(now) // before the commands run: see claim
	}
	var cmd tea.Cmd
	p.model, cmd = p.model.Update(msg)
	p.run(cmd)
	if direct {
		p.draw(false)
		return
	}
	if person {
		d, ok := p.model.(OutputDeferrer)
		if ok && p.pending {
			d.DeferOutput(true)
			defer d.DeferOutput(false)
		}
		p.draw(true)
		return
	}
	p.frame()
}

// personal reports input from the person, which is drawn without waiting
// for the frame cap.
func personal(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg, tea.MouseClickMsg, tea.MouseReleaseMsg, tea.MouseWheelMsg:
		return true
	}
	return false
}

// run runs a command off the event loop and sends what it returns.
func (p *Program) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		defer p.recoverCmd()
		p.Send(cmd())
	}()
}

// sequence runs commands one after another, each one's message handled
// before the next starts (as tea.Sequence promises).
func (p *Program) sequence(cmds []tea.Cmd) {
	defer p.recoverCmd()
	for _, c := range cmds {
		if c == nil {
			continue
		}
		msg := c()
		if reflect.TypeOf(msg) == sequenceType {
			p.sequence(reflect.ValueOf(msg).Convert(cmdSliceType).Interface().([]tea.Cmd))
			continue
		}
		if b, ok := msg.(tea.BatchMsg); ok {
			var wg sync.WaitGroup
			for _, c := range b {
				if c == nil {
					continue
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer p.recoverCmd()
					p.Send(c())
				}()
			}
			wg.Wait()
			continue
		}
		p.Send(msg)
	}
}

// recoverCmd turns a command's panic into the program's end, so the
// terminal is put back before the panic is told.
func (p *Program) recoverCmd() {
	if r := recover(); r != nil {
		select {
		case p.errs <- fmt.Errorf("the screen stopped on a bug: %v\n%s", r, debug.Stack()):
		default:
		}
	}
}

// write sends a sequence to the terminal at once, outside any frame.
func (p *Program) write(seq string) {
	p.buf.WriteString(p.styles.reset())
	p.buf.WriteString(seq)
	p.flush()
}

// flush writes what is waiting in one write.
func (p *Program) flush() {
	if p.buf.Len() == 0 {
		return
	}
	_, _ = p.out.Write(p.buf.Bytes())
	p.buf.Reset()
}

func (p *Program) resize(w, h int) {
	p.width, p.height = w, h
	p.cells.Resize(w, h)
	p.shown.Resize(w, h)
	p.rend.Resize(w, h)
	p.rend.Erase()
	p.lastView.Content = "" // drawn anew
	p.tabs = nil            // a terminal may reset its tab stops on a resize: set anew
}

// frame draws now, unless a frame went out less than the cap's interval
// ago: then one is drawn when the interval is up (only one is ever
// waiting, so a burst of changes costs one frame).
func (p *Program) frame() {
	if p.pending {
		return
	}
	now := p.clock.Now()
	if p.capped(now) {
		p.pending = true
		p.clock.AfterFunc(p.next.Sub(now), func() { p.Send(frameMsg{}) })
		return
	}
	p.claim(now)
	p.draw(false)
}

// draw writes the model's view, when it differs from the last one;
// personal says it answers the person's input rather than output.
func (p *Program) draw(personal bool) {
	v := p.model.View()
	if p.drawn && sameView(p.lastView, v) {
		// Nothing to write, but the view was worked out: the cap counted
		// it as a frame (see claim).
		return
	}
	var frame bytes.Buffer
	x0, y0 := p.rend.Position() // where the last frame left the cursor
	p.apply(v)
	lines := strings.Split(v.Content, "\n")
	standAlone := linesStandAlone(lines)
	fg, bg := p.convert(v.ForegroundColor), p.convert(v.BackgroundColor)
	if len(p.changed) != p.height {
		p.changed = make([]bool, p.height)
	}
	if p.drawn && p.lastView.Content != "" && standAlone && p.lastAlone {
		// Every line starts with no style of its own: only the lines
		// that differ from the last frame's are read into cells, and
		// only they are compared with what the terminal shows.
		for y := range p.height {
			p.changed[y] = lineAt(lines, y) != lineAt(p.lastLines, y)
			if p.changed[y] {
				uv.NewStyledString(lineAt(lines, y)).Draw(p.cells, uv.Rect(0, y, p.width, 1))
				p.settle(p.cells.Lines[y], fg, bg)
			}
		}
	} else {
		p.cells.Clear()
		uv.NewStyledString(v.Content).Draw(p.cells, p.cells.Bounds())
		for y, line := range p.cells.Lines {
			p.settle(line, fg, bg)
			p.changed[y] = true
		}
	}
	p.lastLines, p.lastAlone = lines, standAlone
	if sa, ok := p.model.(ScrollArea); ok && p.drawn && v.AltScreen && p.lastView.Content != "" {
		// After a resize or a change of colours (the last view emptied)
		// the whole screen is drawn anew: there is nothing to scroll.
		if area, ok := p.scroll(sa.ScrollArea()); ok {
			// The terminal moved the area's rows: each is compared with
			// what it shows now, and the copy of the frame follows.
			for y := area.Min.Y; y < area.Max.Y; y++ {
				p.cells.TouchLine(0, y, p.width)
				p.changed[y] = true
			}
		}
	}
	// The renderer's own search for scrolled lines hashes every changed
	// row of every frame and tries every shift. Output that scrolls (an
	// answer streaming) is moved above by the distance the model names,
	// so the search runs only for frames drawn for the person (a page of
	// a list or a diff moved by a key). A row whose hash is older than
	// the frames drawn without the search can cost a needless scroll,
	// never a wrong screen: the renderer compares every row it moved.
	p.rend.SetScrollOptim(personal && runtime.GOOS != "windows") // DECSTBM misbehaves in Windows Terminal
	tabs := ""
	if v.AltScreen && x0 >= 0 && y0 >= 0 && runtime.GOOS != "windows" {
		// As with DECSTBM above, the Windows console is not trusted with
		// what it need not do.
		tabs = p.setTabs(x0)
	}
	if personal || !p.drawn || p.lastView.Content == "" {
		// A frame for a key may be a page moved, which the renderer finds
		// on its own; a frame drawn anew has nothing to step over.
		p.rend.Render(p.cells.RenderBuffer)
	} else {
		p.render()
	}
	if v.Cursor != nil {
		p.rend.MoveTo(v.Cursor.X, v.Cursor.Y)
	}
	_ = p.rend.Flush()
	if v.AltScreen {
		// On the whole screen the renderer's moves are absolute, and
		// often longer than they need be.
		out := shortenMoves(p.buf.Bytes(), x0, y0, p.width, p.height, p.tabs)
		p.buf.Reset()
		p.buf.Write(out)
	}
	// Styles go out only where they show (see styleRewrite).
	out := p.styles.rewrite(p.buf.Bytes())
	p.buf.Reset()
	p.buf.Write(out)
	for y, line := range p.cells.Lines {
		if p.changed[y] {
			copy(p.shown.Lines[y], line)
		}
	}
	cursorWas := p.drawn && p.lastView.Cursor != nil
	if p.sync && p.buf.Len() > 0 {
		frame.WriteString(ansi.SetModeSynchronizedOutput)
	}
	switch {
	case v.Cursor == nil && (cursorWas || !p.drawn):
		frame.WriteString(ansi.HideCursor)
	case v.Cursor != nil && cursorWas && !p.sync:
		frame.WriteString(ansi.HideCursor) // not seen jumping about while drawn
	}
	frame.WriteString(tabs) // the cursor comes back to where the frame starts
	frame.Write(p.buf.Bytes())
	if v.Cursor != nil {
		frame.WriteString(ansi.ShowCursor)
	}
	if p.sync && p.buf.Len() > 0 {
		frame.WriteString(ansi.ResetModeSynchronizedOutput)
	}
	p.buf.Reset()
	p.lastView = v
	p.drawn = true
	_, _ = p.out.Write(frame.Bytes())
	p.frames.Add(1)
}

// render hands the frame to the renderer, which writes each row from its
// first changed cell to its last. A row whose changes stand far apart (the
// spinner at one end of the status line and the clock at the other) is
// handed over one change at a time, in up to maxPasses frames written one
// after the other, so that the cells between, unchanged, are stepped over
// with a move instead of written again.
func (p *Program) render() {
	buf := p.cells.RenderBuffer
	// The rows split are kept in p.split, their runs and cells in slices
	// used again frame after frame: the status line is split in most
	// frames, and copying it out anew allocated a row of cells each time.
	split := p.split[:0]
	passes := 1
	for y := range p.height {
		if !p.changed[y] {
			continue
		}
		p.runs = changedRuns(p.runs[:0], buf.Lines[y], p.shown.Lines[y])
		if runs := p.runs; len(runs) > 1 {
			if len(split) < cap(split) {
				split = split[:len(split)+1]
			} else {
				split = append(split, splitRow{})
			}
			r := &split[len(split)-1]
			r.y, r.runs, r.line = y, append(r.runs[:0], runs...), append(r.line[:0], buf.Lines[y]...)
			passes = max(passes, min(len(runs), maxPasses))
		}
	}
	p.split = split
	for k := range passes {
		for _, r := range split {
			// The row as the frame has it up to where its change k+1
			// begins, and beyond that as the terminal shows it.
			cut := len(r.line)
			if k+1 < len(r.runs) && k+1 < passes {
				cut = r.runs[k+1][0]
			}
			if k > 0 && (k >= len(r.runs) || k >= passes) {
				continue // all of it went out in an earlier pass
			}
			line := buf.Lines[r.y]
			copy(line, r.line[:cut])
			copy(line[cut:], p.shown.Lines[r.y][cut:])
			if k > 0 {
				buf.TouchLine(0, r.y, len(line))
			}
		}
		p.rend.Render(buf)
	}
}

// changedRuns appends to runs the runs of cells where line differs from
// was, those less than splitGap cells apart taken as one.
func changedRuns(runs [][2]int, line, was uv.Line) [][2]int {
	for x := 0; x < len(line); {
		if line[x].Equal(&was[x]) {
			x++
			continue
		}
		end := x + 1
		for end < len(line) && !line[end].Equal(&was[end]) {
			end++
		}
		if n := len(runs); n > 0 && x-runs[n-1][1] < splitGap {
			runs[n-1][1] = end
		} else {
			runs = append(runs, [2]int{x, end})
		}
		x = end
	}
	return runs
}

// splitGap is how many unchanged cells between two changes of a row make
// render hand them over apart: a move over them costs less than writing
// them (and their colours) again. maxPasses is how many changes of a row
// are handed over apart, the rest going with the last.
const (
	splitGap  = 12
	maxPasses = 3
)

// setTabs puts the terminal's tab stops where the lines of the scrolling
// area (see ScrollArea) most often begin, when they are not there yet,
// and returns what does it; x is the cursor's column, which it comes back
// to. Beside a pane a move to the start of the next line is then a line
// feed, a carriage return and a tab, not a move by tens of cells: that is
// a move or two for every line of an answer.
func (p *Program) setTabs(x int) string {
	sa, ok := p.model.(ScrollArea)
	if !ok {
		return ""
	}
	area, _ := sa.ScrollArea()
	if len(p.starts) != p.width {
		p.starts = make([]int, p.width)
	}
	want := lineStarts(p.cells.RenderBuffer, area.Intersect(p.cells.Bounds()), p.starts)
	if len(want) == 0 || !p.tabsWanting(want) {
		return ""
	}
	var b strings.Builder
	b.WriteString("\x1b[3g") // TBC: no tab stops
	for _, c := range want {
		b.WriteString(ansi.CursorHorizontalAbsolute(c + 1))
		b.WriteString("\x1bH") // HTS
	}
	b.WriteString(ansi.CursorHorizontalAbsolute(x + 1))
	p.tabs, p.tabsMoved = want, true
	return b.String()
}

// tabsWanting reports whether the stops set (p.tabs) are to be moved to
// want (ascending): when they miss the column where most rows begin or
// have fewer stops, or hold a stop left of want's first that want has
// not, which puts each row beginning right of it a tab further. Stops
// that came from a view of other lines otherwise serve as well as the
// view's own, and setting them costs bytes.
func (p *Program) tabsWanting(want []int) bool {
	if len(p.tabs) < len(want) || !slices.Contains(p.tabs, mostStarts(want, p.starts)) {
		return true
	}
	for _, c := range p.tabs {
		if c < want[0] {
			return true
		}
	}
	return false
}

// mostStarts is the column of stops where most rows begin (count).
func mostStarts(stops, count []int) int {
	best := stops[0]
	for _, c := range stops {
		if count[c] > count[best] {
			best = c
		}
	}
	return best
}

// defaultTabs puts back the tab stops every 8 columns that a terminal
// starts with, where setTabs moved them; the cursor ends in the first
// column.
func (p *Program) defaultTabs() string {
	if !p.tabsMoved {
		return ""
	}
	p.tabs, p.tabsMoved = nil, false
	var b strings.Builder
	b.WriteString("\x1b[3g")
	for c := 8; c < p.width; c += 8 {
		b.WriteString(ansi.CursorHorizontalAbsolute(c + 1))
		b.WriteString("\x1bH") // HTS
	}
	b.WriteString("\r")
	return b.String()
}

// lineStarts is the columns, ascending, where most rows of area begin
// (their first cell that is not blank), up to maxTabs of them, and leaves
// in count how many rows begin at each column. A column where only one row
// begins, and the first column, get no stop; nor does a column where too
// few rows begin to pay for the tab it adds to the rows beginning at the
// stops right of it (a row at a stop costs about 3 bytes less than a move
// to its column).
func lineStarts(buf *uv.RenderBuffer, area uv.Rectangle, count []int) []int {
	clear(count)
	if area.Empty() {
		return nil
	}
	for y := area.Min.Y; y < area.Max.Y; y++ {
		line := buf.Lines[y]
		for x := area.Min.X; x < area.Max.X; x++ {
			if c := line[x].Content; c != "" && c != " " {
				if x > 0 { // a carriage return reaches the first column
					count[x]++
				}
				break
			}
		}
	}
	var best [maxTabs]int
	n := 0
	for x, c := range count {
		if c < 2 {
			continue
		}
		// Kept in order, most rows first (the first column of equals).
		i := min(n, maxTabs-1)
		if n == maxTabs && c <= count[best[i]] {
			continue
		}
		for i > 0 && c > count[best[i-1]] {
			best[i] = best[i-1]
			i--
		}
		best[i] = x
		n = min(n+1, maxTabs)
	}
	stops := best[:n]
	slices.Sort(stops)
	// From the right: a stop stays when its rows save more than the tab
	// it adds to the rows at the stops kept right of it.
	var kept []int
	beyond := 0
	for i := len(stops) - 1; i >= 0; i-- {
		c := stops[i]
		if 3*count[c] > beyond {
			kept = append(kept, c)
			beyond += count[c]
		}
	}
	slices.Reverse(kept)
	return kept
}

// maxTabs is how many tab stops setTabs sets: the fourth costs a
// carriage return and four tabs from the first column, as much as a move
// to an absolute column.
const maxTabs = 4

// settle makes a freshly read line of cells cheap to draw: the colours
// the view made the terminal's defaults lose their codes, and blanks their
// needless styles.
func (p *Program) settle(line uv.Line, fg, bg color.Color) {
	if fg != nil || bg != nil {
		p.useDefaults(line, fg, bg)
	}
	blendSpaces(line)
}

// lineAt is line y of a view's lines, "" past its end.
func lineAt(lines []string, y int) string {
	if y < len(lines) {
		return lines[y]
	}
	return ""
}

// linesStandAlone reports whether every line of a view but the last ends
// with no style or link open, so that each can be read into cells on its
// own: the last escape sequence of a line that has any must be a style
// reset.
func linesStandAlone(lines []string) bool {
	for _, l := range lines[:max(len(lines)-1, 0)] {
		i := strings.LastIndexByte(l, 0x1b)
		if i >= 0 && !strings.HasPrefix(l[i:], "\x1b[m") && !strings.HasPrefix(l[i:], "\x1b[0m") {
			return false
		}
	}
	return true
}

// scroll moves the lines of area up by moved, the distance the model
// says they moved since the last frame, with the terminal's own
// scrolling, when the frame agrees (most lines of the area are the last
// frame's lines moved up by that much); the real frame after it then
// writes only what is new. Where the terminal has left and right margins
// only the area moves. Elsewhere whole rows move, and the columns beside
// the area are written again after it: then it scrolls only when the
// lines it keeps outweigh what it moves beside them.
func (p *Program) scroll(area uv.Rectangle, moved int) (uv.Rectangle, bool) {
	area = area.Intersect(p.cells.Bounds())
	rows := area.Dy()
	if rows < 4 || area.Dx() <= 0 || moved <= 0 || moved >= rows-1 {
		return area, false
	}
	kept := rows - moved
	margins := p.margins && (area.Min.X > 0 || area.Max.X < p.width)
	if !margins && p.besideCost(area, moved) >= p.keptCost(area, kept) {
		return area, false
	}
	matched := 0
	for y := area.Min.Y; y < area.Max.Y-moved; y++ {
		if sameCells(p.cells.Lines[y][area.Min.X:area.Max.X], p.shown.Lines[y+moved][area.Min.X:area.Max.X]) {
			matched++
		}
	}
	if matched < kept/2 || matched < 2 {
		return area, false
	}
	// The copy of the last frame becomes what the terminal shows after
	// the scroll.
	cols := uv.Rect(0, 0, p.width, 0)
	if margins {
		cols = area // only the area's columns move
	}
	for y := area.Min.Y; y < area.Max.Y; y++ {
		line := p.shown.Lines[y][cols.Min.X:cols.Max.X]
		if from := y + moved; from < area.Max.Y {
			copy(line, p.shown.Lines[from][cols.Min.X:cols.Max.X])
		} else {
			for x := range line {
				line[x] = uv.EmptyCell
			}
		}
		p.shown.TouchLine(0, y, p.width)
	}
	p.scrollRegion(area, moved, margins)
	return area, true
}

// besideCost is about how many bytes a scroll of whole rows by moved
// costs beside area: what stands there moves with the rows, and each of
// its rows is then brought back to the frame's.
func (p *Program) besideCost(area uv.Rectangle, moved int) int {
	n := 0
	for y := area.Min.Y; y < area.Max.Y; y++ {
		line := p.cells.Lines[y]
		var was uv.Line // blank: scrolled in at the bottom
		if y+moved < area.Max.Y {
			was = p.shown.Lines[y+moved]
		}
		n += diffCost(line[:area.Min.X], part(was, 0, area.Min.X)) +
			diffCost(line[area.Max.X:], part(was, area.Max.X, len(line)))
	}
	return n
}

// keptCost is about how many bytes bringing the top kept rows of area to
// the frame's costs in place, without a scroll: what a scroll saves.
func (p *Program) keptCost(area uv.Rectangle, kept int) int {
	n := 0
	for y := area.Min.Y; y < area.Min.Y+kept; y++ {
		n += diffCost(p.cells.Lines[y][area.Min.X:area.Max.X], p.shown.Lines[y][area.Min.X:area.Max.X])
	}
	return n
}

// part is cells [from, to) of line, or nil for a nil line.
func part(line uv.Line, from, to int) []uv.Cell {
	if line == nil {
		return nil
	}
	return line[from:to]
}

// diffCost is about how many bytes a terminal showing was (blank when
// nil) is sent to show cells instead: a move to the first cell that
// differs, each character up to the last that differs, and a change of
// style wherever one begins.
func diffCost(cells, was []uv.Cell) int {
	same := func(x int) bool {
		if was == nil {
			return cells[x].Content == " " && cells[x].Style.IsZero()
		}
		return cells[x].Equal(&was[x])
	}
	first, end := 0, len(cells)
	for first < end && same(first) {
		first++
	}
	for end > first && same(end-1) {
		end--
	}
	if first == end {
		return 0
	}
	const move, style = 8, 16
	n := move
	for x := first; x < end; x++ {
		c := &cells[x]
		n += max(len(c.Content), 1) * min(c.Width, 1)
		if x == first && !c.Style.IsZero() || x > first && !c.Style.Equal(&cells[x-1].Style) {
			n += style
		}
	}
	return n
}

// scrollRegion scrolls the rows of area up by n lines, between the
// terminal's left and right margins when margins is set. The renderer is
// then told what the terminal shows (p.shown, already moved) by drawing it
// into a write that is dropped: left to find the scroll itself, it takes a
// large one for lines to paint.
func (p *Program) scrollRegion(area uv.Rectangle, n int, margins bool) {
	_ = p.rend.Flush() // what the renderer holds goes first; it ends with the pen reset
	b := &p.buf
	left := 0
	if margins {
		left = area.Min.X
		b.WriteString(ansi.SetModeLeftRightMargin)
	}
	// The margins are given in their shortest forms: a margin at the
	// screen's edge is the default, and left out; so are both when they
	// are put back. A scroll per frame made these a fifth of the bytes of
	// an answer streaming between margins.
	b.WriteString(margin(area.Min.Y+1, area.Max.Y, p.height, 'r'))
	if margins {
		b.WriteString(margin(area.Min.X+1, area.Max.X, p.width, 's'))
	}
	b.WriteString(ansi.CursorPosition(left+1, area.Min.Y+1))
	b.WriteString(ansi.ScrollUp(n))
	if margins {
		b.WriteString("\x1b[s") // DECSLRM with both margins the default
		b.WriteString(ansi.ResetModeLeftRightMargin)
	}
	b.WriteString("\x1b[r") // DECSTBM with both margins the default
	mark := b.Len()
	p.rend.Render(p.shown)
	_ = p.rend.Flush()
	b.Truncate(mark)
	p.rend.SetPosition(-1, -1) // the margins moved the cursor
}

// margin is the sequence that sets margins from first to last (1-based,
// inclusive) of size cells (final 'r' for top and bottom, DECSTBM; 's' for
// left and right, DECSLRM), leaving out what is the default: a first
// margin of 1 and a last margin at the screen's edge.
func margin(first, last, size int, final byte) string {
	var b strings.Builder
	b.WriteString("\x1b[")
	if first > 1 {
		b.WriteString(strconv.Itoa(first))
	}
	if last < size {
		b.WriteByte(';')
		b.WriteString(strconv.Itoa(last))
	}
	b.WriteByte(final)
	return b.String()
}

// sameCells reports whether two runs of cells are the same.
func sameCells(a, b []uv.Cell) bool {
	for x := range a {
		if !a[x].Equal(&b[x]) {
			return false
		}
	}
	return true
}

// useDefaults draws cells in the colours the view made the terminal's
// default ones (View.ForegroundColor and BackgroundColor, already in the
// terminal's colour profile) without colour codes: the terminal shows
// them the same, and a line of body text then costs no colour change.
func (p *Program) useDefaults(line uv.Line, fg, bg color.Color) {
	for x := range line {
		c := &line[x].Style
		if fg != nil && c.Fg != nil && sameColor(p.convert(c.Fg), fg) {
			c.Fg = nil
		}
		if bg != nil && c.Bg != nil && sameColor(p.convert(c.Bg), bg) {
			c.Bg = nil
		}
	}
}

// convert is c as the terminal will show it; nil stays nil.
func (p *Program) convert(c color.Color) color.Color {
	if c == nil {
		return nil
	}
	return p.profile.Convert(c)
}

// blendSpaces settles the style of each run of blanks whose style does
// not show (a blank shows its background, underline, strike-through and
// reverse video, but not its foreground colour, boldness or slant), to
// what costs the terminal least. Between two styled cells the run takes
// the style of one of them, the one after where it can: highlighted code
// colours every blank between two words, and each would cost two colour
// changes for nothing; a line is often written from a blank on (the
// indentation of a pane beside another), and then blanks in the style of
// what follows cost no change of their own. Anywhere else the run takes
// no style at all: then it is what the terminal already shows where it
// cleared or scrolled, and next to plain text it costs no change either.
func blendSpaces(line uv.Line) {
	for x := 0; x < len(line); {
		if !plainSpace(&line[x]) {
			x++
			continue
		}
		end := x
		for end < len(line) && plainSpace(&line[end]) {
			end++
		}
		style := uv.Style{}
		if x > 0 && end < len(line) {
			switch prev, next := &line[x-1], &line[end]; {
			case prev.Style.IsZero() || next.Style.IsZero():
			case showsOnlyInk(next):
				style = next.Style
			case showsOnlyInk(prev):
				style = prev.Style
			}
		}
		for i := x; i < end; i++ {
			line[i].Style = style
		}
		x = end
	}
}

// plainSpace reports a blank whose style does not show.
func plainSpace(c *uv.Cell) bool {
	return c.Content == " " && c.Width == 1 && c.Link.URL == "" && showsOnlyInk(c)
}

// showsOnlyInk reports a style that changes nothing about a blank.
func showsOnlyInk(c *uv.Cell) bool {
	return c.Style.Bg == nil && c.Style.Underline == 0 && c.Link.URL == "" &&
		c.Style.Attrs&(uv.AttrReverse|uv.AttrStrikethrough|uv.AttrConceal) == 0
}

// apply sets the terminal's modes the view asks for, where they changed.
func (p *Program) apply(v tea.View) {
	first := !p.drawn
	old := p.lastView
	b := &p.buf
	if first || v.AltScreen != old.AltScreen {
		if v.AltScreen {
			if !first {
				b.WriteString(ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1))
				p.keyboards = false
			}
			b.WriteString(ansi.SetModeAltScreenSaveCursor)
			p.rend.SaveCursor()
			p.rend.SetFullscreen(true)
			p.rend.SetRelativeCursor(false)
			p.rend.Erase()
		} else if !first {
			b.WriteString(ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1))
			p.keyboards = false
			if x, _ := p.rend.Position(); x >= 0 {
				b.WriteString(p.defaultTabs() + ansi.CursorHorizontalAbsolute(x+1))
			} else {
				b.WriteString(p.defaultTabs())
				p.rend.SetPosition(-1, -1)
			}
			p.rend.Erase()
			p.rend.SetRelativeCursor(true)
			p.rend.SetFullscreen(false)
			b.WriteString(ansi.ResetModeAltScreenSaveCursor)
			p.rend.RestoreCursor()
		}
	}
	if !p.keyboards {
		// Keys such as Shift+Enter need the terminal to tell them apart:
		// modifyOtherKeys where that is what it speaks, the kitty
		// protocol where it speaks that.
		b.WriteString(ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(kittyFlags(v.KeyboardEnhancements)) + ansi.RequestKittyKeyboard)
		p.keyboards = true
	}
	if first || v.DisableBracketedPasteMode != old.DisableBracketedPasteMode {
		if !v.DisableBracketedPasteMode {
			b.WriteString(ansi.SetModeBracketedPaste)
		} else if !first {
			b.WriteString(ansi.ResetModeBracketedPaste)
		}
	}
	if first || v.ReportFocus != old.ReportFocus {
		if v.ReportFocus {
			b.WriteString(ansi.SetModeFocusEvent)
		} else if !first {
			b.WriteString(ansi.ResetModeFocusEvent)
		}
	}
	if first || v.MouseMode != old.MouseMode {
		if !first {
			b.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent)
		}
		switch v.MouseMode {
		case tea.MouseModeCellMotion:
			b.WriteString(ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
		case tea.MouseModeAllMotion:
			b.WriteString(ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
		default:
			if !first {
				b.WriteString(ansi.ResetModeMouseExtSgr)
			}
		}
	}
	if (first && v.WindowTitle != "") || (!first && v.WindowTitle != old.WindowTitle) {
		b.WriteString(ansi.SetWindowTitle(v.WindowTitle))
	}
	if !sameColor(v.ForegroundColor, old.ForegroundColor) || (first && v.ForegroundColor != nil) {
		_ = uv.EncodeForegroundColor(b, v.ForegroundColor)
	}
	if !sameColor(v.BackgroundColor, old.BackgroundColor) || (first && v.BackgroundColor != nil) {
		_ = uv.EncodeBackgroundColor(b, v.BackgroundColor)
	}
}

// restore puts the terminal back as it was found.
func (p *Program) restore() {
	if p.rend == nil {
		return
	}
	v := p.lastView
	b := &p.buf
	b.WriteString(p.styles.reset())
	if p.keyboards {
		b.WriteString(ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1))
	}
	if p.drawn {
		p.rend.MoveTo(0, p.height-1)
		_ = p.rend.Flush()
		b.WriteString(p.defaultTabs())
		if v.AltScreen {
			b.WriteString(ansi.ResetModeAltScreenSaveCursor)
		} else {
			b.WriteString(ansi.EraseScreenBelow)
		}
		b.WriteString(ansi.ShowCursor)
		if !v.DisableBracketedPasteMode {
			b.WriteString(ansi.ResetModeBracketedPaste)
		}
		if v.ReportFocus {
			b.WriteString(ansi.ResetModeFocusEvent)
		}
		if v.MouseMode != tea.MouseModeNone {
			b.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
		}
		if v.WindowTitle != "" {
			b.WriteString(ansi.SetWindowTitle(""))
		}
		if v.BackgroundColor != nil {
			b.WriteString(ansi.ResetBackgroundColor)
		}
		if v.ForegroundColor != nil {
			b.WriteString(ansi.ResetForegroundColor)
		}
	}
	if p.cells.Method == ansi.GraphemeWidth {
		b.WriteString(ansi.ResetModeUnicodeCore)
	}
	p.flush()
}

func kittyFlags(ke tea.KeyboardEnhancements) int {
	flags := ansi.KittyDisambiguateEscapeCodes
	if ke.ReportEventTypes {
		flags |= ansi.KittyReportEventTypes
	}
	if ke.ReportAlternateKeys {
		flags |= ansi.KittyReportAlternateKeys
	}
	if ke.ReportAllKeysAsEscapeCodes {
		flags |= ansi.KittyReportAllKeysAsEscapeCodes
	}
	if ke.ReportAssociatedText {
		flags |= ansi.KittyReportAssociatedKeys
	}
	return flags
}

func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// sameView reports whether drawing b after a would change nothing.
func sameView(a, b tea.View) bool {
	if a.Content != b.Content || a.AltScreen != b.AltScreen || a.MouseMode != b.MouseMode ||
		a.ReportFocus != b.ReportFocus || a.DisableBracketedPasteMode != b.DisableBracketedPasteMode ||
		a.WindowTitle != b.WindowTitle || !sameColor(a.ForegroundColor, b.ForegroundColor) ||
		!sameColor(a.BackgroundColor, b.BackgroundColor) {
		return false
	}
	if (a.Cursor == nil) != (b.Cursor == nil) {
		return false
	}
	return a.Cursor == nil || (a.Cursor.X == b.Cursor.X && a.Cursor.Y == b.Cursor.Y)
}

// translate turns a terminal event into the message Bubble Tea models
// expect.
func translate(e uv.Event) tea.Msg {
	switch e := e.(type) {
	case uv.ClipboardEvent:
		return tea.ClipboardMsg(e)
	case uv.ForegroundColorEvent:
		return tea.ForegroundColorMsg(e)
	case uv.BackgroundColorEvent:
		return tea.BackgroundColorMsg(e)
	case uv.CursorColorEvent:
		return tea.CursorColorMsg(e)
	case uv.CursorPositionEvent:
		return tea.CursorPositionMsg(e)
	case uv.FocusEvent:
		return tea.FocusMsg(e)
	case uv.BlurEvent:
		return tea.BlurMsg(e)
	case uv.KeyPressEvent:
		return tea.KeyPressMsg(e)
	case uv.KeyReleaseEvent:
		return tea.KeyReleaseMsg(e)
	case uv.MouseClickEvent:
		return tea.MouseClickMsg(e)
	case uv.MouseMotionEvent:
		return tea.MouseMotionMsg(e)
	case uv.MouseReleaseEvent:
		return tea.MouseReleaseMsg(e)
	case uv.MouseWheelEvent:
		return tea.MouseWheelMsg(e)
	case uv.PasteEvent:
		return tea.PasteMsg(e)
	case uv.PasteStartEvent:
		return tea.PasteStartMsg(e)
	case uv.PasteEndEvent:
		return tea.PasteEndMsg(e)
	case uv.WindowSizeEvent:
		return tea.WindowSizeMsg(e)
	case uv.CapabilityEvent:
		return tea.CapabilityMsg(e)
	case uv.TerminalVersionEvent:
		return tea.TerminalVersionMsg(e)
	case uv.KeyboardEnhancementsEvent:
		return tea.KeyboardEnhancementsMsg(e)
	case uv.ModeReportEvent:
		return tea.ModeReportMsg(e)
	}
	return e
}
