package complete

import (
	"strings"

	"charm.land/lipgloss/v2"

	"pincer/ui/cells"
)

// Styles is how the popup looks; the root app fills it from the theme.
type Styles struct {
	Item     lipgloss.Style // a row
	Selected lipgloss.Style // the selected row, across the whole width
	Match    lipgloss.Style // matched characters, drawn over Item or Selected
	Detail   lipgloss.Style // the detail text, drawn over Item or Selected
}

// DefaultStyles returns styles in the terminal's own colours, for when no
// theme is set.
func DefaultStyles() Styles {
	return Styles{
		Item:     lipgloss.NewStyle(),
		Selected: lipgloss.NewStyle().Reverse(true),
		Match:    lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Yellow),
		Detail:   lipgloss.NewStyle().Faint(true),
	}
}

// layoutSafe keeps the styles from changing the width of what they draw.
func (s Styles) layoutSafe() Styles {
	for _, p := range []*lipgloss.Style{&s.Item, &s.Selected, &s.Match, &s.Detail} {
		*p = p.Inline(true).UnsetWidth().UnsetHeight().UnsetMaxWidth().UnsetMaxHeight().UnsetTransform()
	}
	return s
}

// View draws the visible rows: Height() lines, each exactly the width set
// by SetSize. Labels too long lose their start ("…/deep/name.go"), since the
// end of a path says most; the detail is cut or dropped first.
func (m *Model) View() string {
	h := m.Height()
	if h == 0 {
		return ""
	}
	if m.cache != nil && m.cache.valid && m.cache.version == m.version {
		return m.cache.s
	}
	q := newQuery(m.query)
	sc := newScorer(&q)
	pos := make([]int, len(q.lower))
	lines := make([]string, 0, h)
	col := m.detailColumn()
	for i := m.offset; i < m.offset+min(h, m.rows) && i < len(m.results); i++ {
		lines = append(lines, m.row(i, sc, pos, col))
	}
	if f := m.footer(); f != "" {
		// Drawn like a detail: dim, the full width, cut on the right.
		f = cells.Truncate(f, max(m.width-2, 1))
		lines = append(lines, m.styles.Detail.Inherit(m.styles.Item).Render(" "+f+cells.Spaces(m.width-1-cells.Width(f))))
	}
	out := strings.Join(lines, "\n")
	if m.cache != nil {
		*m.cache = viewCache{version: m.version, valid: true, s: out}
	}
	return out
}

// maxAlignedLabel is the widest label the aligned details make room for;
// a longer one (a command with many arguments) has its detail right after
// it rather than pushing every detail to the right.
const maxAlignedLabel = 24

// detailColumn is where details start when they are aligned: two cells
// after the widest label of all the items (up to maxAlignedLabel), so the
// column stays put while the person types; 0 when they are not aligned or
// too little room would be left for them.
func (m *Model) detailColumn() int {
	if !m.alignDetails {
		return 0
	}
	widest := 0
	for i := range m.cands {
		widest = max(widest, cells.Width(string(m.cands[i].text)))
	}
	col := min(widest, maxAlignedLabel) + 2
	if m.width-2-col < 12 {
		return 0
	}
	return col
}

// row draws result i; col is where its detail starts (0: at the right).
func (m *Model) row(i int, sc *scorer, pos []int, col int) string {
	r := m.results[i]
	c := &m.cands[r.idx]
	base, match, detailStyle := m.styles.Item, m.styles.Match.Inherit(m.styles.Item), m.styles.Detail.Inherit(m.styles.Item)
	if i == m.cursor {
		base, match, detailStyle = m.styles.Selected, m.styles.Match.Inherit(m.styles.Selected), m.styles.Detail.Inherit(m.styles.Selected)
	}
	margin := 1
	if m.width < 3 {
		margin = 0
	}
	inner := m.width - 2*margin

	matched := pos[:0]
	if len(pos) > 0 {
		if _, ok := sc.score(c, pos); ok {
			matched = pos
		}
	}

	// Cut the label from the left when it does not fit.
	label := c.text
	start, cut := 0, false
	if cells.Width(string(label)) > inner {
		cut = true
		start = len(label)
		for start > 0 && cells.Width(string(label[start-1:])) <= inner-1 {
			start--
		}
	}
	labelWidth := cells.Width(string(label[start:]))
	if cut {
		labelWidth++
	}

	detail := ""
	if d := cells.Sanitize(m.items[r.idx].Detail); d != "" {
		room := inner - labelWidth - 2
		if col > 0 {
			room = inner - max(col, labelWidth+2)
		}
		if room >= 4 {
			detail = cells.Truncate(d, room)
		}
	}
	gap := inner - labelWidth - cells.Width(detail)
	tail := 0 // spaces after an aligned detail
	if col > 0 && detail != "" {
		at := max(col, labelWidth+2)
		gap = at - labelWidth
		tail = inner - at - cells.Width(detail)
	}

	var b strings.Builder
	b.WriteString(base.Render(cells.Spaces(margin)))
	if cut {
		b.WriteString(base.Render("…"))
	}
	// The label in runs of matched and unmatched characters.
	isMatch := make([]bool, len(label))
	for _, p := range matched {
		isMatch[p] = true
	}
	for j := start; j < len(label); {
		k := j
		for k < len(label) && isMatch[k] == isMatch[j] {
			k++
		}
		if isMatch[j] {
			b.WriteString(match.Render(string(label[j:k])))
		} else {
			b.WriteString(base.Render(string(label[j:k])))
		}
		j = k
	}
	if gap > 0 {
		b.WriteString(base.Render(cells.Spaces(gap)))
	}
	if detail != "" {
		b.WriteString(detailStyle.Render(detail))
	}
	if tail > 0 {
		b.WriteString(base.Render(cells.Spaces(tail)))
	}
	b.WriteString(base.Render(cells.Spaces(margin)))
	return b.String()
}
