package setup

import (
	"context"
	"os"

	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"pincer/themes"
)

// step is one screen of the walk-through.
type step int

const (
	stepPreset  step = iota // pick a provider
	stepURL                 // the address of a custom server
	stepKey                 // the key, or the variable that holds it
	stepFetch               // asking the server for its models, or why that failed
	stepModel               // pick a model from the server's list
	stepManual              // type a model name
	stepConfirm             // what will be written, and where
)

// keyMode is how the person gives the key.
type keyMode int

const (
	keyTyped keyMode = iota // typed (or pasted) into a masked field
	keyEnv                  // the name of an environment variable
)

// Model is the setup screen as a Bubble Tea model. Run drives it; tests
// drive it directly with messages.
type Model struct {
	o      Options
	ctx    context.Context
	getenv func(string) string
	st     themes.Styles
	width  int
	height int
	step   step

	presetIdx int
	preset    Preset // the chosen preset; Name is empty until one is chosen
	baseURL   string

	url    textinput.Model
	urlErr string

	keyMode keyMode
	key     textinput.Model // masked: the typed key is never drawn
	env     textinput.Model
	keyErr  string

	fetchSeq    int
	cancelFetch context.CancelFunc
	fetching    bool
	fetchErr    string
	// fetchHint is what to check for the failure in fetchErr, when its
	// cause is known.
	fetchHint string
	spin      spinner.Model

	models   []string // the server's models, sorted
	filter   textinput.Model
	shown    []int // indices into models that match the filter
	modelIdx int   // the cursor, an index into shown

	manual     textinput.Model
	manualErr  string
	manualFrom step // the step Esc returns to from stepManual

	chosen    string // the model
	fromTyped bool   // chosen was typed rather than picked from the list
	done      bool
	saved     bool
}

// New builds the setup screen, starting at the list of presets.
func New(o Options) Model {
	th := o.Theme
	if th.Palette.Foreground == nil {
		th = themes.Dark()
	}
	o.Theme = th
	if len(o.Presets) == 0 {
		o.Presets = []Preset{{Name: "custom", Title: "any OpenAI-compatible server"}}
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	st := th.Styles()
	m := Model{
		o:      o,
		ctx:    context.Background(),
		getenv: getenv,
		st:     st,
		width:  80,
		height: 24,
		url:    newInput(st, "https://example.com/v1", textinput.EchoNormal),
		key:    newInput(st, "paste the key here", textinput.EchoPassword),
		env:    newInput(st, "OPENAI_API_KEY", textinput.EchoNormal),
		filter: newInput(st, "type to filter", textinput.EchoNormal),
		manual: newInput(st, "model name", textinput.EchoNormal),
		spin:   spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(st.Accent)),
	}
	m.resize(m.width, m.height)
	return m
}

// newInput is a one-line text field in the theme's colours with a cursor
// that does not blink, so the screen is redrawn only when something
// changes.
func newInput(st themes.Styles, placeholder string, echo textinput.EchoMode) textinput.Model {
	in := textinput.New()
	in.Prompt = ""
	in.Placeholder = placeholder
	in.EchoMode = echo
	in.EchoCharacter = '•'
	s := in.Styles()
	s.Focused.Text = st.Text
	s.Blurred.Text = st.Text
	s.Focused.Placeholder = st.Muted
	s.Blurred.Placeholder = st.Muted
	s.Cursor.Color = st.Accent.GetForeground()
	s.Cursor.Blink = false
	in.SetStyles(s)
	return in
}

// Init starts nothing: the screen waits for the person.
func (m Model) Init() tea.Cmd { return nil }

// Result returns what the person chose and whether they asked to save it.
// Until they do, saved is false and the Result is empty.
func (m Model) Result() (r Result, saved bool) {
	if !m.saved {
		return Result{}, false
	}
	return m.result(), true
}

// result is what would be saved now.
func (m Model) result() Result {
	r := Result{Provider: m.preset.Name, BaseURL: m.baseURL, Model: m.chosen}
	if !m.needsKeyStep() {
		return r
	}
	switch m.keyMode {
	case keyTyped:
		r.APIKey = trimmedKey(m.key.Value())
	case keyEnv:
		r.APIKeyEnv = trimmedKey(m.env.Value())
	}
	return r
}

// needsKeyStep reports whether the chosen preset asks for a key at all.
func (m Model) needsKeyStep() bool { return !m.preset.Local }

// keyRequired reports whether the chosen preset cannot work without a key.
func (m Model) keyRequired() bool { return !m.preset.Local && m.preset.KeyEnv != "" }

// needsURL reports whether the chosen preset asks for the server's address.
func (m Model) needsURL() bool { return m.preset.BaseURL == "" }

// Update handles one message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.done {
		return m, nil // the person has left; nothing may change the result
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m, nil
	case modelsMsg:
		return m.gotModels(msg), nil
	case spinner.TickMsg:
		if !m.fetching {
			return m, nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	case tea.PasteMsg:
		return m.paste(msg)
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return m.quit(false)
		}
		return m.handleKey(msg)
	}
	// Anything else belongs to the focused field, such as the text its
	// Ctrl+V paste read from the clipboard.
	return m.updateField(msg)
}

// updateField hands msg to the field of the current step.
func (m Model) updateField(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch m.step {
	case stepURL:
		m.url, cmd = m.url.Update(msg)
	case stepKey:
		if m.keyMode == keyTyped {
			m.key, cmd = m.key.Update(msg)
		} else {
			m.env, cmd = m.env.Update(msg)
			m.maskEnvIfKey()
		}
	case stepModel:
		m.filter, cmd = m.filter.Update(msg)
		m.refilter()
	case stepManual:
		m.manual, cmd = m.manual.Update(msg)
	}
	return m, cmd
}

// handleKey hands a key press to the current step.
func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch m.step {
	case stepPreset:
		return m.presetKey(msg)
	case stepURL:
		return m.urlKey(msg)
	case stepKey:
		return m.keyKey(msg)
	case stepFetch:
		return m.fetchKey(msg)
	case stepModel:
		return m.modelKey(msg)
	case stepManual:
		return m.manualKey(msg)
	case stepConfirm:
		return m.confirmKey(msg)
	}
	return m, nil
}

// paste gives pasted text to the field of the current step and clears
// the step's error, as typing does.
func (m Model) paste(msg tea.PasteMsg) (tea.Model, tea.Cmd) {
	m.urlErr, m.keyErr, m.manualErr = "", "", ""
	return m.updateField(msg)
}

// quit ends the program; saved says whether the person asked to save.
func (m Model) quit(saved bool) (tea.Model, tea.Cmd) {
	m.stopFetch()
	m.done, m.saved = true, saved
	return m, tea.Quit
}

// back goes to the step before the current one; from the first step it
// leaves without saving.
func (m Model) back() (tea.Model, tea.Cmd) {
	switch m.step {
	case stepPreset:
		return m.quit(false)
	case stepURL:
		return m.enter(stepPreset)
	case stepKey:
		if m.needsURL() {
			return m.enter(stepURL)
		}
		return m.enter(stepPreset)
	case stepFetch, stepModel:
		m.stopFetch()
		return m.enter(m.beforeModels())
	case stepManual:
		return m.enter(m.manualFrom)
	case stepConfirm:
		if m.fromTyped {
			return m.enter(stepManual)
		}
		return m.enter(stepModel)
	}
	return m, nil
}

// beforeModels is the step that comes before the models are fetched.
func (m Model) beforeModels() step {
	switch {
	case m.needsKeyStep():
		return stepKey
	case m.needsURL():
		return stepURL
	}
	return stepPreset
}

// enter moves to step s, focusing its field.
func (m Model) enter(s step) (tea.Model, tea.Cmd) {
	m.step = s
	for _, in := range []*textinput.Model{&m.url, &m.key, &m.env, &m.filter, &m.manual} {
		in.Blur()
	}
	var cmd tea.Cmd
	switch s {
	case stepURL:
		cmd = m.url.Focus()
	case stepKey:
		cmd = m.focusKey()
	case stepModel:
		cmd = m.filter.Focus()
	case stepManual:
		cmd = m.manual.Focus()
	}
	return m, cmd
}

// resize fits the fields to a new terminal size.
func (m *Model) resize(w, h int) {
	m.width, m.height = max(w, 1), max(h, 1)
	field := max(m.width-fieldIndent-labelWidth-1, 1)
	for _, in := range []*textinput.Model{&m.url, &m.key, &m.env, &m.filter, &m.manual} {
		in.SetWidth(field)
	}
}
