// Package complete is the completion popup of pincer's input: "@" followed
// by part of a path offers the project's files, "/" at the start offers the
// slash commands. Candidates are ranked fuzzily as the person types, with
// the matched characters highlighted; a helper finds the word being
// completed in the input and puts the accepted value in its place.
//
// Ranking the 50,000 paths of a large project takes a few milliseconds per
// key, and typing more of the same query only looks at what the last one
// matched; a list that is partial says so under its rows.
package complete

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Defaults of a new popup.
const (
	DefaultRows  = 8  // rows shown at most
	DefaultWidth = 60 // cells
	maxResults   = 200
)

// Item is one candidate.
type Item struct {
	// Value is what accepting the item inserts (after the sigil): a path
	// relative to the root, or a command name.
	Value string
	// Label is what is shown and matched; empty means Value.
	Label string
	// Detail is shown dimmed after the label, e.g. what a command does.
	Detail string
}

// Action tells the root app what HandleKey did with a key.
type Action int

// The actions.
const (
	// Ignored: not a key of the popup (or the popup is not visible): give
	// it to the input.
	Ignored Action = iota
	// Moved: the selection moved.
	Moved
	// Accepted: the returned Item was chosen and the popup closed.
	Accepted
	// Closed: Esc closed the popup.
	Closed
)

// KeyMap is the popup's key bindings; it implements help.KeyMap.
type KeyMap struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Accept, Close    key.Binding
}

// DefaultKeyMap returns arrows and Ctrl+P/Ctrl+N to move (Shift+Tab too),
// Tab or Enter to accept, Esc to close.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "ctrl+p", "shift+tab"), key.WithHelp("↑/ctrl+p", "the previous item")),
		Down:     key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓/ctrl+n", "the next item")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "a page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "a page down")),
		Accept:   key.NewBinding(key.WithKeys("tab", "enter"), key.WithHelp("tab/enter", "take the item; Enter on a command that needs no arguments also runs it")),
		Close:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close the list")),
	}
}

// ShortHelp returns the bindings for the one-line help.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Down, k.Accept, k.Close} }

// FullHelp returns every binding, grouped for the help screen.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown}, {k.Accept, k.Close}}
}

// Index is a list of items prepared for ranking. Preparing 50,000 paths
// takes tens of milliseconds, so LoadFiles builds the index off the
// screen's loop and OpenIndex takes it as it is.
type Index struct {
	items []Item
	cands []candidate
}

// NewIndex prepares items for ranking; the items must not change after.
func NewIndex(items []Item) *Index { return &Index{items: items, cands: prepare(items)} }

// Items returns the items of the index.
func (ix *Index) Items() []Item { return ix.items }

// Model is the popup. Make one with New.
type Model struct {
	items []Item
	cands []candidate
	// partial: the items are not all there are (a project with more
	// files than were listed); the popup says so.
	partial bool
	// alignDetails puts the details in a column after the widest label,
	// instead of at the right edge of each row.
	alignDetails bool

	query   string
	results []result // best first, at most maxResults
	total   int      // items the query matched

	// What the last query matched, so a longer one searches only those.
	prevQuery   string
	prevMatched []int32
	spare       []int32

	open           bool
	cursor, offset int
	width, rows    int

	styles Styles
	keys   KeyMap

	version uint64     // counts changes to what View draws
	cache   *viewCache // shared with copies, keyed by version
}

// viewCache holds the last drawn popup: while the person thinks, the screen
// redraws for other reasons and the popup costs nothing.
type viewCache struct {
	version uint64
	valid   bool
	s       string
}

// New returns a closed popup DefaultWidth wide showing up to DefaultRows.
func New() Model {
	return Model{width: DefaultWidth, rows: DefaultRows, styles: DefaultStyles().layoutSafe(), keys: DefaultKeyMap(), cache: &viewCache{}}
}

// changed invalidates the drawn popup.
func (m *Model) changed() { m.version++ }

// Open shows the popup over items, ranked for query. Passing the slice that
// is already loaded again costs nothing, so keep one slice per list (files,
// commands) and never change its elements in place; a different slice is
// prepared once (20 to 30 milliseconds for 50,000 paths: LoadFiles
// prepares its Index off the screen's loop). A root app that
// offers both lists does best with one Model for each.
func (m *Model) Open(items []Item, query string) {
	m.setItems(items)
	m.open = true
	m.prevQuery, m.prevMatched = "", nil
	m.query = query
	m.rank()
	m.cursor, m.offset = 0, 0
	m.changed()
}

// SetItems replaces the candidates, as when the file list is reloaded after
// a tool run, keeping the query and, when it is still there, the selected
// item.
func (m *Model) SetItems(items []Item) {
	sel, hadSel := m.Selected()
	m.setItems(items)
	m.prevQuery, m.prevMatched = "", nil
	m.rank()
	m.cursor, m.offset = 0, 0
	m.changed()
	if hadSel {
		for i, r := range m.results {
			if m.items[r.idx] == sel {
				m.moveTo(i)
				break
			}
		}
	}
}

func (m *Model) setItems(items []Item) {
	if len(items) == len(m.items) && (len(items) == 0 || &items[0] == &m.items[0]) {
		return
	}
	m.items = items
	m.cands = prepare(items)
}

// OpenIndex is Open over a prepared index: nothing is prepared on the
// caller's goroutine.
func (m *Model) OpenIndex(ix *Index, query string) {
	m.items, m.cands = ix.items, ix.cands
	m.Open(ix.items, query)
}

// SetIndex is SetItems over a prepared index.
func (m *Model) SetIndex(ix *Index) {
	sel, hadSel := m.Selected()
	m.items, m.cands = ix.items, ix.cands
	m.prevQuery, m.prevMatched = "", nil
	m.rank()
	m.cursor, m.offset = 0, 0
	m.changed()
	if hadSel {
		m.SelectValue(sel.Value)
	}
}

// SetAlignDetails puts every row's detail in one column after the widest
// label (a list of commands and what they do), instead of at the right
// edge of each row, where details of different lengths start ragged.
func (m *Model) SetAlignDetails(on bool) {
	m.alignDetails = on
	m.changed()
}

// SetPartial says whether the items are fewer than there are (a project
// with more files than were listed); the popup then says so under them.
func (m *Model) SetPartial(partial bool) {
	if m.partial != partial {
		m.partial = partial
		m.changed()
	}
}

// SetQuery ranks the items for q and selects the best match.
func (m *Model) SetQuery(q string) {
	if q == m.query {
		return // the selection stays
	}
	m.query = q
	m.rank()
	m.cursor, m.offset = 0, 0
	m.changed()
}

// Close hides the popup; the items stay loaded for the next Open.
func (m *Model) Close() {
	m.open = false
	m.cursor, m.offset = 0, 0
	m.changed()
}

// IsOpen reports whether the popup was opened and not closed since, even
// when nothing matches.
func (m *Model) IsOpen() bool { return m.open }

// Visible reports whether the popup is open and has something to show;
// only then does it take keys.
func (m *Model) Visible() bool { return m.open && len(m.results) > 0 }

// Query returns the query the items are ranked for.
func (m *Model) Query() string { return m.query }

// Total returns how many items the query matched; at most 200 of them are
// kept, best first.
func (m *Model) Total() int { return m.total }

// Results returns the ranked items, best first.
func (m *Model) Results() []Item {
	out := make([]Item, len(m.results))
	for i, r := range m.results {
		out[i] = m.items[r.idx]
	}
	return out
}

// Selected returns the selected item; ok is false when nothing matches.
func (m *Model) Selected() (Item, bool) {
	if m.cursor < 0 || m.cursor >= len(m.results) {
		return Item{}, false
	}
	return m.items[m.results[m.cursor].idx], true
}

// Cursor returns the position of the selection in the results, from 0.
func (m *Model) Cursor() int { return m.cursor }

// SelectValue selects the first result whose Value is v, and reports
// whether there was one; the selection stays where it was otherwise.
func (m *Model) SelectValue(v string) bool {
	for i, r := range m.results {
		if m.items[r.idx].Value == v {
			m.moveTo(i)
			return true
		}
	}
	return false
}

// SelectIndex selects result i, or the nearest one when i is out of range.
func (m *Model) SelectIndex(i int) { m.moveTo(i) }

// SetSize sets the popup's width in cells and the most rows it shows.
func (m *Model) SetSize(width, maxRows int) {
	m.width, m.rows = max(width, 0), max(maxRows, 0)
	m.moveTo(m.cursor)
}

// Height returns the number of lines View draws: the rows shown, and the
// line that says the list is partial when it is; 0 when the popup is not
// visible. The root app lays the screen out with it.
func (m *Model) Height() int {
	if !m.Visible() || m.width <= 0 {
		return 0
	}
	h := min(len(m.results), m.rows)
	if m.footer() != "" {
		h++
	}
	return h
}

// footer is the line under the rows when the list is partial: the best
// matches kept of many more, or a project with more files than listed.
func (m *Model) footer() string {
	var parts []string
	switch {
	case m.total <= len(m.results):
	case m.query == "":
		parts = append(parts, fmt.Sprintf("%d of %s shown: type to narrow", len(m.results), thousands(m.total)))
	default:
		parts = append(parts, fmt.Sprintf("best %d of %s matches: type more", len(m.results), thousands(m.total)))
	}
	if m.partial {
		parts = append(parts, fmt.Sprintf("only the first %s files of the project are listed", thousands(len(m.items))))
	}
	return strings.Join(parts, " · ")
}

// thousands writes n with thousands separators: 50,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// SetStyles replaces the styles; padding, borders and sizes in them are
// dropped, since they would break the layout.
func (m *Model) SetStyles(s Styles) {
	m.styles = s.layoutSafe()
	m.changed()
}

// SetKeyMap replaces the key bindings.
func (m *Model) SetKeyMap(k KeyMap) { m.keys = k }

// KeyMap returns the key bindings, for the help screen.
func (m *Model) KeyMap() KeyMap { return m.keys }

// HandleKey acts on a key press while the popup is visible. On Accepted it
// returns the chosen item and closes; on Ignored the root app gives the key
// to the input as usual.
func (m *Model) HandleKey(msg tea.KeyPressMsg) (Action, Item) {
	if !m.Visible() {
		return Ignored, Item{}
	}
	n := len(m.results)
	switch {
	case key.Matches(msg, m.keys.Up):
		m.moveTo((m.cursor - 1 + n) % n) // wraps, as short lists are walked round
	case key.Matches(msg, m.keys.Down):
		m.moveTo((m.cursor + 1) % n)
	case key.Matches(msg, m.keys.PageUp):
		m.moveTo(max(m.cursor-max(m.rows-1, 1), 0))
	case key.Matches(msg, m.keys.PageDown):
		m.moveTo(min(m.cursor+max(m.rows-1, 1), n-1))
	case key.Matches(msg, m.keys.Accept):
		it, _ := m.Selected()
		m.Close()
		return Accepted, it
	case key.Matches(msg, m.keys.Close):
		m.Close()
		return Closed, Item{}
	default:
		return Ignored, Item{}
	}
	return Moved, Item{}
}

// moveTo selects result i (clamped) and scrolls just enough to show it.
func (m *Model) moveTo(i int) {
	m.changed()
	m.cursor = max(min(i, len(m.results)-1), 0)
	switch {
	case m.rows <= 0:
		m.offset = 0
	case m.cursor < m.offset:
		m.offset = m.cursor
	case m.cursor >= m.offset+m.rows:
		m.offset = m.cursor - m.rows + 1
	}
}

// rank fills results for the query. A query that extends the previous one
// is matched only against what that one matched.
func (m *Model) rank() {
	q := newQuery(m.query)
	if len(q.lower) == 0 {
		m.results = m.results[:0]
		for i := range min(len(m.items), maxResults) {
			m.results = append(m.results, result{idx: i})
		}
		m.total = len(m.items)
		m.prevQuery, m.prevMatched = "", nil
		return
	}
	top := topK{k: maxResults, heap: m.results[:0]}
	matched := m.spare[:0]
	sc := newScorer(&q)
	consider := func(i int) {
		c := &m.cands[i]
		if s, ok := sc.score(c, nil); ok {
			matched = append(matched, int32(i))
			top.add(result{idx: i, score: s, size: len(c.text)})
		}
	}
	if m.prevMatched != nil && m.prevQuery != "" && strings.HasPrefix(m.query, m.prevQuery) {
		for _, i := range m.prevMatched {
			consider(int(i))
		}
	} else {
		for i := range m.cands {
			consider(i)
		}
	}
	m.results = top.sorted()
	m.total = len(matched)
	m.spare = m.prevMatched
	m.prevQuery, m.prevMatched = m.query, matched
}
