package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/agent"
	"pincer/safety"
	"pincer/themes"
)

// ask opens the dialog for an approval question from the agent, and
// notifies the person when the terminal is not in front.
func (a *App) ask(q question) tea.Cmd {
	if a.autoApproves(q.approval) {
		q.reply <- agent.Decision{Allow: true}
		return nil
	}
	var init tea.Cmd
	if q.approval.Kind == agent.ApproveEdit && q.approval.Step == 1 {
		ed := newEditDialog(a, q)
		init = ed.Init()
		a.pushDialog(ed)
	} else {
		a.pushDialog(newApprovalDialog(q, a.opts.Root))
	}
	return tea.Batch(init, a.notify("pincer: waiting for your approval"))
}

// autoApproves reports whether a session mode answers the question without
// asking: only accept-edits does, never for the dangerous tier.
func (a *App) autoApproves(q agent.Approval) bool {
	if q.Tier >= safety.Dangerous {
		return false
	}
	if q.Kind == agent.ApproveEdit {
		return a.acceptEdits
	}
	// Auto approvals are the agent's to apply (only sandboxed commands run
	// unasked); what reaches the screen is asked.
	return false
}

// approvalMode is what an approval dialog is doing with the keys.
type approvalMode int

const (
	modeChoose  approvalMode = iota
	modeComment              // typing a comment for the model with a refusal
	modeRule                 // editing the rule "always allow" will add
	modeTypeYes              // the second step of a dangerous command: type "yes"
)

// approvalDialog asks about a command or a file access. A dangerous
// action is asked twice by the agent; the second question here can only be
// answered by typing "yes", so holding or repeating the first step's key
// cannot pass it.
type approvalDialog struct {
	q      question
	root   string
	opened time.Time
	mode   approvalMode
	input  textinput.Model
}

func newApprovalDialog(q question, root string) *approvalDialog {
	d := &approvalDialog{q: q, root: root, opened: time.Now()}
	d.input = textinput.New()
	d.input.CharLimit = 2000
	d.input.SetWidth(60)
	if q.approval.Step == 2 {
		d.mode = modeTypeYes
		d.input.Placeholder = "type yes"
		d.input.Focus()
	}
	return d
}

// answer sends the decision to the waiting agent.
func (d *approvalDialog) answer(dec agent.Decision) (bool, tea.Cmd) {
	d.q.reply <- dec
	return true, nil
}

// Update implements dialog.
func (d *approvalDialog) Update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if time.Since(d.opened) < settleTime && msg.String() != "esc" {
		return false, nil
	}
	q := d.q.approval
	switch d.mode {
	case modeComment:
		switch msg.String() {
		case "esc":
			d.mode = modeChoose
			d.input.Blur()
			return false, nil
		case "enter":
			return d.answer(agent.Decision{Allow: false, Comment: strings.TrimSpace(d.input.Value())})
		}
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		return false, cmd
	case modeRule:
		switch msg.String() {
		case "esc":
			d.mode = modeChoose
			d.input.Blur()
			return false, nil
		case "enter":
			rule := strings.TrimSpace(d.input.Value())
			return d.answer(agent.Decision{Allow: true, AllowRule: rule})
		}
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		return false, cmd
	case modeTypeYes:
		switch msg.String() {
		case "esc":
			return d.answer(agent.Decision{Allow: false})
		case "enter":
			if strings.EqualFold(strings.TrimSpace(d.input.Value()), "yes") {
				return d.answer(agent.Decision{Allow: true})
			}
			d.input.SetValue("")
			return false, nil
		}
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		return false, cmd
	}
	switch msg.String() {
	case "y":
		return d.answer(agent.Decision{Allow: true})
	case "a":
		if q.Tier < safety.Dangerous && q.SuggestedRule != "" {
			d.mode = modeRule
			d.input.SetValue(q.SuggestedRule)
			d.input.CursorEnd()
			d.input.Focus()
		}
		return false, nil
	case "c":
		d.mode = modeComment
		d.input.SetValue("")
		d.input.Placeholder = "why, or what to do instead"
		d.input.Focus()
		return false, nil
	case "n", "esc":
		return d.answer(agent.Decision{Allow: false})
	}
	return false, nil
}

// View implements dialog.
func (d *approvalDialog) View(width, height int, st themes.Styles) string {
	q := d.q.approval
	w := min(width-4, 100)
	inner := w - 4
	danger := q.Tier >= safety.Dangerous
	titleStyle, border := st.Accent, st.Accent
	if danger {
		titleStyle, border = st.Danger, st.Danger
	}
	var title string
	switch {
	case danger && q.Step == 2 && q.Kind == agent.ApproveEdit:
		title = "⚠ Second confirmation: really apply this edit?"
	case q.Kind == agent.ApproveUnsandboxed && danger && q.Step == 2:
		title = "⚠ Second confirmation: really run this outside the sandbox?"
	case q.Kind == agent.ApproveUnsandboxed:
		title = "Blocked by the sandbox — run it outside the sandbox?"
	case danger && q.Step == 2:
		title = "⚠ Second confirmation: really run this?"
	case danger:
		title = "⚠ Dangerous: " + q.Summary
	case q.Kind == agent.ApprovePath:
		title = "Allow this file access?"
	case q.Kind == agent.ApproveAction:
		title = "Allow this?"
	default:
		title = "Run this command?"
	}
	var b strings.Builder
	if q.Command != "" {
		for _, l := range strings.Split(q.Command, "\n") {
			b.WriteString(st.ToolArg.Render("$ "+ansi.Truncate(l, inner-2, "…")) + "\n")
		}
		if q.Dir != "" && q.Dir != d.root {
			b.WriteString(st.Muted.Render("in "+q.Dir) + "\n")
		}
	} else if q.Kind == agent.ApproveAction {
		b.WriteString(st.ToolArg.Render(wrapText(q.Summary, inner)) + "\n")
	} else {
		for _, p := range q.Paths {
			b.WriteString(st.ToolArg.Render(ansi.Truncate(p, inner, "…")) + "\n")
		}
	}
	tier := st.Warning.Render(q.Tier.String())
	if danger {
		tier = st.Danger.Render(q.Tier.String())
	}
	b.WriteString("\n" + st.Muted.Render("tier ") + tier)
	for _, r := range q.Reasons {
		style := st.Text
		if danger {
			style = st.Danger.Bold(false)
		}
		b.WriteString("\n" + style.Render(wrapText("• "+r, inner)))
	}
	var keys string
	switch d.mode {
	case modeComment:
		b.WriteString("\n\n" + st.Text.Render("Tell the model why (it reads this with the refusal):") + "\n" + d.input.View())
		keys = "enter send the refusal · esc back"
	case modeRule:
		b.WriteString("\n\n" + st.Text.Render("Allow for the rest of this session every command matching:") + "\n" + d.input.View())
		keys = "enter save the rule and run · esc back"
	case modeTypeYes:
		verb := "run it"
		if q.Kind == agent.ApproveEdit {
			verb = "apply the edit"
		}
		b.WriteString("\n\n" + st.Danger.Render("Type yes and press Enter to "+verb+".") + "\n" + d.input.View())
		keys = "enter confirm · esc cancel"
	default:
		parts := []string{"y allow once"}
		if danger {
			parts = []string{"y continue to the final confirmation"}
		} else if q.SuggestedRule != "" {
			parts = append(parts, fmt.Sprintf("a always allow %q", q.SuggestedRule))
		}
		parts = append(parts, "n deny", "c deny with a comment", "esc deny")
		keys = strings.Join(parts, " · ")
	}
	return frame(st, w, title, titleStyle, strings.TrimRight(b.String(), "\n"), wrapText(keys, inner), border)
}

// wrapText wraps plain text to width.
func wrapText(s string, width int) string {
	return lipgloss.NewStyle().Width(width).Render(s)
}
