// Package todolist draws the model's task list: as a section of the side
// pane under the project tree, or as a compact block above the input when
// the pane is hidden or too short. The item in progress is highlighted
// and completed items are dimmed; the marks differ in shape, so the list
// reads the same without colour.
package todolist

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/tools/todo"
	"pincer/ui/cells"
)

// The marks of an item's status.
const (
	MarkPending    = "☐"
	MarkInProgress = "◐"
	MarkCompleted  = "☑"
)

// Mark is the mark of a status.
func Mark(s todo.Status) string {
	switch s {
	case todo.Completed:
		return MarkCompleted
	case todo.InProgress:
		return MarkInProgress
	}
	return MarkPending
}

// Styles is how the list looks; the app fills it from the theme.
type Styles struct {
	Title      lipgloss.Style // "Tasks"
	Count      lipgloss.Style // "2/5 done", and "… 3 more"
	Rule       lipgloss.Style // the rule above the pane section
	Pending    lipgloss.Style // a pending item's text
	Active     lipgloss.Style // the item in progress: mark and text
	Done       lipgloss.Style // a completed item's text
	DoneMark   lipgloss.Style // a completed item's mark
	PendMark   lipgloss.Style // a pending item's mark
	ActiveMark lipgloss.Style // an in-progress item's mark
}

// DefaultStyles are in the terminal's own colours, for when no theme is set.
func DefaultStyles() Styles {
	s := lipgloss.NewStyle
	return Styles{
		Title: s().Bold(true), Count: s().Faint(true), Rule: s().Faint(true),
		Pending: s(), Active: s().Bold(true), Done: s().Faint(true),
		DoneMark: s().Foreground(lipgloss.Green), PendMark: s().Faint(true), ActiveMark: s().Bold(true).Foreground(lipgloss.Yellow),
	}
}

// Model is the list as last set. Its zero value is an empty list.
type Model struct {
	items  []todo.Item
	styles Styles
	// cache holds the last drawing, since the screen draws far more often
	// than the list changes.
	cache struct {
		key  [3]int // kind (1 pane, 2 block), width, height
		gen  int
		text string
	}
	gen int
}

// New returns an empty list with the default styles.
func New() Model { return Model{styles: DefaultStyles()} }

// Set replaces the list.
func (m *Model) Set(items []todo.Item) {
	m.items = append([]todo.Item(nil), items...)
	m.gen++
}

// SetStyles sets how the list looks.
func (m *Model) SetStyles(s Styles) {
	for _, p := range []*lipgloss.Style{&s.Title, &s.Count, &s.Rule, &s.Pending, &s.Active, &s.Done, &s.DoneMark, &s.PendMark, &s.ActiveMark} {
		*p = p.Inline(true).UnsetWidth().UnsetHeight().UnsetMaxWidth().UnsetMaxHeight().UnsetPadding().UnsetMargins()
	}
	m.styles = s
	m.gen++
}

// Empty reports whether there is nothing to show.
func (m *Model) Empty() bool { return len(m.items) == 0 }

// PaneHeight is how many lines the pane section wants in a pane width
// cells wide and room lines tall: a rule, a title and the items (the one
// in progress perhaps over several lines), at most half the pane; 0 when
// the list is empty or the pane is too short to share.
func (m *Model) PaneHeight(width, room int) int {
	if len(m.items) == 0 {
		return 0
	}
	want := 2 + len(m.items)
	if it, ok := todo.Current(m.items); ok {
		want += max(len(wrapped(cells.Sanitize(it.Content), width-2, maxWrap))-1, 0)
	}
	h := min(want, room/2)
	if h < 4 || room-h < 6 {
		return 0
	}
	return h
}

// BlockHeight is how many lines the compact block takes on a screen
// height lines tall: a title line with the item in progress, and a few
// items; one line once every item is completed; 0 for an empty list.
func (m *Model) BlockHeight(height int) int {
	if len(m.items) == 0 {
		return 0
	}
	p := todo.Count(m.items)
	if p.Completed == p.Total || height < 16 {
		return 1
	}
	return min(1+len(m.items), 1+max(min(4, height/8), 1))
}

// Pane draws the side pane's section: exactly height lines (see
// PaneHeight), each exactly width cells.
func (m *Model) Pane(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	return m.cached([3]int{1, width, height}, func() string {
		lines := make([]string, 0, height)
		lines = append(lines, m.styles.Rule.Render(strings.Repeat("─", width)))
		if height > 1 {
			lines = append(lines, m.title(width, false))
		}
		lines = append(lines, m.itemLines(width, height-len(lines), 0, true, true)...)
		for len(lines) < height {
			lines = append(lines, cells.Spaces(width))
		}
		return strings.Join(lines, "\n")
	})
}

// Block draws the compact block: height lines (see BlockHeight), each
// exactly width cells, with a space on the left.
func (m *Model) Block(width, height int) string {
	if width <= 2 || height <= 0 || len(m.items) == 0 {
		return ""
	}
	return m.cached([3]int{2, width, height}, func() string {
		lines := []string{" " + m.title(width-1, height == 1)}
		lines = append(lines, m.itemLines(width, height-1, 1, false, false)...)
		return strings.Join(lines, "\n")
	})
}

func (m *Model) cached(key [3]int, draw func() string) string {
	if m.cache.key == key && m.cache.gen == m.gen && m.cache.text != "" {
		return m.cache.text
	}
	m.cache.key, m.cache.gen, m.cache.text = key, m.gen, draw()
	return m.cache.text
}

// title is "Tasks 2/5 done", padded to width; with current set, the item
// in progress follows it (the block's only line shows it that way).
func (m *Model) title(width int, current bool) string {
	p := todo.Count(m.items)
	head, count := "Tasks", " "+p.String()
	if width < cells.Width(head+count) {
		t := cells.Truncate(head, width)
		return m.styles.Title.Render(t) + cells.Spaces(width-cells.Width(t))
	}
	out := m.styles.Title.Render(head) + m.styles.Count.Render(count)
	used := cells.Width(head + count)
	if it, ok := todo.Current(m.items); current && ok && width-used > 6 {
		text := cells.Truncate(MarkInProgress+" "+cells.Sanitize(it.Content), width-used-3)
		out += "   " + m.styles.Active.Render(text)
		used += 3 + cells.Width(text)
	}
	return out + cells.Spaces(width-used)
}

// maxWrap is how many lines the item in progress may take in the pane,
// where other items are cut to one line.
const maxWrap = 3

// itemLines draws up to rows items, each width cells, starting indent
// cells in. When they do not all fit, the rows keep the item in progress
// (or the first not completed) in view; with notes, a line above and below
// says how many items are left out. With wrap, the item in progress takes
// up to maxWrap lines, so the step at hand reads whole in a narrow pane.
func (m *Model) itemLines(width, rows, indent int, notes, wrap bool) []string {
	if rows <= 0 {
		return nil
	}
	var current []string
	if wrap {
		if it, ok := todo.Current(m.items); ok {
			current = wrapped(cells.Sanitize(it.Content), width-indent-2, min(maxWrap, max(rows-2, 1)))
		}
	}
	extra := max(len(current)-1, 0)
	from, to, withNotes := window(m.items, rows-extra, notes)
	var lines []string
	if withNotes && from > 0 {
		lines = append(lines, m.note(width, indent, "… "+strconv.Itoa(from)+" above"))
	}
	for _, it := range m.items[from:to] {
		if it.Status == todo.InProgress && len(current) > 1 {
			lines = append(lines, m.wrappedLines(current, width, indent)...)
			current = nil // only the first item in progress wraps
			continue
		}
		lines = append(lines, m.itemLine(it, width, indent))
	}
	if withNotes && to < len(m.items) {
		lines = append(lines, m.note(width, indent, "… "+strconv.Itoa(len(m.items)-to)+" more"))
	}
	return lines
}

// wrapped cuts plain text into at most n lines of width cells, the last
// ending in "…" when the text goes on.
func wrapped(text string, width, n int) []string {
	if width <= 0 || n <= 0 {
		return nil
	}
	lines := strings.Split(ansi.Wrap(text, width, ""), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	if len(lines) > n {
		lines[n-1] = cells.Truncate(lines[n-1]+" "+strings.Join(lines[n:], " "), width)
		lines = lines[:n]
	}
	return lines
}

// wrappedLines draws the item in progress over several lines.
func (m *Model) wrappedLines(parts []string, width, indent int) []string {
	room := width - indent - 2
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		p = cells.Truncate(p, room)
		lead := m.styles.ActiveMark.Render(MarkInProgress) + " "
		if i > 0 {
			lead = "  "
		}
		out = append(out, cells.Spaces(indent)+lead+m.styles.Active.Render(p)+cells.Spaces(room-cells.Width(p)))
	}
	return out
}

// window picks the items [from, to) shown in rows lines. With notes, a
// line above and a line below say how many items are left out there,
// where any are (withNotes); with fewer than 3 rows there is no room for
// them. Without, the rows show one item before the anchor, the anchor and
// what follows.
func window(items []todo.Item, rows int, notes bool) (from, to int, withNotes bool) {
	n := len(items)
	if n <= rows {
		return 0, n, false
	}
	anchor := n - 1
	for i, it := range items {
		if it.Status != todo.Completed {
			anchor = i
			break
		}
	}
	if i := indexOf(items, todo.InProgress); i >= 0 {
		anchor = i
	}
	if !notes || rows < 3 {
		from = min(max(anchor-1, 0), n-rows)
		if rows < 3 {
			from = min(anchor, n-rows)
		}
		return from, from + rows, false
	}
	// One item before the anchor stays in view, for context, when the
	// window holds two.
	from = max(anchor-1, 0)
	if rows < 4 {
		from = anchor
	}
	switch {
	case from == 0:
		return 0, rows - 1, true
	case from+rows-1 >= n:
		return n - (rows - 1), n, true
	}
	return from, from + rows - 2, true
}

func indexOf(items []todo.Item, s todo.Status) int {
	for i, it := range items {
		if it.Status == s {
			return i
		}
	}
	return -1
}

// itemLine is one item: its mark and text, styled by status.
func (m *Model) itemLine(it todo.Item, width, indent int) string {
	markStyle, textStyle := m.styles.PendMark, m.styles.Pending
	switch it.Status {
	case todo.Completed:
		markStyle, textStyle = m.styles.DoneMark, m.styles.Done
	case todo.InProgress:
		markStyle, textStyle = m.styles.ActiveMark, m.styles.Active
	}
	room := width - indent - 2
	if room <= 0 {
		return cells.Spaces(width)
	}
	text := cells.Truncate(cells.Sanitize(it.Content), room)
	return cells.Spaces(indent) + markStyle.Render(Mark(it.Status)) + " " + textStyle.Render(text) + cells.Spaces(room-cells.Width(text))
}

// note is a dim line such as "… 3 more".
func (m *Model) note(width, indent int, text string) string {
	text = cells.Truncate(text, max(width-indent, 0))
	return cells.Spaces(indent) + m.styles.Count.Render(text) + cells.Spaces(width-indent-cells.Width(text))
}
