package setup

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/internal/human"
	"pincer/internal/safetext"
	"pincer/themes"
)

const (
	fieldIndent = 2  // columns before a field's label
	labelWidth  = 10 // columns of a field's label, "Variable" and a space
)

// View draws the current step on the whole screen.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}

// render draws the screen: the steps at the top, the current step's body,
// and its keys at the bottom, cut to fit the terminal.
func (m Model) render() string {
	if m.done {
		return ""
	}
	var body []string
	switch m.step {
	case stepPreset:
		body = m.presetView(m.bodyRows())
	case stepURL:
		body = m.urlView()
	case stepKey:
		body = m.keyView()
	case stepFetch:
		body = m.fetchView()
	case stepModel:
		body = m.modelView()
	case stepManual:
		body = m.manualView()
	case stepConfirm:
		body = m.confirmView()
	}
	if len(body) > m.bodyRows() {
		body = body[:m.bodyRows()]
	}
	lines := []string{m.header(), ""}
	lines = append(lines, body...)
	if m.height > len(lines)+1 {
		// Keep the keys on the last line of the screen.
		for len(lines) < m.height-1 {
			lines = append(lines, "")
		}
		lines = append(lines, m.st.Muted.Render(m.keysHelp()))
	}
	if len(lines) > m.height {
		lines = lines[:m.height]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.width, "…")
	}
	return strings.Join(lines, "\n")
}

// bodyRows is how many lines the step's body may take: the screen less the
// header, the blank line under it, and the keys with the blank line above.
func (m Model) bodyRows() int { return max(m.height-4, 1) }

// header names the program and the steps, the current one highlighted.
func (m Model) header() string {
	type crumb struct {
		label string
		on    bool
	}
	crumbs := []crumb{{"Provider", m.step == stepPreset || m.step == stepURL}}
	if m.step == stepPreset || m.needsKeyStep() {
		crumbs = append(crumbs, crumb{"Key", m.step == stepKey})
	}
	crumbs = append(crumbs,
		crumb{"Model", m.step == stepFetch || m.step == stepModel || m.step == stepManual},
		crumb{"Save", m.step == stepConfirm})
	parts := make([]string, len(crumbs))
	for i, c := range crumbs {
		if c.on {
			parts[i] = m.st.Accent.Render(c.label)
		} else {
			parts[i] = m.st.Muted.Render(c.label)
		}
	}
	return m.st.Accent.Render("pincer setup") + m.st.Faint.Render("  ·  ") + strings.Join(parts, m.st.Faint.Render(" › "))
}

// keysHelp lists the keys the current step takes.
func (m Model) keysHelp() string {
	switch m.step {
	case stepPreset:
		return "↑/↓ choose · Enter select · Esc quit"
	case stepURL, stepManual:
		return "Enter next · Esc back · Ctrl+C quit"
	case stepKey:
		return "Tab key or variable · Enter next · Esc back · Ctrl+C quit"
	case stepFetch:
		if m.fetching {
			return "Esc back · Ctrl+C quit"
		}
		return "r try again · m type a name · Esc back · Ctrl+C quit"
	case stepModel:
		return "↑/↓ choose · type to filter · Enter select · Esc back"
	case stepConfirm:
		return "Enter save · Esc back · Ctrl+C quit without saving"
	}
	return ""
}

// field draws a labelled input line.
func (m Model) field(label, input string) string {
	return strings.Repeat(" ", fieldIndent) + m.st.Muted.Render(padRight(label, labelWidth)) + input
}

// window draws the part of a list of n items that fits in rows lines
// with the cursor in view, a page at a time, with a line above or below
// saying how many more there are. The first page has no line above and
// the last none below, so each uses every row. Only the items shown are
// drawn, so long lists cost no more than short ones.
func window(st themes.Styles, n, cursor, rows int, item func(i int) string) []string {
	top, end := 0, n
	switch {
	case n <= rows:
	case rows < 3:
		top, end = cursor, min(cursor+max(rows, 1), n)
	case cursor < rows-1:
		end = rows - 1
	default:
		page := rows - 2
		top = rows - 1 + (cursor-(rows-1))/page*page
		end = top + page
		if n-top <= rows-1 {
			// The last page needs no line below: fill it from the end.
			top, end = n-(rows-1), n
		}
	}
	var out []string
	if top > 0 && rows >= 3 {
		out = append(out, st.Muted.Render(fmt.Sprintf("  ↑ %d more", top)))
	}
	for i := top; i < end; i++ {
		out = append(out, item(i))
	}
	if end < n && rows >= 3 {
		out = append(out, st.Muted.Render(fmt.Sprintf("  ↓ %d more", n-end)))
	}
	return out
}

// wrap breaks styled text into lines of at most width columns, at spaces
// only: model names and addresses keep their hyphens on one line unless
// they are longer than the line.
func wrap(s string, width int) []string {
	const keep = "\u2011" // a non-breaking hyphen stands in while wrapping
	s = strings.ReplaceAll(s, "-", keep)
	s = ansi.Wrap(s, max(width, 1), "")
	return strings.Split(strings.ReplaceAll(s, keep, "-"), "\n")
}

// clean makes text from outside (model names, errors, preset titles)
// safe to draw on one line: runs of white space become one space, and the
// rest follows pincer's one policy (package safetext), which shows escape
// sequences and control characters instead of obeying them.
func clean(s string) string {
	return safetext.LineOf(strings.Join(strings.Fields(s), " "))
}

// padRight pads s with spaces to n columns.
func padRight(s string, n int) string {
	return s + strings.Repeat(" ", max(n-ansi.StringWidth(s), 1))
}

// presetTitle is the chosen preset as people know it.
func (m Model) presetTitle() string {
	if t := clean(m.preset.Title); t != "" {
		return t
	}
	return clean(m.preset.Name)
}

// configPath is where the settings will be written, with the home
// directory shortened to ~.
func (m Model) configPath() string {
	p := clean(m.o.ConfigPath)
	if p == "" {
		return "your pincer config file"
	}
	return human.Tilde(p, m.getenv("HOME"))
}
