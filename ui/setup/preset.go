package setup

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// presetKey moves through the presets and picks one.
func (m Model) presetKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	n := len(m.o.Presets)
	switch msg.String() {
	case "up", "k", "ctrl+p", "shift+tab":
		m.presetIdx = (m.presetIdx - 1 + n) % n
	case "down", "j", "ctrl+n", "tab":
		m.presetIdx = (m.presetIdx + 1) % n
	case "home", "g":
		m.presetIdx = 0
	case "end", "G":
		m.presetIdx = n - 1
	case "enter":
		return m.choosePreset(m.o.Presets[m.presetIdx])
	case "esc", "q":
		return m.back()
	}
	return m, nil
}

// choosePreset takes p and moves to the next step it needs. Choosing a
// different preset forgets the key and model given for the last one, so
// one vendor's key is never sent to another.
func (m Model) choosePreset(p Preset) (tea.Model, tea.Cmd) {
	if p.Name != m.preset.Name {
		m.key.Reset()
		m.env.SetValue(p.KeyEnv)
		m.env.CursorEnd()
		m.env.Placeholder = p.KeyEnv
		if p.KeyEnv == "" {
			m.env.Placeholder = "MY_API_KEY"
		}
		m.maskEnvIfKey()
		m.keyMode = keyTyped
		if p.KeyEnv != "" && strings.TrimSpace(m.getenv(p.KeyEnv)) != "" {
			m.keyMode = keyEnv
		}
		m.keyErr = ""
		m.url.Reset()
		m.urlErr = ""
		m.models, m.shown, m.chosen = nil, nil, ""
		m.filter.Reset()
		m.manual.SetValue(p.DefaultModel)
		m.manual.CursorEnd()
	}
	m.preset = p
	m.baseURL = strings.TrimSuffix(strings.TrimSpace(p.BaseURL), "/")
	switch {
	case m.needsURL():
		return m.enter(stepURL)
	case m.needsKeyStep():
		return m.enter(stepKey)
	}
	return m.startFetch()
}

// presetView lists the presets with the chosen one's details below.
func (m Model) presetView(rows int) []string {
	lines := []string{m.st.Text.Render("Which server should pincer talk to?"), ""}
	p := m.o.Presets[m.presetIdx]
	detail := m.presetDetail(p)
	listRows := max(rows-len(lines)-1-len(detail), 3)

	row := func(i int) string { return m.presetRow(m.o.Presets[i], i == m.presetIdx) }
	lines = append(lines, window(m.st, len(m.o.Presets), m.presetIdx, listRows, row)...)
	lines = append(lines, "")
	return append(lines, detail...)
}

// presetRow is one line of the preset list: the title and what it needs.
func (m Model) presetRow(p Preset, selected bool) string {
	var tag string
	switch {
	case p.Local:
		tag = "runs on this machine"
	case p.BaseURL == "":
		tag = "you give the address"
	case p.KeyEnv != "":
		tag = "needs a key (" + p.KeyEnv + ")"
	default:
		tag = "no key needed"
	}
	title := clean(p.Title)
	if title == "" {
		title = clean(p.Name)
	}
	if selected {
		return m.st.Accent.Render("› ") + m.st.Selected.Render(title) + m.st.Muted.Render(" — "+tag)
	}
	return "  " + m.st.Text.Render(title) + m.st.Muted.Render(" — "+tag)
}

// presetDetail says where the selected preset's server is and which model
// it starts with.
func (m Model) presetDetail(p Preset) []string {
	line := m.st.Muted.Render("provider ") + m.st.Text.Render(clean(p.Name))
	if p.BaseURL != "" {
		line += m.st.Muted.Render(" at ") + m.st.Text.Render(clean(p.BaseURL))
	} else {
		line += m.st.Muted.Render(": you give the server's address next")
	}
	if p.DefaultModel != "" {
		line += m.st.Muted.Render(", model " + clean(p.DefaultModel))
	}
	return wrap(line, m.width)
}
