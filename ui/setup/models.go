package setup

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
)

// modelKey moves through the model list; other keys type into the filter.
func (m Model) modelKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	n := len(m.shown)
	page := max(m.listRows()-2, 1)
	switch msg.String() {
	case "esc":
		if m.filter.Value() != "" {
			m.filter.Reset()
			m.refilter()
			return m, nil
		}
		return m.back()
	case "up", "ctrl+p", "shift+tab":
		if n > 0 {
			m.modelIdx = (m.modelIdx - 1 + n) % n
		}
		return m, nil
	case "down", "ctrl+n", "tab":
		if n > 0 {
			m.modelIdx = (m.modelIdx + 1) % n
		}
		return m, nil
	case "pgup":
		m.modelIdx = max(m.modelIdx-page, 0)
		return m, nil
	case "pgdown":
		m.modelIdx = max(min(m.modelIdx+page, n-1), 0)
		return m, nil
	case "enter":
		if n > 0 {
			m.chosen = m.models[m.shown[m.modelIdx]]
			m.fromTyped = false
			return m.enter(stepConfirm)
		}
		name := strings.TrimSpace(m.filter.Value())
		if name == "" {
			return m, nil
		}
		// Nothing on the list matches: take what was typed as the name.
		m.manual.SetValue(name)
		m.manual.CursorEnd()
		m.manualFrom = stepModel
		return m.typedModel()
	}
	var cmd tea.Cmd
	m.filter, cmd = m.filter.Update(msg)
	m.refilter()
	return m, cmd
}

// refilter lists the models that match every word of the filter, keeping
// the cursor on the same model when it still matches.
func (m *Model) refilter() {
	current := -1
	if m.modelIdx >= 0 && m.modelIdx < len(m.shown) {
		current = m.shown[m.modelIdx]
	}
	words := strings.Fields(strings.ToLower(m.filter.Value()))
	shown := make([]int, 0, len(m.models))
	for i, name := range m.models {
		lower := strings.ToLower(name)
		match := true
		for _, w := range words {
			if !strings.Contains(lower, w) {
				match = false
				break
			}
		}
		if match {
			shown = append(shown, i)
		}
	}
	m.shown = shown
	m.modelIdx = max(slices.Index(m.shown, current), 0)
}

// manualKey edits a model name typed by hand.
func (m Model) manualKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch msg.String() {
	case "esc":
		return m.back()
	case "enter":
		return m.typedModel()
	}
	var cmd tea.Cmd
	m.manual, cmd = m.manual.Update(msg)
	m.manualErr = ""
	return m, cmd
}

// typedModel takes the name in the manual field, or says what is wrong
// with it.
func (m Model) typedModel() (tea.Model, tea.Cmd) {
	name := strings.TrimSpace(m.manual.Value())
	switch {
	case name == "":
		m.manualErr = "Type the model's name as the provider lists it, such as " + m.exampleModel() + "."
	case strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		m.manualErr = "A model name has no spaces; type it as the provider lists it, such as " + m.exampleModel() + "."
	default:
		m.manualErr = ""
		m.chosen = name
		m.fromTyped = true
		return m.enter(stepConfirm)
	}
	next, _ := m.enter(stepManual)
	return next, nil
}

// exampleModel is a model name to show in hints.
func (m Model) exampleModel() string {
	if m.preset.DefaultModel != "" {
		return clean(m.preset.DefaultModel)
	}
	return "gpt-5-mini"
}

// listRows is how many lines the model list may take at this size.
func (m Model) listRows() int {
	return max(m.bodyRows()-3, 3) // under the heading, the filter and a blank line
}

// modelView shows the filter and the matching models.
func (m Model) modelView() []string {
	head := fmt.Sprintf("Pick a model: %d on the server", len(m.models))
	if f := m.filter.Value(); f != "" {
		head = fmt.Sprintf("Pick a model: %d of %d match", len(m.shown), len(m.models))
	}
	lines := []string{m.st.Text.Render(head), m.field("Filter", m.filter.View()), ""}
	if len(m.shown) == 0 {
		msg := fmt.Sprintf("No model matches; Enter uses %q as the model name.", clean(strings.TrimSpace(m.filter.Value())))
		return append(lines, wrap(m.st.Warning.Render(msg), m.width)...)
	}
	row := func(i int) string {
		name := m.models[m.shown[i]]
		suffix := ""
		if name == m.preset.DefaultModel {
			suffix = m.st.Muted.Render("  (suggested)")
		}
		if i == m.modelIdx {
			return m.st.Accent.Render("› ") + m.st.Selected.Render(clean(name)) + suffix
		}
		return "  " + m.st.Text.Render(clean(name)) + suffix
	}
	return append(lines, window(m.st, len(m.shown), m.modelIdx, m.listRows(), row)...)
}

// manualView asks for a model name.
func (m Model) manualView() []string {
	lines := wrap(m.st.Text.Render("Type the model's name as "+m.presetTitle()+" lists it."), m.width)
	lines = append(lines, "", m.field("Model", m.manual.View()))
	if m.manualErr != "" {
		lines = append(lines, "")
		lines = append(lines, wrap(m.st.Error.Render(m.manualErr), m.width)...)
	}
	return lines
}
