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
	"context"
	"fmt"
	"image/color"
	"os"
	"os/signal"
	"reflect"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
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
	// Console is the terminal; nil is the process's own (standard input
	// and output, or the controlling terminal when they are not one).
	Console uv.Console
	// Clock measures the frame cap; nil is the real clock.
	Clock Clock
}

// Program runs one model on one terminal.
type Program struct {
	model    tea.Model
	opts     Options
	clock    Clock
	interval time.Duration
	msgs     chan tea.Msg
	errs     chan error
	done     chan struct{}

	term      *uv.Terminal
	scr       *uv.TerminalScreen
	width     int
	height    int
	last      time.Time // when the last frame was written
	pending   bool      // a frame is due when the cap allows
	drawn     bool      // a frame has been written
	lastView  tea.View
	frames    atomic.Int64
	keyboards bool // the keyboard protocols were pushed
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
		interval: time.Second / time.Duration(fps),
		msgs:     make(chan tea.Msg, 64),
		errs:     make(chan error, 1),
		done:     make(chan struct{}),
	}
}

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

// Run shows the model until it quits (tea.Quit), ctx ends, or the
// process is asked to terminate. It returns the final model.
func (p *Program) Run(ctx context.Context) (m tea.Model, err error) {
	defer close(p.done)
	con := p.opts.Console
	if con == nil {
		if con, err = processConsole(); err != nil {
			return p.model, err
		}
	}
	p.term = uv.NewTerminal(con, nil)
	p.scr = p.term.Screen()
	w, h, err := p.term.GetSize()
	if err != nil {
		return p.model, fmt.Errorf("read the terminal's size: %w", err)
	}
	if err := p.term.Start(); err != nil {
		return p.model, fmt.Errorf("set up the terminal: %w", err)
	}
	defer func() {
		// A terminal that has gone (a closed window) cannot be put back;
		// that is no reason to report an error.
		p.restore()
		if r := recover(); r != nil {
			err = fmt.Errorf("the screen stopped on a bug: %v\n%s", r, debug.Stack())
		}
	}()
	if !overSSH(con) {
		// Synchronized output (mode 2026) keeps a frame from tearing;
		// the answer, if any, turns it on.
		_, _ = p.scr.WriteString(ansi.RequestModeSynchronizedOutput)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)

	// The first frame goes out before the model's start-up commands
	// (listing the project, reading the store) compete with it.
	initCmd := p.model.Init()
	p.resize(w, h)
	p.update(tea.WindowSizeMsg{Width: w, Height: h})
	p.run(initCmd)
	for {
		var msg tea.Msg
		select {
		case <-ctx.Done():
			return p.model, nil
		case <-sigs:
			return p.model, nil
		case err := <-p.errs:
			return p.model, err
		case ev := <-p.term.Events():
			msg = translate(ev)
		case msg = <-p.msgs:
		}
		if quit, err := p.handle(msg); quit {
			return p.model, err
		}
	}
}

// processConsole is the process's terminal.
func processConsole() (uv.Console, error) {
	if term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd()) {
		return uv.DefaultConsole(), nil
	}
	con, err := uv.ControllingConsole()
	if err != nil {
		return nil, fmt.Errorf("open the terminal: %w", err)
	}
	return con, nil
}

// overSSH reports a session over SSH, where a query's answer may come
// too late to be told from typing.
func overSSH(con uv.Console) bool {
	_, tty := con.LookupEnv("SSH_TTY")
	_, conn := con.LookupEnv("SSH_CONNECTION")
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
		p.draw()
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
		if m.Mode == ansi.ModeSynchronizedOutput && m.Value == ansi.ModeReset {
			p.scr.SetSynchronizedUpdates(true)
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

// update hands msg to the model and asks for a frame.
func (p *Program) update(msg tea.Msg) {
	var cmd tea.Cmd
	p.model, cmd = p.model.Update(msg)
	p.run(cmd)
	p.frame()
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
	_, _ = p.scr.WriteString(seq)
	_ = p.scr.Flush()
}

func (p *Program) resize(w, h int) {
	p.width, p.height = w, h
	p.scr.Resize(w, h)
}

// frame draws now, unless a frame went out less than the cap's interval
// ago: then one is drawn when the interval is up (only one is ever
// waiting, so a burst of changes costs one frame).
func (p *Program) frame() {
	if p.pending {
		return
	}
	if wait := p.last.Add(p.interval).Sub(p.clock.Now()); p.drawn && wait > 0 {
		p.pending = true
		p.clock.AfterFunc(wait, func() { p.Send(frameMsg{}) })
		return
	}
	p.draw()
}

// draw writes the model's view, when it differs from the last one.
func (p *Program) draw() {
	v := p.model.View()
	if p.drawn && sameView(p.lastView, v) {
		return
	}
	p.apply(v)
	if v.Cursor != nil {
		p.scr.SetCursorPosition(v.Cursor.X, v.Cursor.Y)
		if !p.scr.CursorVisible() {
			p.scr.ShowCursor()
		}
	} else if p.scr.CursorVisible() {
		p.scr.HideCursor()
	}
	_ = p.scr.Display(uv.NewStyledString(v.Content))
	p.lastView = v
	p.drawn = true
	p.last = p.clock.Now()
	p.frames.Add(1)
}

// apply sets the terminal's modes the view asks for, where they changed.
func (p *Program) apply(v tea.View) {
	first := !p.drawn
	old := p.lastView
	s := p.scr
	if first || v.AltScreen != old.AltScreen {
		if v.AltScreen {
			s.EnterAltScreen()
		} else if !first {
			s.ExitAltScreen()
		}
	}
	if !p.keyboards {
		// Keys such as Shift+Enter need the terminal to tell them apart:
		// modifyOtherKeys where that is what it speaks, the kitty
		// protocol where it speaks that.
		_, _ = s.WriteString(ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(kittyFlags(v.KeyboardEnhancements)) + ansi.RequestKittyKeyboard)
		p.keyboards = true
	}
	if first || v.DisableBracketedPasteMode != old.DisableBracketedPasteMode {
		if !v.DisableBracketedPasteMode {
			s.EnableBracketedPaste()
		} else if !first {
			s.DisableBracketedPaste()
		}
	}
	if first || v.ReportFocus != old.ReportFocus {
		if v.ReportFocus {
			_, _ = s.WriteString(ansi.SetModeFocusEvent)
		} else if !first {
			_, _ = s.WriteString(ansi.ResetModeFocusEvent)
		}
	}
	if first || v.MouseMode != old.MouseMode {
		switch v.MouseMode {
		case tea.MouseModeCellMotion:
			s.SetMouseMode(uv.MouseModeNone)
			s.SetMouseMode(uv.MouseModeDrag)
			s.SetMouseEncoding(uv.MouseEncodingSGR)
		case tea.MouseModeAllMotion:
			s.SetMouseMode(uv.MouseModeNone)
			s.SetMouseMode(uv.MouseModeMotion)
			s.SetMouseEncoding(uv.MouseEncodingSGR)
		default:
			if !first {
				s.SetMouseMode(uv.MouseModeNone)
				s.SetMouseEncoding(uv.MouseEncodingLegacy)
			}
		}
	}
	if (first && v.WindowTitle != "") || (!first && v.WindowTitle != old.WindowTitle) {
		s.SetWindowTitle(v.WindowTitle)
	}
	if !sameColor(v.ForegroundColor, old.ForegroundColor) || (first && v.ForegroundColor != nil) {
		s.SetForegroundColor(v.ForegroundColor)
	}
	if !sameColor(v.BackgroundColor, old.BackgroundColor) || (first && v.BackgroundColor != nil) {
		s.SetBackgroundColor(v.BackgroundColor)
	}
}

// restore puts the terminal back as it was found.
func (p *Program) restore() {
	if p.drawn && p.lastView.ReportFocus {
		_, _ = p.scr.WriteString(ansi.ResetModeFocusEvent)
	}
	if p.keyboards {
		_, _ = p.scr.WriteString(ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1))
	}
	_ = p.term.Stop()
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
