package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/internal/safetext"
	"pincer/themes"
	"pincer/tools/mcp"
)

// elicitQuestion is an MCP server's question for the person.
type elicitQuestion = pending[mcp.Elicitation, mcp.Answer]

// screenElicitor is the mcp.Elicitor of the screen: it puts the question
// in the event stream, as the approver does, and waits for the answer or
// for the server to give up.
type screenElicitor struct{ b *bridge }

func (e screenElicitor) ask(ctx context.Context, q mcp.Elicitation) (mcp.Answer, error) {
	return askAndWait[mcp.Elicitation, mcp.Answer](ctx, e.b, q)
}

// askServer opens the dialog of a server's question.
func (a *App) askServer(q elicitQuestion) tea.Cmd {
	d := newElicitDialog(q, a.opts.OpenURL, a.clock)
	a.holdIfTyping(d)
	a.pushDialog(d)
	return a.notify("pincer: an MCP server asks you something")
}

// elicitDialog shows a server's form, one text field per field of it
// (filled with the server's defaults), or the page a server wants opened.
// Everything the server wrote is sanitised; the server is named in the
// title, so a form cannot pass for pincer's own question.
type elicitDialog struct {
	keyGuard
	q      elicitQuestion
	inputs []textinput.Model
	errs   []string
	focus  int
	open   func(string) error
	// note says what went wrong opening a page.
	note string
}

func newElicitDialog(q elicitQuestion, open func(string) error, clock func() time.Time) *elicitDialog {
	d := &elicitDialog{keyGuard: newKeyGuard(clock), q: q, open: open}
	for i, f := range q.q.Fields {
		in := textinput.New()
		in.CharLimit = 2000
		in.Placeholder = fieldHint(f)
		in.SetValue(f.DefaultText())
		if i == 0 {
			in.Focus()
		}
		d.inputs = append(d.inputs, in)
	}
	d.errs = make([]string, len(q.q.Fields))
	return d
}

// fieldHint is the placeholder of an empty field: how to answer it.
func fieldHint(f mcp.Field) string {
	switch f.Kind {
	case mcp.KindBoolean:
		return "yes or no"
	case mcp.KindChoice:
		return "a number from the list"
	case mcp.KindChoices:
		return "numbers from the list, e.g. 1,3"
	case mcp.KindInteger:
		return "a whole number"
	case mcp.KindNumber:
		return "a number"
	}
	if f.Format != "" {
		return f.Format
	}
	return ""
}

// answer sends the answer to the waiting server.
func (d *elicitDialog) answer(a mcp.Answer) (bool, tea.Cmd) {
	d.q.answer(a)
	return true, nil
}

// move puts the cursor in field i.
func (d *elicitDialog) move(i int) {
	if len(d.inputs) == 0 {
		return
	}
	i = (i + len(d.inputs)) % len(d.inputs)
	d.inputs[d.focus].Blur()
	d.focus = i
	d.inputs[i].Focus()
}

// submit checks every field and accepts the form, or shows what is wrong
// and puts the cursor there.
func (d *elicitDialog) submit() (bool, tea.Cmd) {
	content := map[string]any{}
	first := -1
	for i, f := range d.q.q.Fields {
		v, err := f.Parse(d.inputs[i].Value())
		d.errs[i] = ""
		if err != nil {
			d.errs[i] = err.Error()
			if first < 0 {
				first = i
			}
			continue
		}
		if v != nil {
			content[f.Name] = v
		}
	}
	if first >= 0 {
		d.move(first)
		return false, nil
	}
	return d.answer(mcp.Answer{Action: mcp.Accept, Content: content})
}

// Update implements dialog.
func (d *elicitDialog) Update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := msg.String()
	if k == "esc" {
		return d.answer(mcp.Answer{Action: mcp.Decline})
	}
	if d.settling() {
		return false, nil
	}
	if d.q.q.URL != "" {
		switch k {
		case "o":
			if d.open == nil {
				d.note = "pincer cannot open a browser here: open the page yourself, then press y."
				return false, nil
			}
			if err := d.open(d.q.q.URL); err != nil {
				d.note = "Could not open a browser (" + err.Error() + "): open the page yourself, then press y."
				return false, nil
			}
			return d.answer(mcp.Answer{Action: mcp.Accept})
		case "y":
			if d.note != "" {
				return d.answer(mcp.Answer{Action: mcp.Accept})
			}
		case "n":
			return d.answer(mcp.Answer{Action: mcp.Decline})
		}
		return false, nil
	}
	switch k {
	case "ctrl+x":
		return d.answer(mcp.Answer{Action: mcp.Cancel})
	case "tab", "down":
		d.move(d.focus + 1)
		return false, nil
	case "shift+tab", "up":
		d.move(d.focus - 1)
		return false, nil
	case "enter":
		if d.focus < len(d.inputs)-1 {
			d.move(d.focus + 1)
			return false, nil
		}
		return d.submit()
	}
	if len(d.inputs) == 0 {
		return false, nil
	}
	var cmd tea.Cmd
	d.inputs[d.focus], cmd = d.inputs[d.focus].Update(msg)
	return false, cmd
}

// answers implements guardedDialog: a form takes any text; a page's
// question takes its letters.
func (d *elicitDialog) answers(msg tea.KeyPressMsg) bool {
	if d.q.q.URL != "" {
		switch msg.String() {
		case "o", "n", "y":
			return true
		}
		return false
	}
	return true
}

// View implements dialog. The message and the fields come first; when the
// form is taller than the screen, the lines around the field being filled
// in are shown, and the keys always are.
func (d *elicitDialog) View(width, height int, st themes.Styles) string {
	q := d.q.q
	w := min(width-4, 100)
	inner := max(w-4, 10)
	title := "The MCP server " + safetext.LineOf(q.Server) + " asks"
	var body []string
	add := func(s string) { body = append(body, strings.Split(s, "\n")...) }
	if q.Message != "" {
		add(st.Text.Render(wrapText(safetext.TextOf(q.Message), inner)))
	}
	focusTop, focusBottom := 0, 0
	var keys string
	if q.URL != "" {
		title = "The MCP server " + safetext.LineOf(q.Server) + " asks you to open a page"
		add("")
		add(st.Accent.Render(wrapText(safetext.LineOf(q.URL), inner)))
		if d.note != "" {
			add("")
			add(st.Warning.Render(wrapText(safetext.LineOf(d.note), inner)))
			keys = "y I opened it · n/esc decline"
		} else {
			keys = "o open it in your browser · n/esc decline"
		}
	} else {
		for i, f := range q.Fields {
			add("")
			if i == d.focus {
				focusTop = len(body)
			}
			label := safetext.LineOf(f.Label())
			if f.Required {
				label += " *"
			}
			style := st.Text
			marker := "  "
			if i == d.focus {
				style, marker = st.Accent, "› "
			}
			add(style.Render(ansi.Truncate(marker+label, inner, "…")))
			if f.Description != "" {
				add(st.Muted.Render(wrapText("  "+safetext.LineOf(f.Description), inner)))
			}
			if len(f.OptionTitles) > 0 {
				var opts []string
				for j, t := range f.OptionTitles {
					opts = append(opts, fmt.Sprintf("%d) %s", j+1, safetext.LineOf(t)))
				}
				add(st.Muted.Render(wrapText("  "+strings.Join(opts, "  "), inner)))
			}
			d.inputs[i].SetWidth(max(inner-5, 1))
			add("  " + d.inputs[i].View())
			if d.errs[i] != "" {
				add(st.Warning.Render(wrapText("  "+safetext.LineOf(d.errs[i]), inner)))
			}
			if i == d.focus {
				focusBottom = len(body)
			}
		}
		keys = "enter next field, on the last send · tab/↑↓ move · esc decline · ctrl+x cancel"
		if len(q.Fields) == 0 {
			keys = "enter accept · esc decline"
		}
	}
	keyStyle := st.Muted
	if d.held {
		keys, keyStyle = d.heldKeys("decline"), st.Warning
	}
	keyLines := strings.Split(keyStyle.Render(wrapText(keys, inner)), "\n")
	if height-4-len(keyLines) < 3 && !d.held {
		// A small screen: the keys that answer, on one line.
		short := "esc decline · enter send"
		if q.URL != "" {
			short = "o open · esc decline"
		}
		keyLines = []string{keyStyle.Render(ansi.Truncate(short, inner, "…"))}
	}
	room := max(height-4-len(keyLines), 1)
	if len(body) > room {
		// Keep the field being filled in on screen.
		start := max(min(focusBottom-room, focusTop), 0)
		start = min(start, len(body)-room)
		body = body[start : start+room]
	}
	lines := append(append(body, ""), keyLines...)
	return frameLines(st, w, title, st.Accent, lines, st.Accent)
}
