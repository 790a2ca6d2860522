package setup

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// fetchTimeout bounds one request for the model list, so a server that
// never answers leaves the person with an error and a way on.
const fetchTimeout = 30 * time.Second

// modelsMsg carries the answer to one request for the model list. seq
// tells a current answer from one the person has walked away from.
type modelsMsg struct {
	seq    int
	models []string
	err    error
}

// startFetch asks the server for its models off the event loop while a
// spinner turns.
func (m Model) startFetch() (tea.Model, tea.Cmd) {
	m.stopFetch()
	next, _ := m.enter(stepFetch)
	m = next.(Model)
	m.fetchSeq++
	m.fetching = true
	m.fetchErr = ""

	list := m.o.ListModels
	if list == nil {
		m.fetching = false
		m.fetchErr = "pincer cannot ask this server for its models; type the model name instead."
		return m, nil
	}
	ctx, cancel := context.WithTimeout(m.ctx, fetchTimeout)
	m.cancelFetch = cancel
	seq, base, key := m.fetchSeq, m.baseURL, m.apiKey()
	fetch := func() (msg tea.Msg) {
		defer cancel()
		defer func() {
			// A failing lister must not take the screen down with it.
			if r := recover(); r != nil {
				msg = modelsMsg{seq: seq, err: fmt.Errorf("listing the models failed: %v", r)}
			}
		}()
		models, err := list(ctx, base, key)
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		return modelsMsg{seq: seq, models: models, err: err}
	}
	return m, tea.Batch(fetch, m.spin.Tick)
}

// stopFetch abandons the request in flight, if any.
func (m *Model) stopFetch() {
	if m.cancelFetch != nil {
		m.cancelFetch()
		m.cancelFetch = nil
	}
	m.fetching = false
}

// gotModels takes the server's answer: on success the model list opens,
// on failure the person is told why and how to go on.
func (m Model) gotModels(msg modelsMsg) Model {
	if msg.seq != m.fetchSeq || m.step != stepFetch || !m.fetching {
		return m // an answer the person has walked away from
	}
	m.stopFetch()
	if msg.err != nil {
		m.fetchErr = describeFetchError(msg.err, m.apiKey())
		return m
	}
	models := cleanModels(msg.models)
	if len(models) == 0 {
		m.fetchErr = "The server lists no models; type the model name instead."
		return m
	}
	m.models = models
	m.filter.Reset()
	m.refilter()
	m.modelIdx = 0
	want := m.chosen
	if want == "" {
		want = m.preset.DefaultModel
	}
	if i := slices.Index(m.models, want); i >= 0 {
		m.modelIdx = i
	}
	next, _ := m.enter(stepModel)
	return next.(Model)
}

// cleanModels sorts the names, dropping empty ones and repeats.
func cleanModels(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// describeFetchError words a failed request as one sentence that never
// contains the key.
func describeFetchError(err error, key string) string {
	var text string
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		text = fmt.Sprintf("the server did not answer within %s", fetchTimeout)
	case errors.Is(err, context.Canceled):
		text = "the request was cancelled"
	default:
		text = err.Error()
	}
	if key != "" {
		text = strings.ReplaceAll(text, key, "[key]")
	}
	text = strings.TrimRight(clean(text), ".")
	return "Could not list the models: " + text + "."
}

// fetchKey handles keys while the models are fetched or after it failed.
func (m Model) fetchKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch msg.String() {
	case "esc":
		return m.back()
	}
	if m.fetching {
		return m, nil
	}
	switch msg.String() {
	case "r", "enter":
		return m.startFetch()
	case "m":
		m.manualFrom = stepFetch
		m.manualErr = ""
		return m.enter(stepManual)
	}
	return m, nil
}

// fetchView shows the spinner, or the error and the ways on.
func (m Model) fetchView() []string {
	if m.fetching {
		return wrap(m.spin.View()+" "+m.st.Text.Render("Asking "+clean(m.baseURL)+" for its models…"), m.width)
	}
	lines := wrap(m.st.Error.Render("✗ "+m.fetchErr), m.width)
	lines = append(lines, "")
	hint := "Check the key and the address and try again, or type the model name yourself."
	if !m.needsKeyStep() {
		hint = "Check that the server is running and try again, or type the model name yourself."
	}
	return append(lines, wrap(m.st.Muted.Render(hint), m.width)...)
}
