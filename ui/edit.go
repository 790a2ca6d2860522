package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"pincer/agent"
	"pincer/internal/safetext"
	"pincer/safety"
	"pincer/themes"
	"pincer/ui/diffview"
)

// editKeyMap is the review's own keys; the diff's are diffview's. keys.md's
// table is written from both.
type editKeyMap struct {
	Accept, Reject, Comment, AcceptAll, Full key.Binding
}

func defaultEditKeys() editKeyMap {
	return editKeyMap{
		Accept:    key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", "accept: write the kept hunks (dropping every hunk is a refusal)")),
		Reject:    key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "reject the edit: nothing is written")),
		Comment:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "reject with a comment for the model")),
		AcceptAll: key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "accept, and apply every later edit of this session without review (see [`/accept-edits`](#modes))")),
		Full:      key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "full screen, and back")),
	}
}

// editDialog is the review of a planned edit: its diff, hunk by hunk. The
// person accepts it, accepts only some hunks, rejects it (with a comment
// for the model), or accepts every edit for the rest of the session.
type editDialog struct {
	keyGuard
	app     *App
	q       question
	keys    editKeyMap
	diff    diffview.Model
	full    bool
	comment bool
	input   textinput.Model
	w, h    int
	// sizedFull is whether the diff was last sized for full screen.
	sizedFull bool
	shownH    int // the height the diff is drawn at now
}

func newEditDialog(a *App, q question) *editDialog {
	d := &editDialog{keyGuard: newKeyGuard(a.clock), app: a, q: q, keys: defaultEditKeys(), diff: diffview.New(q.q.Change, a.theme)}
	d.input = textinput.New()
	d.input.SetWidth(60)
	d.input.Placeholder = "why, or what to do instead"
	return d
}

// Init starts colouring a large diff off the event loop.
func (d *editDialog) Init() tea.Cmd { return d.diff.Init() }

func (d *editDialog) answer(dec agent.Decision) (bool, tea.Cmd) {
	d.q.answer(dec)
	return true, nil
}

// accept answers with the hunks the person kept.
func (d *editDialog) accept() (bool, tea.Cmd) {
	content, rejected, total := d.diff.Result()
	switch {
	case total > 0 && len(rejected) == total:
		return d.answer(agent.Decision{Allow: false, Comment: "I rejected every part of this edit."})
	case len(rejected) > 0:
		return d.answer(agent.Decision{Allow: true, Content: content, Note: d.diff.RejectedNote()})
	}
	return d.answer(agent.Decision{Allow: true})
}

// Update implements dialog.
func (d *editDialog) Update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if d.settling() && msg.String() != "esc" {
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
	switch k := d.keys; {
	case key.Matches(msg, k.Accept):
		return d.accept()
	case key.Matches(msg, k.AcceptAll):
		if d.q.q.Tier < safety.Dangerous {
			d.app.setMode(agent.ModeAcceptEdits, true)
		}
		return d.accept()
	case key.Matches(msg, k.Reject):
		return d.answer(agent.Decision{Allow: false})
	case key.Matches(msg, k.Comment):
		d.comment = true
		d.input.Focus()
		return false, nil
	case key.Matches(msg, k.Full):
		d.full = !d.full
		return false, nil
	}
	var cmd tea.Cmd
	d.diff, cmd = d.diff.Update(msg)
	return false, cmd
}

// answers implements guardedDialog: the review's own letters and the
// diff's, or any text while the comment field is open.
func (d *editDialog) answers(msg tea.KeyPressMsg) bool {
	if d.comment {
		return true
	}
	if k := d.keys; key.Matches(msg, k.Accept, k.AcceptAll, k.Reject, k.Comment, k.Full) {
		return true
	}
	km := d.diff.KeyMap
	return key.Matches(msg, km.NextHunk, km.PrevHunk, km.Toggle, km.AcceptAll, km.RejectAll, km.Top, km.Bottom, km.Layout, km.Wrap)
}

// Message passes other messages (the colouring result, the mouse wheel)
// to the diff.
func (d *editDialog) Message(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	d.diff, cmd = d.diff.Update(msg)
	return cmd
}

// View implements dialog.
func (d *editDialog) View(width, height int, st themes.Styles) string {
	q := d.q.q
	w, h := min(width-2, 160), height-2
	small := height < 24
	if d.full || small {
		w, h = width, height // a small screen gives the diff all it has
	}
	inner := w - 4
	danger := q.Tier >= safety.Dangerous
	var head []string
	if danger || len(q.Reasons) > 0 {
		for _, r := range q.Reasons {
			style := st.Warning
			if danger {
				style = st.Danger
			}
			head = append(head, style.Render(wrapText("• "+safetext.LineOf(r), inner)))
		}
	}
	keys := "y accept the kept hunks · space keep/drop hunk · j/k next/previous · n reject · c reject with a comment · A accept all edits this session · f full screen · v layout · esc reject"
	if small {
		keys = "y accept · space keep/drop · j/k hunks · n reject · c comment · A accept all"
	}
	if d.comment {
		head = append(head, st.Text.Render("Tell the model why (it reads this with the refusal):"), d.input.View())
		keys = "enter send the refusal · esc back"
	}
	keyLines := wrapText(keys, inner)
	if d.held {
		keyLines = st.Warning.Render(wrapText(d.heldKeys("reject"), inner))
	}
	headText := strings.Join(head, "\n")
	diffH := h - 4 - lipgloss.Height(keyLines) - 1
	if headText != "" {
		diffH -= lipgloss.Height(headText) + 1
	}
	diffH = max(diffH, 3)
	if d.w != inner || d.h != diffH || d.sizedFull != d.full {
		d.w, d.h, d.sizedFull = inner, diffH, d.full
		d.diff.SetSize(inner, diffH)
		d.shownH = diffH
	}
	// A short diff gets a short dialog: as high as its content, up to what
	// the screen allows. The content's height changes with the layout (v),
	// so it is asked on every drawing; the diff view caches its layout.
	want := diffH
	if !d.full {
		want = min(max(d.diff.ContentHeight(), 3), diffH)
	}
	if want != d.shownH {
		d.shownH = want
		d.diff.SetSize(inner, want)
	}
	body := d.diff.View()
	if headText != "" {
		body = headText + "\n\n" + body
	}
	title := "Review the edit"
	titleStyle, border := st.Accent, st.Accent
	if danger {
		title = "⚠ Review a dangerous edit (asked twice)"
		titleStyle, border = st.Danger, st.Danger
		if q.Step == 2 {
			title = "⚠ Second confirmation of the edit"
		}
	}
	title = askedBy(q, title)
	return frame(st, w, title, titleStyle, body, keyLines, border)
}
