package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"pincer/agent"
	"pincer/internal/human"
	"pincer/internal/safetext"
)

// spinner is the animation shown while the agent works.
const spinner = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

// spinnerFrame is the spinner's frame i, cut from spinner in place: the
// status line's parts are made on every frame, to compare with those
// drawn last, and converting spinner to runes allocated each time.
func spinnerFrame(i int) string {
	i %= utf8.RuneCountInString(spinner)
	for at := range spinner {
		if i == 0 {
			_, n := utf8.DecodeRuneInString(spinner[at:])
			return spinner[at : at+n]
		}
		i--
	}
	return ""
}

// statusLine is the bottom line: what is happening, the model and session,
// how full the context is, the tokens used, and the turn's elapsed time.
// Its drawing is kept for as long as its text, the width and the theme
// stay the same: drawn through lipgloss on every frame it cost an eighth
// of a streamed frame, and while an answer streams only the spinner and
// the clock change it, a few times a second.
func (a *App) statusLine() string {
	parts := a.statusParts()
	if a.status.line != "" && a.status.width == a.width && a.status.themeGen == a.themeGen && slices.Equal(a.status.parts, parts) {
		return a.status.line
	}
	a.status.parts, a.status.width, a.status.themeGen = parts, a.width, a.themeGen
	a.status.line = a.drawStatus(parts)
	return a.status.line
}

// statusCache is the status line as last drawn, and what it was drawn
// from.
type statusCache struct {
	parts    []statusPart
	width    int
	themeGen int
	line     string
}

// statusPart is one item of the status line, before styling: left of the
// gap or right of it, its text, and how it is styled.
type statusPart struct {
	right bool
	style statusStyle
	text  string
}

// statusStyle is how a status part is drawn.
type statusStyle int

const (
	statusPlain   statusStyle = iota
	statusWarning             // a notice, a dialog waiting, a session-wide switch
	statusAccent              // the spinner and what the agent does
	statusError               // the language servers' errors
	statusSession             // the session's name: dropped first when it does not fit
	statusMode                // the permission mode (see modeBadge)
)

// statusParts is what the status line says, in order, unstyled.
func (a *App) statusParts() []statusPart {
	parts := make([]statusPart, 0, 12)
	add := func(style statusStyle, text string) { parts = append(parts, statusPart{style: style, text: text}) }
	addRight := func(style statusStyle, text string) {
		parts = append(parts, statusPart{right: true, style: style, text: text})
	}
	// The mode comes first, so a narrow screen drops everything else first.
	add(statusMode, string(a.mode()))
	switch {
	case a.notice != "":
		add(statusWarning, safetext.LineOf(a.notice))
	case len(a.dialogs) > 0:
		add(statusWarning, "● waiting for you")
	case a.busy:
		frame := spinnerFrame(a.spin)
		what := "thinking"
		switch a.state {
		case stateStreaming:
			what = "streaming"
		case stateTool:
			what = "running " + safetext.LineOf(a.toolName)
		case stateThinking:
			if w := a.waitingText(); w != "" {
				what = w
			}
		}
		add(statusAccent, frame+" "+what)
	default:
		add(statusPlain, "idle")
	}
	add(statusPlain, safetext.LineOf(a.opts.Model))
	if a.opts.Session != "" {
		add(statusSession, safetext.LineOf(a.opts.Session))
	}
	for _, m := range a.modes() {
		add(statusWarning, m)
	}
	if w := a.agent.ContextWindow(); w > 0 && a.lastContext > 0 {
		gauge := fmt.Sprintf("ctx %d%%", a.lastContext*100/w)
		if src := a.agent.ContextWindowSource(); src != "default" && src != "context_window" {
			// A window learned from the server may be far from the
			// configured one: say which.
			gauge += " of " + strings.Replace(short(w), ".0", "", 1)
		}
		addRight(statusPlain, gauge)
	}
	about := "" // counts pincer estimated, where the server sent none
	if a.usage.Estimated || a.subUsage.Estimated {
		about = "~"
	}
	addRight(statusPlain, fmt.Sprintf("↑%s%s ↓%s%s", about, short(a.usage.PromptTokens), about, short(a.usage.CompletionTokens)))
	if cost := a.usage.Cost + a.subUsage.Cost; cost > 0 {
		addRight(statusPlain, human.Dollars(cost))
	}
	if n := a.subUsage.PromptTokens + a.subUsage.CompletionTokens; n > 0 {
		addRight(statusPlain, "sub "+short(n))
	}
	if a.diagSeen {
		// What the language servers report for the project now.
		if a.diagErrors > 0 {
			addRight(statusError, "✗ "+human.Plural(a.diagErrors, "error"))
		} else {
			addRight(statusPlain, "0 errors")
		}
	}
	if a.busy {
		addRight(statusPlain, elapsed(a.now.Sub(a.turnStart)))
	}
	if len(a.queue) > 0 {
		addRight(statusPlain, fmt.Sprintf("%d queued", len(a.queue)))
	}
	addRight(statusPlain, "? keys")
	return parts
}

// drawStatus styles the status line's parts and fits them to the width.
func (a *App) drawStatus(parts []statusPart) string {
	st := a.styles
	bar := st.StatusBar
	var left, right []string
	session := ""
	for _, p := range parts {
		var text string
		switch p.style {
		case statusMode:
			text = a.modeBadge()
		case statusWarning:
			text = st.Warning.Inherit(bar).Render(p.text)
		case statusAccent:
			text = st.Accent.Inherit(bar).Render(p.text)
		case statusError:
			text = st.Error.Inherit(bar).Render(p.text)
		case statusSession:
			text = bar.Render(p.text)
			session = text
		default:
			if p.right {
				text = p.text // the right side is styled as a whole
			} else {
				text = bar.Render(p.text)
			}
		}
		if p.right {
			right = append(right, text)
		} else {
			left = append(left, text)
		}
	}
	// When it does not fit, drop parts from the least useful: the session
	// name, the key hint, the model, the token counts.
	sep := bar.Render(" · ")
	for {
		l := bar.Render(" ") + strings.Join(left, sep)
		r := bar.Render(strings.Join(right, " · ") + " ")
		gap := a.width - lipgloss.Width(l) - lipgloss.Width(r)
		if gap >= 1 || (len(left) <= 2 && len(right) == 0) {
			if gap < 0 {
				return lipgloss.NewStyle().MaxWidth(a.width).Render(l + r)
			}
			return l + bar.Render(strings.Repeat(" ", gap)) + r
		}
		switch {
		case len(left) > 2 && a.opts.Session != "" && left[len(left)-1] == session:
			left = left[:len(left)-1]
		case len(right) > 0 && right[len(right)-1] == "? keys":
			right = right[:len(right)-1]
		case len(left) > 2:
			left = left[:len(left)-1]
		case len(right) > 0:
			right = right[1:]
		}
	}
}

// waitShown is how long a request waits for its first byte before the
// status line says so: a model that answers at once never shows it.
const waitShown = 3 * time.Second

// waitingText says, from waitShown on, that the server took the request
// and the model has not started answering, how long that has been and
// the limit, and that Esc stops it; "" before that.
func (a *App) waitingText() string {
	if a.waitingSince.IsZero() {
		return ""
	}
	waited := a.clock().Sub(a.waitingSince)
	if waited < waitShown {
		return ""
	}
	secs := int(waited / time.Second)
	if a.width < 100 {
		return fmt.Sprintf("waiting for the first token %d s · esc stops", secs)
	}
	if a.waitingLimit > 0 {
		return fmt.Sprintf("connected, waiting for the first token (%d s of at most %d s) · esc stops", secs, int(a.waitingLimit/time.Second))
	}
	return fmt.Sprintf("connected, waiting for the first token (%d s) · esc stops", secs)
}

// modes are the session-wide switches that are on, and how commands are
// contained, for the status line.
func (a *App) modes() []string {
	var m []string
	if sb := a.opts.Sandbox; sb.Mode != "" {
		switch {
		case sb.Mode == "off":
			m = append(m, "sandbox off")
		case !sb.Active:
			m = append(m, "no sandbox")
		case !sb.Jailed:
			m = append(m, "sandbox "+sb.Mode+", no namespaces")
		case !sb.Network:
			m = append(m, "sandbox "+sb.Mode+", net off")
		default:
			m = append(m, "sandbox "+sb.Mode)
		}
	}
	if a.autoApprove {
		switch {
		case a.opts.Sandbox.Jailed:
			m = append(m, "auto")
		case a.opts.Sandbox.Active:
			m = append(m, "auto (asks: no namespaces)")
		default:
			m = append(m, "auto (asks: no sandbox)")
		}
	}
	return m
}

// modeBadge is the mode for the status line: plan as a coloured badge,
// accept edits as a caution, ask quietly.
func (a *App) modeBadge() string {
	st := a.styles
	switch m := a.mode(); m {
	case agent.ModePlan:
		return st.Accent.Inherit(st.StatusBar).Reverse(true).Render(" plan ")
	case agent.ModeAcceptEdits:
		return st.Warning.Inherit(st.StatusBar).Render("accept edits")
	default:
		return st.Muted.Inherit(st.StatusBar).Render(m.Label())
	}
}

// short writes a token count briefly: 950, 12.3k, 1.2M.
func short(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

func elapsed(d time.Duration) string {
	d = d.Round(time.Second)
	return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}

// usageText is what /usage says: the tokens and cost of the last turn and
// of the session, the sub-agents' apart.
func (a *App) usageText() string {
	var b strings.Builder
	b.WriteString("Last turn: " + agent.DescribeUsage(a.turnUsage) + ".\n")
	b.WriteString("Session: " + agent.DescribeUsage(a.usage.Plus(a.subUsage)) + ".")
	if a.subUsage != (agent.Usage{}) {
		b.WriteString("\nOf which sub-agents: " + agent.DescribeUsage(a.subUsage) + ".")
	}
	if total := a.usage.Plus(a.subUsage); total.Cost == 0 && total.PromptTokens > 0 {
		b.WriteString("\nTo see a cost, set the model's price in the config: \"prices\": {\"MODEL\": {\"input\": DOLLARS, \"output\": DOLLARS}} per million tokens.")
	}
	return b.String()
}
