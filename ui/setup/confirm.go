package setup

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// confirmKey saves on Enter and goes back on Esc.
func (m Model) confirmKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch msg.String() {
	case "enter":
		return m.quit(true)
	case "esc":
		return m.back()
	}
	return m, nil
}

// confirmView shows what will be written, and where, with the key hidden.
func (m Model) confirmView() []string {
	r := m.result()
	lines := wrap(m.st.Text.Render("Save these settings to "+m.configPath()+"?"), m.width)
	lines = append(lines, "")
	row := func(name, value string) {
		lines = append(lines, strings.Repeat(" ", fieldIndent)+m.st.Muted.Render(padRight(name, 13))+value)
	}
	row("provider", m.st.Text.Render(clean(r.Provider)))
	row("base_url", m.st.Text.Render(clean(r.BaseURL)))
	row("model", m.st.Text.Render(clean(r.Model)))
	switch {
	case r.APIKey != "":
		row("api_key", m.st.Text.Render("••••••••")+m.st.Muted.Render(" (hidden; only you can read the file)"))
	case r.APIKeyEnv != "":
		state := m.st.OK.Render(" (set in this shell)")
		if strings.TrimSpace(m.getenv(r.APIKeyEnv)) == "" {
			state = m.st.Warning.Render(" (not set yet; export it before you start pincer)")
		}
		name := "••••••••"
		if isPlainEnvName(r.APIKeyEnv) {
			name = r.APIKeyEnv
		}
		row("api_key_env", m.st.Text.Render(name)+state)
	}
	lines = append(lines, "")
	return append(lines, wrap(m.st.Muted.Render("pincer starts with these now; change them later in that file."), m.width)...)
}
