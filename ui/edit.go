package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/aymanbagabas/go-udiff"
	"github.com/charmbracelet/x/ansi"

	"pincer/agent"
	"pincer/themes"
)

// editDialog shows the diff of a planned edit for the person to accept or
// reject.
type editDialog struct {
	q       question
	opened  time.Time
	lines   []string
	scroll  int
	comment bool
	input   textinput.Model
}

func newEditDialog(a *App, q question) *editDialog {
	ch := q.approval.Change
	diff := udiff.Unified("a/"+ch.Rel, "b/"+ch.Rel, string(ch.Before), string(ch.After))
	d := &editDialog{q: q, opened: time.Now(), lines: strings.Split(strings.TrimRight(diff, "\n"), "\n")}
	d.input = textinput.New()
	d.input.SetWidth(60)
	d.input.Placeholder = "why, or what to do instead"
	return d
}

func (d *editDialog) answer(dec agent.Decision) (bool, tea.Cmd) {
	d.q.reply <- dec
	return true, nil
}

// Update implements dialog.
func (d *editDialog) Update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if time.Since(d.opened) < settleTime && msg.String() != "esc" {
		return false, nil
	}
	if d.comment {
		switch msg.String() {
		case "esc":
			d.comment = false
			return false, nil
		case "enter":
			return d.answer(agent.Decision{Allow: false, Comment: strings.TrimSpace(d.input.Value())})
		}
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		return false, cmd
	}
	switch msg.String() {
	case "y":
		return d.answer(agent.Decision{Allow: true})
	case "n", "esc":
		return d.answer(agent.Decision{Allow: false})
	case "c":
		d.comment = true
		d.input.Focus()
	case "up", "k":
		d.scroll = max(d.scroll-1, 0)
	case "down", "j":
		d.scroll = min(d.scroll+1, max(len(d.lines)-1, 0))
	case "pgup":
		d.scroll = max(d.scroll-10, 0)
	case "pgdown":
		d.scroll = min(d.scroll+10, max(len(d.lines)-1, 0))
	}
	return false, nil
}

// View implements dialog.
func (d *editDialog) View(width, height int, st themes.Styles) string {
	ch := d.q.approval.Change
	w := width - 4
	inner := w - 4
	rows := max(height-10, 3)
	var b strings.Builder
	end := min(d.scroll+rows, len(d.lines))
	for _, l := range d.lines[d.scroll:end] {
		l = ansi.Truncate(strings.ReplaceAll(l, "\t", "    "), inner, "…")
		switch {
		case strings.HasPrefix(l, "+"):
			b.WriteString(st.DiffAdded.Render(l))
		case strings.HasPrefix(l, "-"):
			b.WriteString(st.DiffRemoved.Render(l))
		case strings.HasPrefix(l, "@@"):
			b.WriteString(st.Accent.Render(l))
		default:
			b.WriteString(st.DiffContext.Render(l))
		}
		b.WriteString("\n")
	}
	keys := "y accept · n reject · c reject with a comment · ↑/↓ scroll · esc reject"
	if d.comment {
		b.WriteString("\n" + d.input.View())
		keys = "enter send the refusal · esc back"
	}
	title := "Edit " + ch.Rel
	if ch.Created {
		title = "Create " + ch.Rel
	}
	return frame(st, w, title+" — "+ch.Summary, st.Accent, strings.TrimRight(b.String(), "\n"), keys, st.Accent)
}
