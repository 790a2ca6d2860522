package setup

import (
	"errors"
	"net/url"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// errBadURL is matched by every error checkBaseURL returns.
var errBadURL = errors.New("not a server address")

// urlError is a reason an address is refused, said with the fix.
type urlError string

func (e urlError) Error() string        { return string(e) }
func (e urlError) Is(target error) bool { return target == errBadURL }

// checkBaseURL returns the address of an OpenAI-compatible server as it
// will be saved: http or https, a host, no credentials, no query, and no
// trailing slash. Errors are one sentence with the fix and never repeat
// the input, which may hold a secret.
func checkBaseURL(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", urlError("Type the server's address, such as http://localhost:8080/v1.")
	}
	if strings.ContainsAny(s, " \t") {
		return "", urlError("The address has a space in it; type it without spaces.")
	}
	if !strings.Contains(s, "://") {
		return "", urlError("Start the address with http:// or https://, such as " + withScheme(s) + ".")
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", urlError("The address is not a valid URL; write it like http://localhost:8080/v1.")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", urlError("The address must start with http:// or https://, such as http://localhost:8080/v1.")
	}
	if u.Host == "" || u.Hostname() == "" {
		return "", urlError("The address has no host name; write it like http://localhost:8080/v1.")
	}
	if u.User != nil {
		return "", urlError("Leave the user name and password out of the address; give the key in the next step.")
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return "", urlError("Leave ?query and #fragment out of the address; end it at the API path, such as /v1.")
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// withScheme is an example address for input that lacks a scheme. It
// repeats the input only when it looks like a host name (letters, digits,
// dots, dashes, a port and a path), so a pasted key is never echoed.
func withScheme(s string) string {
	looksLikeHost := len(s) <= 60 && (strings.Contains(s, ".") || strings.HasPrefix(s, "localhost"))
	for _, r := range s {
		if !(r == '.' || r == '-' || r == ':' || r == '/' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			looksLikeHost = false
		}
	}
	switch {
	case !looksLikeHost:
		return "https://example.com/v1"
	case strings.HasPrefix(s, "localhost") || strings.HasPrefix(s, "127."):
		return "http://" + s
	}
	return "https://" + s
}

// urlKey edits the address and checks it on Enter.
func (m Model) urlKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch msg.String() {
	case "esc":
		return m.back()
	case "enter":
		u, err := checkBaseURL(m.url.Value())
		if err != nil {
			m.urlErr = err.Error()
			return m, nil
		}
		m.baseURL = u
		m.urlErr = ""
		if m.needsKeyStep() {
			return m.enter(stepKey)
		}
		return m.startFetch()
	}
	var cmd tea.Cmd
	m.url, cmd = m.url.Update(msg)
	m.urlErr = ""
	return m, cmd
}

// urlView asks for the address of a custom server.
func (m Model) urlView() []string {
	lines := wrap(m.st.Text.Render("Where is the server? Give the address of its OpenAI-compatible API."), m.width)
	lines = append(lines, "", m.field("Address", m.url.View()))
	if m.urlErr != "" {
		lines = append(lines, "")
		lines = append(lines, wrap(m.st.Error.Render(m.urlErr), m.width)...)
	} else {
		lines = append(lines, "")
		lines = append(lines, wrap(m.st.Muted.Render("Most servers end it with /v1, as in http://localhost:8080/v1."), m.width)...)
	}
	return lines
}
