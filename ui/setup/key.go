package setup

import (
	"pincer/internal/envname"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// keyKey edits the key or the variable name; Tab switches between them.
func (m Model) keyKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch msg.String() {
	case "esc":
		return m.back()
	case "tab", "shift+tab":
		if m.keyMode == keyTyped {
			m.keyMode = keyEnv
		} else {
			m.keyMode = keyTyped
		}
		m.keyErr = ""
		return m, m.focusKey()
	case "enter":
		if err := m.checkKey(); err != "" {
			m.keyErr = err
			return m, nil
		}
		m.keyErr = ""
		return m.startFetch()
	}
	var cmd tea.Cmd
	if m.keyMode == keyTyped {
		m.key, cmd = m.key.Update(msg)
	} else {
		m.env, cmd = m.env.Update(msg)
		m.maskEnvIfKey()
	}
	m.keyErr = ""
	return m, cmd
}

// focusKey focuses the field of the current key mode.
func (m *Model) focusKey() tea.Cmd {
	if m.keyMode == keyTyped {
		m.env.Blur()
		return m.key.Focus()
	}
	m.key.Blur()
	return m.env.Focus()
}

// checkKey says what is wrong with the key as given, in one sentence that
// never repeats it, or "" when it will do.
func (m Model) checkKey() string {
	if m.keyMode == keyTyped {
		k := trimmedKey(m.key.Value())
		switch {
		case k == "" && m.keyRequired():
			return "Type or paste the key, or press Tab to name the environment variable that holds it."
		case strings.IndexFunc(k, unicode.IsSpace) >= 0:
			return "The key has a space in it; paste it again as one word."
		}
		return ""
	}
	name := trimmedKey(m.env.Value())
	switch {
	case name == "" && m.keyRequired():
		return "Give the name of the variable that holds the key, such as " + m.preset.KeyEnv + ", or press Tab to type the key."
	case name != "" && !envname.Valid(name):
		return "That is not a variable name (letters, digits and _); to give the key itself, press Tab."
	}
	return ""
}

// maskEnvIfKey hides the variable field unless what is in it reads as a
// conventional variable name, so a key typed or pasted into the wrong
// field is masked from its first character.
func (m *Model) maskEnvIfKey() {
	v := strings.TrimSpace(m.env.Value())
	if v == "" || isPlainEnvName(v) {
		m.env.EchoMode = textinput.EchoNormal
		return
	}
	m.env.EchoMode = textinput.EchoPassword
}

// isPlainEnvName reports whether s is a variable name written the usual
// way, in capitals, digits and _. Only such names are drawn: keys are
// almost always mixed or lower case, so anything else may be a key.
func isPlainEnvName(s string) bool {
	return envname.Valid(s) && strings.ToUpper(s) == s
}

// envName is the variable name as it may be drawn.
func envName(s string) string {
	if isPlainEnvName(s) {
		return s
	}
	return "the variable"
}

// trimmedKey drops the spaces and line ends a paste brings along.
func trimmedKey(s string) string { return strings.TrimSpace(s) }

// apiKey is the key to list the models with: the typed one, or the value
// of the named variable.
func (m Model) apiKey() string {
	switch {
	case !m.needsKeyStep():
		if m.preset.KeyEnv != "" {
			return strings.TrimSpace(m.getenv(m.preset.KeyEnv))
		}
		return ""
	case m.keyMode == keyTyped:
		return trimmedKey(m.key.Value())
	}
	if name := trimmedKey(m.env.Value()); envname.Valid(name) {
		return strings.TrimSpace(m.getenv(name))
	}
	return ""
}

// keyView asks for the key or the name of the variable that holds it.
func (m Model) keyView() []string {
	title := m.presetTitle()
	intro := title + " needs an API key."
	if !m.keyRequired() {
		intro = "If the server needs an API key, give it here; otherwise leave it empty."
	}
	lines := wrap(m.st.Text.Render(intro), m.width)
	lines = append(lines, "", m.keyTabs(), "")

	if m.keyMode == keyTyped {
		lines = append(lines, m.field("Key", m.key.View()), "")
	} else {
		lines = append(lines, m.field("Variable", m.env.View()), "")
	}
	// The error comes first, so a short screen cuts the help instead.
	if m.keyErr != "" {
		lines = append(lines, wrap(m.st.Error.Render(m.keyErr), m.width)...)
		lines = append(lines, "")
	}
	if m.keyMode == keyTyped {
		lines = append(lines, wrap(m.st.Muted.Render("It is saved in "+m.configPath()+", which only you can read. It is never shown."), m.width)...)
	} else {
		lines = append(lines, m.envStatus()...)
	}
	return lines
}

// keyTabs shows the two ways to give the key, the current one marked.
func (m Model) keyTabs() string {
	tab := func(label string, on bool) string {
		if on {
			return m.st.Accent.Render("● ") + m.st.Selected.Render(label)
		}
		return m.st.Muted.Render("○ " + label)
	}
	return strings.Repeat(" ", fieldIndent) + tab("Type the key", m.keyMode == keyTyped) + "    " + tab("Use a variable", m.keyMode == keyEnv)
}

// envStatus says whether the named variable is set, never its value.
func (m Model) envStatus() []string {
	name := trimmedKey(m.env.Value())
	if name == "" || !envname.Valid(name) {
		return wrap(m.st.Muted.Render("pincer reads the key from this variable each time it starts; the file keeps only the name."), m.width)
	}
	var status string
	if strings.TrimSpace(m.getenv(name)) != "" {
		status = m.st.OK.Render("✓ ") + m.st.Text.Render(capitalize(envName(name))+" is set in this shell.")
	} else {
		status = m.st.Warning.Render("! " + capitalize(envName(name)) + " is not set in this shell; export it before you start pincer.")
	}
	lines := wrap(status, m.width)
	return append(lines, wrap(m.st.Muted.Render("The file keeps only the name; pincer reads the key from it each time it starts."), m.width)...)
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
