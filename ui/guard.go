package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// A question from the agent can open while the person is typing their next
// prompt. The keys they type then were meant for the input, and a word
// like "tidy" or an Enter meant to send must never answer the dialog. So
// a dialog that opens while they type is held: what they type goes on
// into the input, the dialog says it is waiting, and it takes keys only
// after Tab, pressed once the typing has stopped (Tab is no text, and a
// Tab right after typing, as when taking a completion, does not count).
const (
	// typingRecent is how soon after a key typed into the input a dialog
	// that opens is held.
	typingRecent = 2 * time.Second
	// typingPause is how long the keyboard must rest before Tab gives a
	// held dialog the keys.
	typingPause = 750 * time.Millisecond
)

// keyGuard is the state of a dialog the agent opens on its own, embedded
// in it: when it opened, and whether it is held because the person is
// typing.
type keyGuard struct {
	// opened is when the dialog opened; keys in its first settleTime are
	// never answers.
	opened time.Time
	// held: printable keys go to the input, not to the dialog, until Tab
	// after a pause.
	held bool
	// last is when the last held key was typed.
	last time.Time
	// clock is the screen's clock (time.Now, or a test's).
	clock func() time.Time
}

func newKeyGuard(clock func() time.Time) keyGuard {
	if clock == nil {
		clock = time.Now
	}
	return keyGuard{opened: clock(), clock: clock}
}

// settling reports whether the dialog opened too recently for a key to be
// an answer to it: no one reads and answers within settleTime.
func (g *keyGuard) settling() bool { return g.clock().Sub(g.opened) < settleTime }

// guard returns the guard, for the screen.
func (g *keyGuard) guard() *keyGuard { return g }

// heldKeys is what a held dialog shows where its keys would be; refuse
// names what Esc does.
func (g *keyGuard) heldKeys(refuse string) string {
	if g.clock().Sub(g.last) < typingPause {
		return "⏸ You are typing, so your keys go to the input, not to this dialog. Stop typing, then press Tab to answer it · esc " + refuse
	}
	return "This opened while you were typing, so your keys go to the input. Press Tab to answer it · esc " + refuse
}

// guardedDialog is a dialog the agent opens on its own: an approval or an
// edit review.
type guardedDialog interface {
	dialog
	guard() *keyGuard
	// answers reports whether the dialog, as it is now, acts on the
	// printable key msg; any other printable key means the person is
	// typing, not answering.
	answers(msg tea.KeyPressMsg) bool
}

// guardTickMsg redraws a held dialog when the typing may have stopped.
type guardTickMsg struct{}

// typed records a key typed into the input.
func (a *App) typed() { a.lastTyped = a.clock() }

// holdIfTyping holds a dialog the agent just opened when the person was
// typing into the input.
func (a *App) holdIfTyping(d dialog) {
	gd, ok := d.(guardedDialog)
	if !ok || a.lastTyped.IsZero() {
		return
	}
	g := gd.guard()
	if g.clock().Sub(a.lastTyped) < typingRecent {
		g.held, g.last = true, a.lastTyped
	}
}

// guardKey decides where a key goes while the dialog d (on top) may be
// held; used is false when the dialog should get the key as usual.
func (a *App) guardKey(d guardedDialog, msg tea.KeyPressMsg) (tea.Cmd, bool) {
	g := d.guard()
	now := g.clock()
	if !g.held {
		answeredJustBefore := !a.lastAnswer.IsZero() && a.lastAnswer.After(a.lastTyped) &&
			g.opened.Sub(a.lastAnswer) < time.Second
		switch {
		case !printable(msg):
			return nil, false
		case d.answers(msg):
			// One of the dialog's keys: it answers once the dialog has
			// settled, and is dropped before (the dialog ignores it).
			return nil, false
		case g.settling() && answeredJustBefore:
			// A key still repeating from the dialog answered just before
			// this one: dropped, as the dialog drops it.
			return nil, false
		}
		// A printable key the dialog has no use for: the person is
		// typing, not answering.
		g.held = true
	}
	switch msg.String() {
	case "esc", "up", "down", "pgup", "pgdown":
		return nil, false // refusing and scrolling are safe
	case "tab":
		if now.Sub(g.last) >= typingPause {
			g.held = false
		}
		return nil, true
	case "enter", "ctrl+c":
		// Held: the prompt stays in the input, unsent, until the
		// question is answered.
		if msg.String() == "enter" {
			g.last = now
		}
		return guardTick(), true
	}
	g.last = now
	a.typed()
	if a.focus != focusInput {
		a.setFocus(focusInput)
	}
	before := a.input.Height()
	var cmd tea.Cmd
	a.input, cmd = a.input.Update(msg)
	if a.input.Height() != before {
		a.layout()
	}
	return tea.Batch(cmd, guardTick()), true
}

// heldDialog reports whether the dialog on top is held.
func (a *App) heldDialog() bool {
	gd, ok := a.topDialog().(guardedDialog)
	return ok && gd.guard().held
}

// guardTick redraws once the keyboard may have rested long enough.
func guardTick() tea.Cmd {
	return tea.Tick(typingPause, func(time.Time) tea.Msg { return guardTickMsg{} })
}
