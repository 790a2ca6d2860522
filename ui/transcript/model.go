// Package transcript is the conversation pane of pincer's screen: the
// person's messages, the assistant's answers as markdown, reasoning, tool
// call cards and notices, scrollable and virtualised.
//
// The pane is fed by explicit calls (AddUser, AppendText, ToolCallDelta, …)
// that the root model makes as agent events arrive; it never sees the agent
// itself. Finished entries are rendered once per width and theme; an answer
// in flight re-renders only its last, unfinished markdown block; a frame
// draws only the entries in view, so its cost does not grow with the
// session.
package transcript

import (
	"time"

	"pincer/themes"
)

// gutterWidth is the columns left of every entry: the focus bar, the
// entry's marker and a space.
const gutterWidth = 3

// Model is the transcript pane. Create it with New; the zero value is not
// usable. Copies share the same transcript, as is usual for Bubble Tea
// components that are stored in a parent model and updated in place.
type Model struct {
	s *state
}

// state is everything behind a Model.
type state struct {
	theme   themes.Theme
	styles  themes.Styles
	gutters gutters
	md      markdownRenderer
	newMD   func(themes.Theme) markdownRenderer // makes md for a theme; tests count renders through it
	keys    KeyMap

	width, height int
	originX       int
	originY       int
	gen           int // render generation: bumped when width or theme change

	items []*item
	byID  map[string]*item // tool cards by call id
	calls map[int]*item    // tool cards of the message in flight, by index

	answer    *item // the answer in flight
	reasoning *item // the reasoning in flight

	queued      []string
	queuedGen   int
	queuedLines []string

	follow   bool   // the view sticks to the bottom
	top      anchor // first visible line when not following
	newBelow bool   // output arrived below the view while scrolled up
	focus    int    // focused entry, or -1

	frame      string // the last View, while nothing changed
	frameValid bool
	// since the last frame something changed that is not output (see
	// arrived), so the next frame must show it
	personal  bool
	deferring bool // DeferOutput

	// The frame drawn last: its first line, or that it showed the end
	// (and how many rows that took); and how far the view moved down
	// between the two frames drawn last (Moved).
	shownTop   anchor
	shownGen   int
	shownValid bool
	shownAtEnd bool
	shownRows  int
	moved      int
	// shownFixed says the frame drawn last holds still while only text
	// for the answer in flight arrives (see holdsStill).
	shownFixed bool
	// Where the transcript ended in the frame drawn last: the last
	// position with lines and its span then.
	endIdx, endSpan, endGen int
	endValid                bool

	// Stepped following (SetSteppedScroll): while output is in flight the
	// view holds its first line and moves in steps, at most one a
	// stepEvery, so that the rows below the end fill before it moves.
	stepped  bool
	holding  bool
	held     anchor // the first line shown while holding
	heldGen  int
	lastStep time.Time
	now      func() time.Time // the clock steps are timed by; tests set it
}

// anchor is a line of the transcript: line off of entry idx, counting the
// blank lines before the entry. idx may be len(items) for the queued
// messages.
type anchor struct{ idx, off int }

// New returns an empty transcript drawn in th. Give it a size with SetSize
// before the first View.
func New(th themes.Theme) Model {
	s := &state{
		keys:      DefaultKeyMap(),
		byID:      map[string]*item{},
		calls:     map[int]*item{},
		follow:    true,
		focus:     -1,
		queuedGen: -1,
		now:       time.Now,
	}
	s.newMD = func(th themes.Theme) markdownRenderer { return newGlamourRenderer(th) }
	s.setTheme(th)
	return Model{s: s}
}

// SetSize sets the pane's width and height in cells. Entries are rendered
// again for a new width, lazily, as they come into view.
func (m *Model) SetSize(w, h int) {
	s := m.s
	w, h = max(w, 0), max(h, 0)
	if w != s.width {
		s.gen++
	}
	s.width, s.height = w, h
	s.clampTop()
	s.changed()
}

// SetOrigin tells the pane where its top-left cell is on the screen, so
// that it can handle mouse messages in screen coordinates and ignore those
// outside it.
func (m *Model) SetOrigin(x, y int) {
	m.s.originX, m.s.originY = x, y
}

// SetTheme switches the theme. Every entry is rendered again as it comes
// into view.
func (m *Model) SetTheme(th themes.Theme) {
	s := m.s
	s.setTheme(th)
	s.gen++
	s.changed()
}

// SetKeyMap replaces the key bindings Update reacts to.
func (m *Model) SetKeyMap(k KeyMap) { m.s.keys = k }

// KeyMap returns the key bindings, for the help view.
func (m Model) KeyMap() KeyMap { return m.s.keys }

// Reset empties the transcript, for a new session.
func (m *Model) Reset() {
	s := m.s
	s.items = nil
	s.byID = map[string]*item{}
	s.calls = map[int]*item{}
	s.answer, s.reasoning = nil, nil
	s.queued, s.queuedLines, s.queuedGen = nil, nil, -1
	s.follow, s.top, s.newBelow, s.focus = true, anchor{}, false, -1
	s.holding, s.shownValid, s.endValid = false, false, false
	s.changed()
}

// SetSteppedScroll makes the view, while it follows output in flight,
// move in steps rather than line by line: it holds its first line while
// the end fits, and when the end reaches the bottom it moves so that the
// line being written is the top one, at most once every half
// second (what arrives in between is shown by the next step). When nothing
// is in flight it shows the end at the bottom again.
//
// The screen sets it where the terminal can only scroll whole rows and a
// pane stands beside the transcript: every move of the transcript then
// moves that pane too, and it has to be drawn again.
func (m *Model) SetSteppedScroll(on bool) {
	s := m.s
	if s.stepped != on {
		s.stepped, s.holding = on, false
		s.changed()
	}
}

// SetClock sets the clock a stepped view's steps are timed by (time.Now
// unless set): a benchmark that draws frames on a clock of its own then
// steps exactly as often on any machine.
func (m *Model) SetClock(now func() time.Time) { m.s.now = now }

// SteppedScroll reports whether the view follows output in steps.
func (m Model) SteppedScroll() bool { return m.s.stepped }

// Moved is how many lines the view moved down between the last two frames
// View drew: the lines that left the pane at the top, which the screen can
// move with the terminal's own scrolling instead of writing the pane again.
// It is 0 when the view stayed, moved up, moved a page or more, or was
// drawn at another size or theme.
func (m Model) Moved() int { return m.s.moved }

func (s *state) setTheme(th themes.Theme) {
	s.theme = th
	s.styles = th.Styles()
	s.md = newBlockCache(s.newMD(th))
	s.buildGutters()
}

// contentWidth is the width entries are rendered at.
func (s *state) contentWidth() int { return max(s.width-gutterWidth, 1) }

// changed drops the cached frame.
func (s *state) changed() { s.frameValid, s.personal = false, true }

// DeferOutput, while on, lets View return the frame drawn last when all
// that changed since is output that keeps coming (an answer streaming):
// the screen draws the person's keystroke at once, without the cost of
// rendering the answer, whose next frame is due anyway.
func (m *Model) DeferOutput(on bool) { m.s.deferring = on }
