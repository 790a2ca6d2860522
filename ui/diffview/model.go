package diffview

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"pincer/themes"
	"pincer/tools"
)

// wheelLines is how far one step of the mouse wheel scrolls.
const wheelLines = 3

// Model is the review of one proposed change: its diff as drawn, the hunk
// the person is on, and which hunks they accept. Every hunk starts accepted.
//
// Model is a value, as Bubble Tea components are: Update returns the new
// one. Copies share the diff and the cache of drawn lines, which depend
// only on the change, the width and the theme, never on the choices.
type Model struct {
	// KeyMap is the bindings Update answers to. Rebind them before use if
	// the dialog around the view needs one of the default keys.
	KeyMap KeyMap

	d        *doc
	c        *cache
	theme    themes.Theme
	themeGen int
	width    int
	height   int
	note     string
	accepted []bool // copied on write, since copies of a Model share it otherwise
	current  int
	top      position
	arrange  arrangement
	nowrap   bool
}

// arrangement is the layout the person asked for.
type arrangement uint8

const (
	arrangeAuto    arrangement = iota // side by side from splitMinWidth, else unified
	arrangeUnified                    // always unified
	arrangeSplit                      // side by side while it fits
)

// position is the first screen line of the diff shown: line sub of a row,
// in the row set of one arrangement.
type position struct {
	split    bool
	row, sub int
}

// cache holds what was drawn for the last layout, so that scrolling draws
// only the rows coming into view, and each of them once.
type cache struct {
	gen   int // the theme generation the palette is for
	pal   *palette
	lay   *layout
	lines map[lineKey][]string
	// notes are the note's wrapped lines for the note, width and layout
	// in notesFor: asked for several times by each View.
	notes    []string
	notesFor *noteKey
}

// noteKey is what the note's lines depend on.
type noteKey struct {
	note  string
	width int
	lay   *layout
}

// lineKey names the drawn lines of a row; a row of a hunk looks different
// when the hunk is rejected, and a hunk's title when the hunk is current.
type lineKey struct {
	row      int
	rejected bool
	current  bool
}

// StaleNote is the note New shows for a Change marked Stale: its Before is
// the file as it is on disk now, not what the model read.
const StaleNote = "The file changed on disk since the model read it; this is the diff against the file as it is now."

// New builds the review of ch drawn with th. ch.Before is what the hunks
// apply to. A Change marked Stale, whose Before is the file as it is on disk
// now, gets StaleNote above the diff; SetNote replaces it. A nil ch is an
// empty change.
func New(ch *tools.Change, th themes.Theme) Model {
	if ch == nil {
		ch = &tools.Change{}
	}
	d := newDoc(ch)
	accepted := make([]bool, len(d.hunks))
	for i := range accepted {
		accepted[i] = true
	}
	m := Model{
		KeyMap:   DefaultKeyMap(),
		d:        d,
		c:        &cache{gen: -1},
		theme:    th,
		accepted: accepted,
	}
	if ch.Stale {
		m.note = StaleNote
	}
	return m
}

// NewPreview builds a view of ch that is shown, not reviewed, such as what
// a rewind will change: its hunks carry no accepted or rejected label and
// cannot be toggled, and a change that changes nothing says the file is
// already as it will be.
func NewPreview(ch *tools.Change, th themes.Theme) Model {
	m := New(ch, th)
	m.d.preview = true
	return m
}

// SetSize sets the width and height View fills.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = max(width, 0), max(height, 0)
	m.settle()
}

// SetTheme redraws the diff in th.
func (m *Model) SetTheme(th themes.Theme) {
	m.theme = th
	m.themeGen++
}

// SetNote sets a warning shown above the diff, such as "The file changed on
// disk since the model read it; this is the diff against the file as it is
// now." An empty note removes it.
func (m *Model) SetNote(note string) {
	m.note = note
	m.settle()
}

// Hunks is the number of hunks; 0 when the change changes nothing.
func (m Model) Hunks() int { return len(m.d.hunks) }

// Current is the index of the hunk the person is on, from 0.
func (m Model) Current() int { return m.current }

// Accepted reports whether hunk i (from 0) is accepted.
func (m Model) Accepted(i int) bool {
	return i >= 0 && i < len(m.accepted) && m.accepted[i]
}

// SetAccepted accepts or rejects hunk i (from 0); other indexes are ignored.
func (m *Model) SetAccepted(i int, accepted bool) {
	if i < 0 || i >= len(m.accepted) || m.accepted[i] == accepted {
		return
	}
	m.accepted = slices.Clone(m.accepted)
	m.accepted[i] = accepted
}

// Result is the file content with exactly the accepted hunks applied, the
// indexes (from 0) of the rejected hunks, and the number of hunks. With
// every hunk accepted content is the proposal (Change.After) itself, with
// none it is Change.Before (nil for a new file); do not modify it. When
// every hunk is rejected the dialog should write nothing and answer as for
// a rejected edit.
func (m Model) Result() (content []byte, rejected []int, total int) {
	for i, a := range m.accepted {
		if !a {
			rejected = append(rejected, i)
		}
	}
	return m.d.apply(m.accepted), rejected, len(m.d.hunks)
}

// Summary is a one-line account of the change for a title or status line,
// e.g. "+12 −3 in 2 hunks" or "+12 −3 in 2 hunks, 1 rejected".
func (m Model) Summary() string {
	s := m.d.summary()
	if _, rejected, _ := m.Result(); len(rejected) > 0 && len(m.d.hunks) > 0 {
		s += fmt.Sprintf(", %d rejected", len(rejected))
	}
	return s
}

// RejectedNote is what the model should be told about the hunks that did
// not land: which ones, where they were in its proposal and how they began.
// It is empty when every hunk was accepted. Add it to the tool result of a
// partly applied edit so the model does not assume its whole proposal is in
// the file.
func (m Model) RejectedNote() string {
	return m.d.rejectedNote(m.accepted)
}

// Init returns the command that lexes a large change for syntax colours
// off the event loop, or nil. Run it when the dialog opens and pass its
// message to Update; until then the diff is drawn in the diff colours
// alone. Small changes are lexed when first drawn and need no command.
func (m Model) Init() tea.Cmd {
	return m.d.highlightCmd()
}

// Update handles the view's own keys (KeyMap), the mouse wheel and the
// message of the command from Init. Keys it does not know are ignored, so
// the dialog can offer every key it does not handle itself. It returns no
// command.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case highlightedMsg:
		if msg.d == m.d && !m.d.highlighted {
			m.d.setSegments(msg.old, msg.new)
			m.c.lay = nil // draw the rows again, in colour
		}
	case tea.KeyPressMsg:
		m.key(msg)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.scroll(-wheelLines)
		case tea.MouseWheelDown:
			m.scroll(wheelLines)
		}
	}
	return m, nil
}

func (m *Model) key(msg tea.KeyPressMsg) {
	k := m.KeyMap
	switch {
	case key.Matches(msg, k.NextHunk):
		m.goToHunk(m.current + 1)
	case key.Matches(msg, k.PrevHunk):
		m.goToHunk(m.current - 1)
	case m.d.preview && key.Matches(msg, k.Toggle, k.AcceptAll, k.RejectAll):
		// Nothing to choose in a preview.
	case key.Matches(msg, k.Toggle):
		m.SetAccepted(m.current, !m.Accepted(m.current))
	case key.Matches(msg, k.AcceptAll):
		m.setAll(true)
	case key.Matches(msg, k.RejectAll):
		m.setAll(false)
	case key.Matches(msg, k.Up):
		m.scroll(-1)
	case key.Matches(msg, k.Down):
		m.scroll(1)
	case key.Matches(msg, k.PageUp):
		m.scroll(-m.pageStep())
	case key.Matches(msg, k.PageDown):
		m.scroll(m.pageStep())
	case key.Matches(msg, k.Top):
		m.setTop(m.layout(), 0)
		m.current = 0
	case key.Matches(msg, k.Bottom):
		l := m.layout()
		m.setTop(l, l.total())
		m.current = max(len(m.d.hunks)-1, 0)
	case key.Matches(msg, k.Layout):
		if m.layout().split {
			m.arrange = arrangeUnified
		} else {
			m.arrange = arrangeSplit
		}
		m.settle()
	case key.Matches(msg, k.Wrap):
		m.nowrap = !m.nowrap
		m.settle()
	}
}

func (m *Model) setAll(accepted bool) {
	a := make([]bool, len(m.accepted))
	for i := range a {
		a[i] = accepted
	}
	m.accepted = a
}

// goToHunk makes hunk i current and scrolls so that it shows whole, its
// title at the top, unless it shows whole already.
func (m *Model) goToHunk(i int) {
	if len(m.d.hunks) == 0 {
		return
	}
	m.current = max(min(i, len(m.d.hunks)-1), 0)
	l := m.layout()
	start, end := l.hunkSpan(m.current)
	if top := m.topLine(l); start >= top && end <= top+m.bodyHeight() {
		return
	}
	m.setTop(l, start)
}

// scroll moves the view by delta lines. When the current hunk leaves the
// view, the first hunk in view becomes current, so that the toggle key acts
// on something the person can see.
func (m *Model) scroll(delta int) {
	l := m.layout()
	m.setTop(l, m.topLine(l)+delta)
	top, bottom := m.topLine(l), m.topLine(l)+m.bodyHeight()
	if len(m.d.hunks) == 0 {
		return
	}
	if start, end := l.hunkSpan(m.current); start < bottom && end > top {
		return
	}
	for i := range m.d.hunks {
		if start, end := l.hunkSpan(i); start < bottom && end > top {
			m.current = i
			return
		}
	}
}

func (m *Model) pageStep() int { return max(m.bodyHeight()-1, 1) }

// layout returns the layout for the current size, arrangement and theme,
// building it (and forgetting what was drawn for another) when they changed.
func (m Model) layout() *layout {
	c := m.c
	if c.pal == nil || c.gen != m.themeGen {
		c.pal = newPalette(m.theme)
		c.gen = m.themeGen
		c.lay = nil
	}
	split := m.arrange == arrangeSplit || (m.arrange == arrangeAuto && m.width >= splitMinWidth)
	g := newGeometry(m.width, split, !m.nowrap, max(len(m.d.old.lines), len(m.d.new.lines)))
	if c.lay == nil || c.lay.geometry != g {
		c.lay = newLayout(m.d, g)
		c.lines = make(map[lineKey][]string)
	}
	return c.lay
}

// settle keeps the first line shown after the size or arrangement changed:
// the same row, found in the other arrangement when that changed too.
func (m *Model) settle() {
	l := m.layout()
	if m.top.split != l.split {
		from := m.d.layouts[0]
		if m.top.split {
			from = m.d.layouts[1]
		}
		m.top = position{split: l.split, row: matchRow(from, l.rs, m.top.row)}
	}
	m.setTop(l, m.topLine(l))
}

// topLine is the first screen line shown.
func (m Model) topLine(l *layout) int {
	row, sub := m.top.row, m.top.sub
	if m.top.split != l.split {
		from := m.d.layouts[0]
		if m.top.split {
			from = m.d.layouts[1]
		}
		row, sub = matchRow(from, l.rs, row), 0
	}
	row = max(min(row, len(l.rs.rows)-1), 0)
	line := l.tops[row] + min(sub, l.tops[row+1]-l.tops[row]-1)
	return max(min(line, m.maxTop(l)), 0)
}

func (m *Model) setTop(l *layout, line int) {
	line = max(min(line, m.maxTop(l)), 0)
	row := l.rowAt(line)
	m.top = position{split: l.split, row: row, sub: line - l.tops[row]}
}

func (m Model) maxTop(l *layout) int { return max(l.total()-m.bodyHeight(), 0) }

// matchRow finds in to the row that shows what row r of from shows: the same
// hunk title or the same line, or for other rows the nearest such row above.
func matchRow(from, to *rowSet, r int) int {
	r = max(min(r, len(from.rows)-1), 0)
	for ; r > 0; r-- {
		if k := from.rows[r].kind; k == rowHeader || k == rowContext || k == rowChange {
			break
		}
	}
	want := from.rows[r]
	for i, x := range to.rows {
		switch {
		case want.kind == rowHeader:
			if x.kind == rowHeader && x.hunk == want.hunk {
				return i
			}
		case want.old >= 0 && x.old == want.old && x.kind == want.kind,
			want.old < 0 && want.new >= 0 && x.new == want.new && x.kind == want.kind:
			return i
		}
	}
	return 0
}
