package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"pincer/agent"
	"pincer/internal/safetext"
	"pincer/safety"
	"pincer/themes"
	"pincer/tools"
	"pincer/ui/cells"
)

// ask opens the dialog for an approval question from the agent, and
// notifies the person when the terminal is not in front.
func (a *App) ask(q question) tea.Cmd {
	if a.autoApproves(q.q) {
		a.rememberDiff(q.q)
		q.answer(agent.Decision{Allow: true})
		return nil
	}
	var init tea.Cmd
	var d dialog
	if q.q.Kind == agent.ApproveEdit && q.q.Step == 1 {
		ed := newEditDialog(a, q)
		init = ed.Init()
		d = ed
	} else {
		d = newApprovalDialog(q, a.opts.Root, a.clock)
	}
	a.holdIfTyping(d)
	a.pushDialog(d)
	return tea.Batch(init, a.notify("pincer: waiting for your approval"))
}

// autoApproves reports whether the session's mode answers the question
// without asking (agent.Approval.AnsweredUnasked).
func (a *App) autoApproves(q agent.Approval) bool { return q.AnsweredUnasked(a.mode()) }

// approvalKeyMap is the keys of an approval dialog as it asks (the fields
// it opens for a comment, a rule or the typed "yes" take text); keys.md's
// table is written from it.
type approvalKeyMap struct {
	Allow, Always, Deny, Comment, Scroll key.Binding
}

func defaultApprovalKeys() approvalKeyMap {
	return approvalKeyMap{
		Allow:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "allow it once (for a dangerous command: go on to the second step)")),
		Always:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "allow it, and from now on every command that matches a rule: the suggested rule appears for you to edit; `Enter` saves it for this session and runs the command, `Esc` goes back. Offered only when a rule fits, never for dangerous commands")),
		Deny:    key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "refuse")),
		Comment: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "refuse with a comment for the model: type it, `Enter` sends it, `Esc` goes back")),
		Scroll:  key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown", "home", "end"), key.WithHelp("↑/↓/pgup/pgdn/home/end", "scroll a command too tall for the dialog (also in the second step; `Home` and `End` only before it), as the mouse wheel does; the dialog says which lines are shown")),
	}
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
	keyGuard
	q     question
	root  string
	mode  approvalMode
	keys  approvalKeyMap
	input textinput.Model
	// top is the first row of the foreign part on screen; viewH and total
	// are the rows of the last drawing, for scrolling.
	top, viewH, total int
	// blockFor caches the foreign part drawn at blockWidth: a long command
	// is sanitised and styled once, not on every frame (the theme cannot
	// change while a dialog holds the keys).
	blockFor   *foreignBlock
	blockWidth int
}

func newApprovalDialog(q question, root string, clock func() time.Time) *approvalDialog {
	d := &approvalDialog{keyGuard: newKeyGuard(clock), q: q, root: root, keys: defaultApprovalKeys()}
	d.input = textinput.New()
	d.input.CharLimit = 2000
	d.input.SetWidth(60)
	if q.q.Step == 2 {
		d.mode = modeTypeYes
		d.input.Placeholder = "type yes"
		d.input.Focus()
	}
	return d
}

// answer sends the decision to the waiting agent.
func (d *approvalDialog) answer(dec agent.Decision) (bool, tea.Cmd) {
	d.q.answer(dec)
	return true, nil
}

// Update implements dialog.
func (d *approvalDialog) Update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if key.Matches(msg, d.keys.Scroll) && d.scrollKey(msg.String()) {
		return false, nil
	}
	if d.settling() && msg.String() != "esc" {
		return false, nil
	}
	q := d.q.q
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
	switch k := d.keys; {
	case key.Matches(msg, k.Allow):
		return d.answer(agent.Decision{Allow: true})
	case key.Matches(msg, k.Always):
		if q.Tier < safety.Dangerous && q.SuggestedRule != "" {
			d.mode = modeRule
			d.input.SetValue(q.SuggestedRule)
			d.input.CursorEnd()
			d.input.Focus()
		}
		return false, nil
	case key.Matches(msg, k.Comment):
		d.mode = modeComment
		d.input.SetValue("")
		d.input.Placeholder = "why, or what to do instead"
		d.input.Focus()
		return false, nil
	case key.Matches(msg, k.Deny):
		return d.answer(agent.Decision{Allow: false})
	}
	return false, nil
}

// answers implements guardedDialog: the letters that choose, or any text
// while a field is open.
func (d *approvalDialog) answers(msg tea.KeyPressMsg) bool {
	if d.mode != modeChoose {
		return true
	}
	switch k := d.keys; {
	case key.Matches(msg, k.Allow, k.Deny, k.Comment):
		return true
	case key.Matches(msg, k.Always):
		q := d.q.q
		return q.Tier < safety.Dangerous && q.SuggestedRule != ""
	}
	return false
}

// View implements dialog. The foreign part (the command, the paths, the
// action) is shown whole, wrapped, with escaped characters marked; when it
// is taller than the room left it scrolls inside the dialog, so the tier,
// the reasons and the keys stay on screen at every size.
func (d *approvalDialog) View(width, height int, st themes.Styles) string {
	q := d.q.q
	w := min(width-4, 100)
	inner := max(w-4, 10)
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
	case danger && q.Step == 2 && q.Kind == agent.ApproveWeb:
		title = "⚠ Second confirmation: really fetch this?"
	case danger && q.Step == 2:
		title = "⚠ Second confirmation: really run this?"
	case danger:
		title = "⚠ Dangerous: " + safetext.LineOf(q.Summary)
	case q.Kind == agent.ApprovePath:
		title = "Allow this file access?"
	case q.MCP != nil:
		title = mcpTitle(q.MCP)
	case q.Kind == agent.ApproveAction && strings.HasPrefix(q.Tool, "mcp__"):
		title = "Call this MCP tool?"
	case q.Kind == agent.ApproveAction:
		title = "Allow this?"
	case q.Kind == agent.ApproveWeb:
		title = "Fetch this web page?"
	default:
		title = "Run this command?"
	}
	title = askedBy(q, title)

	if d.blockFor == nil || d.blockWidth != inner {
		b := d.block(inner, st)
		d.blockFor, d.blockWidth = &b, inner
	}
	block := *d.blockFor
	var facts []string
	if f := block.facts(); f != "" {
		facts = append(facts, st.Warning.Render(f))
	}
	if q.Command != "" && q.Dir != "" && q.Dir != d.root {
		facts = append(facts, strings.Split(st.Muted.Render(wrapText("in "+safetext.LineOf(q.Dir), inner)), "\n")...)
	}

	tier := st.Warning.Render(q.Tier.String())
	if danger {
		tier = st.Danger.Render(q.Tier.String())
	}
	tail := []string{st.Muted.Render("tier ") + tier}
	var reasons []string
	for _, r := range q.Reasons {
		style := st.Text
		if danger {
			style = st.Danger.Bold(false)
		}
		reasons = append(reasons, strings.Split(style.Render(wrapText("• "+safetext.LineOf(r), inner)), "\n")...)
	}
	var input []string
	var keys string
	d.input.SetWidth(max(inner-3, 1))
	switch d.mode {
	case modeComment:
		input = append(append([]string{""}, strings.Split(st.Text.Render(wrapText("Tell the model why (it reads this with the refusal):", inner)), "\n")...), d.input.View())
		keys = "enter send the refusal · esc back"
	case modeRule:
		what := "Allow for the rest of this session every command matching:"
		if q.Kind == agent.ApproveWeb {
			what = "Allow for the rest of this session every fetch from the domain (read_web DOMAIN, *.DOMAIN for its subdomains):"
		}
		if strings.HasPrefix(q.Tool, "mcp__") {
			what = "Allow for the rest of this session, unasked, the MCP tool:"
		}
		input = append(append([]string{""}, strings.Split(st.Text.Render(wrapText(what, inner)), "\n")...), d.input.View())
		keys = "enter save the rule and run · esc back"
	case modeTypeYes:
		verb := "run it"
		if q.Kind == agent.ApproveEdit {
			verb = "apply the edit"
		}
		if q.Kind == agent.ApproveWeb {
			verb = "fetch it"
		}
		input = append(append([]string{""}, strings.Split(st.Danger.Render(wrapText("Type yes and press Enter to "+verb+".", inner)), "\n")...), d.input.View())
		keys = "enter confirm · esc cancel"
	default:
		parts := []string{"y allow once"}
		if danger {
			parts = []string{"y continue to the final confirmation"}
		} else if q.SuggestedRule != "" {
			parts = append(parts, fmt.Sprintf("a always allow %q", safetext.LineOf(q.SuggestedRule)))
		}
		parts = append(parts, "n deny", "c deny with a comment", "esc deny")
		keys = strings.Join(parts, " · ")
	}
	keyStyle := st.Muted
	if d.held {
		keys, keyStyle = d.heldKeys("deny"), st.Warning
	}
	keyLines := strings.Split(keyStyle.Render(wrapText(keys, inner)), "\n")

	lines := layoutApproval(height, approvalParts{
		rows: block.rows, facts: facts, tail: tail, reasons: reasons, input: input, keys: keyLines,
	}, d, inner, st)
	return frameLines(st, w, title, titleStyle, lines, border)
}

// maxMCPName is how much of a server's or a tool's name the title of an
// MCP question shows; the rest is marked cut.
const maxMCPName = 48

// mcpTitle asks about an MCP call naming the tool and its server on one
// line, each sanitised and cut to maxMCPName: names come from the server
// and the configuration, and must not draw lines of their own above the
// arguments.
func mcpTitle(m *tools.MCPUse) string {
	name := func(s string) string { return cells.Truncate(safetext.LineOf(s), maxMCPName) }
	return "Call " + name(m.Tool) + " of the MCP server " + name(m.Server) + "?"
}

// approvalParts are the lines of an approval dialog's parts, before they
// are fitted to the height.
type approvalParts struct {
	rows    []string // the foreign part, which scrolls
	facts   []string // line count, escapes, where the command runs
	tail    []string // the tier
	reasons []string
	input   []string // a text field and what it is for
	keys    []string
}

// layoutApproval fits the parts of an approval dialog into height lines,
// border included. The title, the tier, the input and the keys always
// show; what gives way, in turn, is the blank lines, the room for the
// foreign part (which scrolls, never cut), then the reasons and the facts,
// which say how many of their lines are not shown.
func layoutApproval(height int, p approvalParts, d *approvalDialog, inner int, st themes.Styles) []string {
	avail := height - 3 - len(p.tail) - len(p.input) - len(p.keys) // border and title
	gaps := 3                                                      // under the title, above the tier and above the keys
	minRows := min(len(p.rows), 3)
	need := func() int {
		n := minRows + gaps + len(p.facts) + len(p.reasons)
		if len(p.rows) > minRows {
			n++ // the line that says where the view is
		}
		return n
	}
	if need() > avail {
		gaps = 0
		if len(p.input) > 0 && p.input[0] == "" {
			p.input = p.input[1:]
			avail++
		}
	}
	if need() > avail {
		minRows = 1
	}
	if over := need() - avail; over > 0 && len(p.reasons) > 0 {
		keep := max(len(p.reasons)-over-1, 0)
		note := fmt.Sprintf("… %d more lines of reasons", len(p.reasons)-keep)
		if keep == 0 {
			note = fmt.Sprintf("%d lines of reasons: enlarge the window", len(p.reasons))
		}
		p.reasons = append(p.reasons[:keep:keep], st.Muted.Render(cells.Truncate(note, inner)))
	}
	if over := need() - avail; over > 0 {
		p.facts = p.facts[:max(len(p.facts)-over, 0)]
	}
	if over := need() - avail; over > 0 && len(p.reasons) > 0 {
		p.reasons = p.reasons[:max(len(p.reasons)-over, 0)]
	}
	viewH := max(avail-gaps-len(p.facts)-len(p.reasons), 1)
	var out []string
	if gaps > 0 {
		out = append(out, "")
	}
	if len(p.rows) > viewH {
		viewH = max(viewH-1, 1) // a line for where the view is
		d.viewH, d.total = viewH, len(p.rows)
		d.top = min(d.top, len(p.rows)-viewH)
		end := min(d.top+viewH, len(p.rows))
		out = append(out, p.rows[d.top:end]...)
		where := fmt.Sprintf("lines %d–%d of %d", d.top+1, end, len(p.rows))
		hint := where + " · ↑/↓ PgUp/PgDn scroll"
		if end < len(p.rows) {
			hint = where + " · ↓ more · ↑/↓ PgUp/PgDn scroll"
		}
		if lipgloss.Width(hint) > inner {
			hint = where + " ↑↓"
		}
		out = append(out, st.Accent.Render(cells.Truncate(hint, inner)))
	} else {
		d.viewH, d.total, d.top = viewH, len(p.rows), 0
		out = append(out, p.rows...)
	}
	out = append(out, p.facts...)
	if gaps > 0 {
		out = append(out, "")
	}
	out = append(out, p.tail...)
	out = append(out, p.reasons...)
	out = append(out, p.input...)
	if gaps > 0 {
		out = append(out, "")
	}
	return append(out, p.keys...)
}

// block draws the foreign part of the question to width.
func (d *approvalDialog) block(width int, st themes.Styles) foreignBlock {
	q := d.q.q
	bs := blockStyle{text: st.ToolArg, escaped: st.Warning.Reverse(true), gutter: st.Muted, mark: st.Warning.Bold(true)}
	switch {
	case q.Command != "":
		return newForeignBlock(q.Command, "$ ", width, bs)
	case q.MCP != nil:
		// Only the arguments scroll, from their first line: the server's
		// names are in the title, on one line.
		return newForeignBlock(q.MCP.Arguments, "", width, bs)
	case q.Kind == agent.ApproveAction:
		// An MCP call is pincer's own layout of server, tool and
		// pretty-printed arguments (whose strings keep their line breaks
		// escaped): not lines to count. A task's prompt is numbered.
		bs.unnumbered = strings.HasPrefix(q.Tool, "mcp__")
		return newForeignBlock(q.Summary, "", width, bs)
	case q.Kind == agent.ApproveWeb:
		return newForeignBlock(q.URL, "", width, bs)
	}
	var all foreignBlock
	for _, p := range q.Paths {
		b := newForeignBlock(p, "", width, bs)
		all.rows = append(all.rows, b.rows...)
		all.escaped = all.escaped || b.escaped
		all.lines = max(all.lines, b.lines)
	}
	if len(all.rows) == 0 {
		all.rows = []string{""}
	}
	return all
}

// scroll moves the view of the foreign part by n rows.
func (d *approvalDialog) scroll(n int) {
	d.top = max(min(d.top+n, d.total-d.viewH), 0)
}

// scrollKey scrolls for the keys that move through a long command, in
// every mode: they cannot answer the question.
func (d *approvalDialog) scrollKey(key string) bool {
	switch key {
	case "up":
		d.scroll(-1)
	case "down":
		d.scroll(1)
	case "pgup":
		d.scroll(-max(d.viewH-1, 1))
	case "pgdown":
		d.scroll(max(d.viewH-1, 1))
	default:
		if d.mode != modeChoose {
			return false
		}
		switch key {
		case "home":
			d.top = 0
		case "end":
			d.scroll(d.total)
		default:
			return false
		}
	}
	return true
}

// Message implements messageDialog: the mouse wheel scrolls the command.
func (d *approvalDialog) Message(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(tea.MouseWheelMsg); ok {
		switch m.Button {
		case tea.MouseWheelUp:
			d.scroll(-3)
		case tea.MouseWheelDown:
			d.scroll(3)
		}
	}
	return nil
}

// wrapText wraps plain text to width.
func wrapText(s string, width int) string {
	return lipgloss.NewStyle().Width(width).Render(s)
}
