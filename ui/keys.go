package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/agent"
	"pincer/internal/safetext"
	"pincer/ui/complete"
)

// keyMap is the screen's own bindings; the transcript, the tree and the
// input have theirs.
type keyMap struct {
	Send       key.Binding
	Newline    key.Binding
	Cancel     key.Binding
	Quit       key.Binding
	Focus      key.Binding
	Mode       key.Binding
	ToggleTree key.Binding
	Help       key.Binding
	Copy       key.Binding
	CopyCode   key.Binding
	PageUp     key.Binding
	PageDown   key.Binding
	History    key.Binding
}

func defaultKeys() keyMap {
	return keyMap{
		Send:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:    key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"), key.WithHelp("shift+enter/ctrl+j", "new line")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel the turn / close")),
		Quit:       key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "cancel; twice to quit")),
		Focus:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		Mode:       key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "mode: ask → accept edits → plan")),
		ToggleTree: key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "show/hide the tree")),
		Help:       key.NewBinding(key.WithKeys("?", "f1"), key.WithHelp("?", "keys (in an empty input)")),
		Copy:       key.NewBinding(key.WithKeys("ctrl+y"), key.WithHelp("ctrl+y", "copy the focused message")),
		CopyCode:   key.NewBinding(key.WithKeys("alt+y"), key.WithHelp("alt+y", "copy its code block")),
		PageUp:     key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		History:    key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "earlier prompts")),
	}
}

// key handles a key press: the dialog on top gets it first, then the
// completion popup, then the screen's bindings, then the focused pane.
func (a *App) key(msg tea.KeyPressMsg) tea.Cmd {
	k := a.keys
	if a.showHelp {
		if !a.helpKey(msg) || !printable(msg) {
			return nil
		}
		// The key that closed the help types text: it goes on to the
		// input, where the person meant it, instead of being lost.
	}
	if d := a.topDialog(); d != nil {
		return a.dialogKey(msg)
	}
	if key.Matches(msg, k.Quit) {
		return a.ctrlC()
	}
	if a.quitArmed {
		a.quitArmed = false
		a.notice = ""
	}
	if a.focus == focusInput {
		if cmd, used := a.popupKey(msg); used {
			return cmd
		}
	}
	switch {
	case key.Matches(msg, k.Cancel):
		switch {
		case a.busy:
			a.stopTurn()
		case a.focus == focusTranscript && a.transcript.Focused() >= 0:
			var cmd tea.Cmd
			a.transcript, cmd = a.transcript.Update(msg)
			return cmd
		case a.focus != focusInput:
			a.setFocus(focusInput)
		}
		return nil
	case key.Matches(msg, k.Focus):
		a.cycleFocus(1)
		return nil
	case key.Matches(msg, k.Mode):
		a.cycleMode()
		return nil
	case key.Matches(msg, k.ToggleTree):
		a.toggleTree()
		return nil
	case key.Matches(msg, k.Copy):
		return a.copyFocused(false)
	case key.Matches(msg, k.CopyCode):
		return a.copyFocused(true)
	case key.Matches(msg, k.Help) && (a.focus != focusInput || a.input.Value() == ""):
		a.showHelp = true
		return nil
	case a.focus != focusTree && (key.Matches(msg, k.PageUp, k.PageDown) ||
		(msg.String() == "home" || msg.String() == "end") && (a.focus != focusInput || a.input.Value() == "")):
		var cmd tea.Cmd
		a.transcript, cmd = a.transcript.Update(msg)
		return cmd
	}
	if a.focus != focusInput && printable(msg) && !a.paneUses(msg) {
		// Typing while the tree or the transcript has the focus goes to
		// the input, which takes the focus: "/quit" must not reach the
		// tree as a j, a k and an Enter.
		a.setFocus(focusInput)
	}
	switch a.focus {
	case focusTranscript:
		var cmd tea.Cmd
		a.transcript, cmd = a.transcript.Update(msg)
		return cmd
	case focusTree:
		cmd := a.tree.Update(msg)
		a.syncWatch() // a directory may have been opened or closed
		return cmd
	}
	return a.inputKey(msg)
}

// treeMinWidth is the narrowest window the tree is shown in.
const treeMinWidth = 90

// toggleTree shows or hides the tree (Ctrl+T, /tree). In a window too
// narrow for it, it says so instead of changing a choice that shows
// nothing.
func (a *App) toggleTree() {
	if a.width < treeMinWidth {
		a.transcript.AddNotice(fmt.Sprintf("The tree needs a window at least %d columns wide; this one is %d. Widen it to see the tree.", treeMinWidth, a.width))
		return
	}
	a.treeShown = !a.treeShown
	if !a.treeShown && a.focus == focusTree {
		a.setFocus(focusInput)
	}
	a.layout()
}

// printable reports whether msg is a key that types text.
func printable(msg tea.KeyPressMsg) bool {
	return msg.Text != "" && msg.Mod&^tea.ModShift == 0
}

// paneUses reports whether the focused pane (the transcript or the tree)
// has a binding for msg.
func (a *App) paneUses(msg tea.KeyPressMsg) bool {
	switch a.focus {
	case focusTranscript:
		tk := a.transcript.KeyMap()
		if a.transcript.Focused() < 0 && key.Matches(msg, tk.Toggle, tk.Unfocus) {
			return false // no entry to expand or leave: a space is text
		}
		return key.Matches(msg, tk.LineUp, tk.LineDown, tk.PageUp, tk.PageDown, tk.Top, tk.Bottom, tk.PrevEntry, tk.NextEntry, tk.Toggle, tk.Unfocus)
	case focusTree:
		return key.Matches(msg, flatten(a.tree.KeyMap().FullHelp())...)
	}
	return false
}

// ctrlC cancels a busy turn; when idle it clears the input, and quits on a
// second press.
func (a *App) ctrlC() tea.Cmd {
	switch {
	case a.busy:
		a.stopTurn()
		return nil
	case a.input.Value() != "":
		a.input.Reset()
		a.closePopups()
		a.layout() // a cleared multi-line input gives its rows back
		return nil
	case a.quitArmed:
		a.quit = true
		return tea.Quit
	}
	a.quitArmed = true
	a.notice = "Press Ctrl+C again to quit"
	return tea.Tick(2*time.Second, func(time.Time) tea.Msg { return disarmQuitMsg{} })
}

// cycleFocus moves the keyboard focus between input, transcript and tree.
func (a *App) cycleFocus(dir int) {
	order := []focusArea{focusInput, focusTranscript}
	if a.treeWidth() > 0 {
		order = append(order, focusTree)
	}
	i := 0
	for j, f := range order {
		if f == a.focus {
			i = j
		}
	}
	a.setFocus(order[(i+dir+len(order))%len(order)])
}

func (a *App) setFocus(f focusArea) {
	a.focus = f
	if f == focusInput {
		a.input.Focus()
	} else {
		a.input.Blur()
		a.closePopups()
	}
	if f == focusTree {
		a.tree.Focus()
	} else {
		a.tree.Blur()
	}
	if f != focusTranscript {
		a.transcript.Blur()
	}
}

// copyFocused copies the focused transcript entry (or its first code
// block) to the clipboard with OSC 52, which works over SSH and in tmux;
// mouse capture stops native selection (hold Shift to select natively).
func (a *App) copyFocused(code bool) tea.Cmd {
	text, ok := a.transcript.FocusedText()
	if code {
		blocks := a.transcript.FocusedCode()
		if len(blocks) > 0 {
			text, ok = blocks[0], true
		} else {
			ok = false
		}
	}
	if !ok || text == "" {
		a.transcript.AddNotice("Nothing to copy: focus a message first (Tab to the transcript, then [ or ]).")
		return nil
	}
	a.transcript.AddNotice("Copied to the clipboard.")
	return tea.SetClipboard(text)
}

// mouseWheel scrolls the pane under the pointer.
func (a *App) mouseWheel(msg tea.MouseWheelMsg) tea.Cmd {
	m := msg.Mouse()
	if tw := a.treeWidth(); tw > 0 && m.X < tw && m.Y < a.bodyHeight() {
		if m.Button == tea.MouseWheelUp {
			a.tree.Scroll(-3)
		} else {
			a.tree.Scroll(3)
		}
		return nil
	}
	var cmd tea.Cmd
	a.transcript, cmd = a.transcript.Update(msg)
	return cmd
}

// mouseClick focuses what was clicked.
func (a *App) mouseClick(msg tea.MouseClickMsg) tea.Cmd {
	m := msg.Mouse()
	switch {
	case m.Y >= a.bodyHeight():
		a.setFocus(focusInput)
		return nil
	case a.treeWidth() > 0 && m.X < a.treeWidth():
		a.setFocus(focusTree)
		return a.tree.Click(m.Y)
	}
	a.setFocus(focusTranscript)
	var cmd tea.Cmd
	a.transcript, cmd = a.transcript.Update(msg)
	return cmd
}

// helpKey scrolls the help with the keys that scroll everywhere; any
// other key closes it, and then helpKey reports true.
func (a *App) helpKey(msg tea.KeyPressMsg) (closed bool) {
	page := max(a.helpRoom()-1, 1)
	switch msg.String() {
	case "up", "k":
		a.helpTop--
	case "down", "j":
		a.helpTop++
	case "pgup":
		a.helpTop -= page
	case "pgdown", "space":
		a.helpTop += page
	case "home", "g":
		a.helpTop = 0
	case "end", "G":
		a.helpTop = len(a.helpLines())
	default:
		a.showHelp = false
		a.helpTop = 0
		return true
	}
	a.helpTop = max(min(a.helpTop, len(a.helpLines())-a.helpRoom()), 0)
	return false
}

// helpRoom is how many lines of the help fit inside its box when it
// scrolls: the body's height less the borders and the position line.
func (a *App) helpRoom() int { return max(a.bodyHeight()-3, 1) }

// helpView is the help in a box that fits the screen: when its lines do
// not all fit, a window of them from helpTop, with a line saying where it
// is and how to scroll.
func (a *App) helpView() string {
	lines := a.helpLines()
	st := a.styles
	inner := max(a.width-4, 10) // borders and padding
	if len(lines)+2 > a.bodyHeight() {
		room := a.helpRoom()
		top := max(min(a.helpTop, len(lines)-room), 0)
		end := min(top+room, len(lines))
		pos := fmt.Sprintf("lines %d–%d of %d · ↑/↓ PgUp/PgDn scroll · any other key closes", top+1, end, len(lines))
		lines = append(lines[top:end:end], st.Accent.Render(ansi.Truncate(pos, inner, "…")))
	}
	for i, l := range lines {
		if lipgloss.Width(l) > inner {
			lines[i] = ansi.Truncate(l, inner, "…")
		}
	}
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(st.Accent.GetForeground()).Padding(0, 1)
	return box.Render(strings.Join(lines, "\n"))
}

// helpLines lists every binding, grouped, in as many columns as fit.
func (a *App) helpLines() []string {
	k := a.keys
	tk := a.transcript.KeyMap()
	rk := a.tree.KeyMap()
	groups := []struct {
		title string
		keys  []key.Binding
	}{
		{"Conversation", []key.Binding{k.Send, k.Newline, k.History, k.Cancel, k.Quit}},
		{"Screen · mode: " + a.mode().Label(), []key.Binding{k.Focus, k.Mode, k.ToggleTree, k.PageUp, k.PageDown, k.Copy, k.CopyCode, k.Help}},
		{"Transcript (Tab to it)", []key.Binding{tk.LineUp, tk.LineDown, tk.Top, tk.Bottom, tk.PrevEntry, tk.NextEntry, tk.Toggle, tk.Unfocus}},
		{"Tree (Tab to it)", flatten(rk.FullHelp())},
	}
	st := a.styles
	var blocks []string
	for _, g := range groups {
		var b strings.Builder
		b.WriteString(st.Accent.Render(g.title))
		width := 0
		for _, kb := range g.keys {
			width = max(width, lipgloss.Width(kb.Help().Key))
		}
		for _, kb := range g.keys {
			if !kb.Enabled() || kb.Help().Key == "" {
				continue
			}
			h := kb.Help()
			b.WriteString("\n" + st.Text.Render(h.Key+strings.Repeat(" ", width-lipgloss.Width(h.Key))) + "  " + st.Muted.Render(h.Desc))
		}
		blocks = append(blocks, b.String())
	}
	// Commands in two columns of name and a short help.
	var cmdCells []string
	nameW := 0
	for _, c := range a.cmdList {
		nameW = max(nameW, len(c.Name)+1)
	}
	for _, c := range a.cmdList {
		cmdCells = append(cmdCells, st.Text.Render(fmt.Sprintf("%-*s", nameW, "/"+c.Name))+"  "+st.Muted.Render(safetext.LineOf(c.Help))) // a custom command's help is the project's text
	}
	var cmds strings.Builder
	cmds.WriteString(st.Accent.Render("Commands"))
	cellW := 0
	for _, c := range cmdCells {
		cellW = max(cellW, lipgloss.Width(c))
	}
	half := (len(cmdCells) + 1) / 2
	if 2*cellW+4 > a.width-6 {
		half = len(cmdCells) // one column
	}
	for i := 0; i < half; i++ {
		line := cmdCells[i]
		if j := i + half; j < len(cmdCells) {
			line += strings.Repeat(" ", cellW-lipgloss.Width(line)+4) + cmdCells[j]
		}
		cmds.WriteString("\n" + line)
	}
	// The key groups in two columns when there is room, the commands below.
	colW := 0
	for _, b := range blocks {
		colW = max(colW, lipgloss.Width(b))
	}
	var keysPart string
	if a.width >= 2*colW+10 {
		left := lipgloss.JoinVertical(lipgloss.Left, interleave(blocks[:2], "")...)
		right := lipgloss.JoinVertical(lipgloss.Left, interleave(blocks[2:], "")...)
		keysPart = lipgloss.JoinHorizontal(lipgloss.Top, lipgloss.NewStyle().Width(colW+4).Render(left), right)
	} else {
		keysPart = lipgloss.JoinVertical(lipgloss.Left, interleave(blocks, "")...)
	}
	body := keysPart + "\n\n" + cmds.String()
	hint := "↑/↓ and PgUp/PgDn scroll; any other key closes this. Hold Shift while dragging to select text natively (the mouse scrolls otherwise)."
	text := st.Muted.Render(wrapText(hint, min(max(lipgloss.Width(body), 40), max(a.width-4, 10)))) + "\n\n" + body
	return strings.Split(text, "\n")
}

func flatten(groups [][]key.Binding) []key.Binding {
	var out []key.Binding
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// interleave puts sep between the items.
func interleave(items []string, sep string) []string {
	var out []string
	for i, it := range items {
		if i > 0 {
			out = append(out, sep)
		}
		out = append(out, it)
	}
	return out
}

// popupView is the completion popup, when one is open.
func (a *App) popupView() string {
	switch {
	case a.files.Visible():
		return a.files.View()
	case a.commands.Visible():
		return a.commands.View()
	}
	return ""
}

// popupKey gives a key to the open completion popup first.
func (a *App) popupKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	pop := &a.files
	if !pop.Visible() {
		pop = &a.commands
	}
	if !pop.Visible() {
		return nil, false
	}
	action, item := pop.HandleKey(msg)
	switch action {
	case complete.Ignored:
		return nil, false
	case complete.Accepted:
		value := item.Value
		if a.token.Kind == complete.FileMention {
			value = agent.MentionPath(value) // a name with spaces stays one mention
		}
		text, cursor := a.token.Apply(a.input.Value(), value)
		a.setInput(text, cursor)
		pop.Close()
		if a.token.Kind == complete.SlashCommand && msg.String() == "enter" && !a.commandTakesArgs(item.Value) {
			return a.sendInput(), true
		}
	}
	return nil, true
}

// closePopups closes both completion popups.
func (a *App) closePopups() {
	a.files.Close()
	a.commands.Close()
}
