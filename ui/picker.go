package ui

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/internal/safetext"
	"pincer/themes"
	"pincer/ui/complete"
)

// picker is a modal list with a fuzzy filter: type to narrow, ↑/↓ to move,
// Enter to choose, Esc to close. Extra keys (ctrl+…) act on the selected
// item; an action may ask for a line of text or a yes first.
type picker struct {
	title   string
	filter  textinput.Model
	list    complete.Model
	items   []complete.Item
	actions []pickerAction
	// choose is called with the chosen item; done closes the picker.
	// chooseHelp says what Enter does ("choose" when empty).
	choose     func(it complete.Item) (done bool, cmd tea.Cmd)
	chooseHelp string
	// moved is called when the selection changes (a live preview).
	moved func(it complete.Item) tea.Cmd
	// cancel is called when the picker closes without a choice.
	cancel func() tea.Cmd
	// preview, when set, draws a pane beside the list for the selection.
	preview func(it complete.Item, width, height int) string
	note    string // a message under the list (an error, a hint), at most maxNoteLines lines
	// warn is a one-line refusal under the list, shown until the next key.
	warn  string
	empty string // shown when there are no items at all

	// An action waiting for input.
	pending *pickerAction
	input   textinput.Model
	target  complete.Item
	last    string // value of the selection last reported to moved
}

// pickerAction is an extra key of a picker.
type pickerAction struct {
	key, help string
	// prompt, when set, asks for a line of text first ("" for a yes/no
	// confirmation when confirm is set).
	prompt  string
	initial func(it complete.Item) string
	confirm bool
	// refuse, when set, says why the action cannot be done to an item;
	// the picker shows it at once instead of asking first.
	refuse func(it complete.Item) string
	run    func(it complete.Item, text string) tea.Cmd
}

func newPicker(title string, items []complete.Item, st themes.Styles) *picker {
	p := &picker{title: title, items: items}
	p.filter = textinput.New()
	p.filter.Placeholder = "type to filter"
	p.filter.Prompt = "› "
	p.filter.SetWidth(40)
	p.filter.Focus()
	p.list = complete.New()
	p.list.SetStyles(complete.Styles{Item: st.Text, Selected: st.Selected, Match: st.Accent, Detail: st.Muted})
	p.list.Open(items, "")
	p.input = textinput.New()
	p.input.SetWidth(40)
	return p
}

// setItems replaces the items, keeping the filter.
func (p *picker) setItems(items []complete.Item) {
	p.items = items
	p.list.Open(items, p.filter.Value())
}

// Update implements dialog.
func (p *picker) Update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if p.pending != nil {
		return p.updatePending(msg)
	}
	k := msg.String()
	p.warn = ""
	switch k {
	case "esc":
		if p.cancel != nil {
			return true, p.cancel()
		}
		return true, nil
	case "enter":
		it, ok := p.list.Selected()
		if !ok || p.choose == nil {
			return false, nil
		}
		return p.choose(it)
	}
	for i := range p.actions {
		a := &p.actions[i]
		if k != a.key {
			continue
		}
		it, ok := p.list.Selected()
		if !ok && a.prompt == "" && !a.confirm && a.run != nil {
			return false, a.run(complete.Item{}, "")
		}
		if !ok && (a.prompt != "" || a.confirm) {
			return false, nil
		}
		if a.refuse != nil {
			if why := a.refuse(it); why != "" {
				p.warn = why
				return false, nil
			}
		}
		if a.prompt == "" && !a.confirm {
			return false, a.run(it, "")
		}
		p.pending, p.target = a, it
		p.input.SetValue("")
		if a.initial != nil {
			p.input.SetValue(a.initial(it))
			p.input.CursorEnd()
		}
		p.input.Focus()
		return false, nil
	}
	switch k { // after the actions, so an action may take ctrl+n
	case "up", "down", "ctrl+p", "ctrl+n", "pgup", "pgdown":
		p.list.HandleKey(msg)
		return false, p.reportMove()
	}
	var cmd tea.Cmd
	p.filter, cmd = p.filter.Update(msg)
	p.list.Open(p.items, p.filter.Value())
	return false, tea.Batch(cmd, p.reportMove())
}

func (p *picker) updatePending(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	a := p.pending
	switch msg.String() {
	case "esc":
		p.pending = nil
		return false, nil
	case "enter":
		if a.confirm {
			return false, nil
		}
		p.pending = nil
		return false, a.run(p.target, strings.TrimSpace(p.input.Value()))
	case "y":
		if a.confirm {
			p.pending = nil
			return false, a.run(p.target, "")
		}
	case "n":
		if a.confirm {
			p.pending = nil
			return false, nil
		}
	}
	if a.confirm {
		return false, nil
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return false, cmd
}

// reportMove tells moved about a new selection.
func (p *picker) reportMove() tea.Cmd {
	if p.moved == nil {
		return nil
	}
	it, ok := p.list.Selected()
	if !ok || it.Value == p.last {
		return nil
	}
	p.last = it.Value
	return p.moved(it)
}

// View implements dialog.
func (p *picker) View(width, height int, st themes.Styles) string {
	w := min(width-4, 120)
	inner := w - 4
	rows := max(min(height-10, 14), 3)
	listW := pickerListWidth(width, p.preview != nil)
	p.list.SetSize(listW, rows)
	var left strings.Builder
	left.WriteString(p.filter.View() + "\n")
	switch {
	case len(p.items) == 0 && p.empty != "":
		left.WriteString(st.Muted.Render(p.empty))
	case !p.list.Visible():
		left.WriteString(st.Muted.Render("nothing matches"))
	default:
		left.WriteString(p.list.View())
	}
	body := left.String()
	if p.preview != nil && listW < inner {
		if it, ok := p.list.Selected(); ok {
			pv := p.preview(it, inner-listW-2, rows+1)
			body = lipgloss.JoinHorizontal(lipgloss.Top, lipgloss.NewStyle().Width(listW+2).Render(body), pv)
		}
	}
	if p.note != "" {
		body += "\n" + st.Warning.Render(wrapLines(safetext.LineOf(p.note), inner, maxNoteLines))
	}
	if p.warn != "" {
		body += "\n" + st.Danger.Render(wrapText(safetext.LineOf(p.warn), inner))
	}
	var keys []string
	if p.pending != nil {
		if p.pending.confirm {
			body += "\n\n" + st.Danger.Render(safetext.LineOf(p.pending.prompt))
			keys = []string{"y yes", "n no"}
		} else {
			body += "\n\n" + st.Text.Render(safetext.LineOf(p.pending.prompt)) + "\n" + p.input.View()
			keys = []string{"enter ok", "esc back"}
		}
	} else {
		enter := "enter choose"
		if p.chooseHelp != "" {
			enter = "enter " + p.chooseHelp
		}
		keys = append(keys, enter)
		for _, a := range p.actions {
			keys = append(keys, a.key+" "+a.help)
		}
		keys = append(keys, "esc close")
	}
	return frame(st, w, p.title, st.Accent, body, wrapText(strings.Join(keys, " · "), inner), st.Accent)
}

// pickerListWidth is the width of a picker's list on a screen width cells
// wide: all of the dialog's inside, or half of it beside a preview.
func pickerListWidth(width int, preview bool) int {
	inner := min(width-4, 120) - 4
	if preview && inner >= 90 {
		return inner / 2
	}
	return inner
}

// maxNoteLines is how many lines a picker's note may take: enough for
// the reason a theme file was left out to be read, not so many that the
// list loses its rows on a small terminal.
const maxNoteLines = 4

// wrapLines wraps s to width and keeps its first n lines, the last of
// them ending in "…" when some were left out.
func wrapLines(s string, width, n int) string {
	lines := strings.Split(wrapText(s, width), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	if len(lines) > n {
		lines = lines[:n]
		lines[n-1] = ansi.Truncate(lines[n-1], width-1, "") + "…"
	}
	return strings.Join(lines, "\n")
}
