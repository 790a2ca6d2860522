package setup

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"pincer/agent/llm"
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
	m.fetchErr, m.fetchHint = "", ""

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
		m.fetchHint = fetchHint(msg.err)
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

// fetchHint says what to check for a failure whose cause is known, ""
// for the general advice: a key has nothing to do with a host name that
// does not resolve, and an address has nothing to do with a refused key.
func fetchHint(err error) string {
	var (
		dns    *net.DNSError
		record tls.RecordHeaderError
		verify *tls.CertificateVerificationError
	)
	const retry = " Then press r to try again, or m to type the model name yourself."
	switch status := llm.ServerStatus(err); {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return "The server refused the key: go back (Esc) and check it." + retry
	case status == http.StatusNotFound:
		return "The server has no model list at this address: check that it ends as the server's API does (often /v1)." + retry
	case errors.As(err, &dns) && dns.IsNotFound:
		return "The host name does not exist: check the address for a typo, and your network or proxy." + retry
	case errors.Is(err, syscall.ECONNREFUSED):
		return "Nothing listens at this address: check that the server is running and the port is right." + retry
	case errors.As(err, &record):
		return "The server does not speak TLS: use http:// instead of https://." + retry
	case errors.As(err, &verify):
		return "The server's certificate cannot be trusted: check the host name, or add its CA to the system's certificates." + retry
	}
	return ""
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
	if m.fetchHint != "" {
		hint = m.fetchHint
	}
	return append(lines, wrap(m.st.Muted.Render(hint), m.width)...)
}
