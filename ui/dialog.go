package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/themes"
)

// dialog is a modal window over the screen. While one is open it gets
// every key; Esc always backs out safely.
type dialog interface {
	// Update handles a key. done reports that the dialog has closed.
	Update(msg tea.KeyPressMsg) (done bool, cmd tea.Cmd)
	// View draws the dialog to fit width×height.
	View(width, height int, st themes.Styles) string
}

// messageDialog is a dialog that wants messages other than keys (a
// component's own results, the mouse wheel).
type messageDialog interface {
	Message(msg tea.Msg) tea.Cmd
}

// settleTime is how long a new dialog ignores keys, so a key still held
// or repeating from the previous dialog cannot answer this one.
const settleTime = 300 * time.Millisecond

func (a *App) topDialog() dialog {
	if len(a.dialogs) == 0 {
		return nil
	}
	return a.dialogs[len(a.dialogs)-1]
}

func (a *App) pushDialog(d dialog) {
	a.dialogs = append(a.dialogs, d)
	a.closePopups()
}

// dialogKey gives a key to the dialog on top and pops it when it is done;
// while the dialog is held (see guardKey) typing goes to the input.
func (a *App) dialogKey(msg tea.KeyPressMsg) tea.Cmd {
	d := a.topDialog()
	if gd, ok := d.(guardedDialog); ok {
		if cmd, used := a.guardKey(gd, msg); used {
			return cmd
		}
	}
	a.lastAnswer = a.clock()
	done, cmd := d.Update(msg)
	if done {
		a.dialogs = a.dialogs[:len(a.dialogs)-1]
	}
	return cmd
}

// frame draws a dialog box: a title, the body and the keys it takes.
func frame(st themes.Styles, width int, title string, titleStyle lipgloss.Style, body, keys string, border lipgloss.Style) string {
	inner := max(width-4, 10)
	var b strings.Builder
	b.WriteString(titleStyle.Render(ansi.Truncate(title, inner, "…")))
	b.WriteString("\n\n")
	b.WriteString(body)
	if keys != "" {
		b.WriteString("\n\n")
		b.WriteString(st.Muted.Render(keys))
	}
	box := lipgloss.NewStyle().
		Border(lipgloss.RoundedBorder()).
		BorderForeground(border.GetForeground()).
		Padding(0, 1).
		Width(width)
	return box.Render(b.String())
}

// frameLines draws a dialog box of a title and lines that are already
// fitted to the width and the height: the caller decides where blank lines
// go.
func frameLines(st themes.Styles, width int, title string, titleStyle lipgloss.Style, lines []string, border lipgloss.Style) string {
	inner := max(width-4, 10)
	head := titleStyle.Render(ansi.Truncate(title, inner, "…"))
	box := lipgloss.NewStyle().
		Border(lipgloss.RoundedBorder()).
		BorderForeground(border.GetForeground()).
		Padding(0, 1).
		Width(width)
	return box.Render(head + "\n" + strings.Join(lines, "\n"))
}

// overlayCenter draws box over the middle of base, which is h lines of the
// screen's width.
func (a *App) overlayCenter(base, box string) string {
	return overlay(base, box, a.width, (a.bodyHeight()-lipgloss.Height(box))/2)
}

// overlayBottom draws box over the bottom lines of base.
func (a *App) overlayBottom(base, box string) string {
	return overlay(base, box, a.width, a.bodyHeight()-lipgloss.Height(box))
}

// overlay replaces lines of base from row top with the lines of box,
// centred horizontally.
func overlay(base, box string, width, top int) string {
	lines := strings.Split(base, "\n")
	boxLines := strings.Split(box, "\n")
	if top < 0 {
		top = 0
	}
	if len(boxLines) > len(lines) {
		boxLines = boxLines[:len(lines)]
	}
	if top+len(boxLines) > len(lines) {
		top = len(lines) - len(boxLines)
	}
	bw := lipgloss.Width(box)
	left := max((width-bw)/2, 0)
	// The rows the box covers are cleared on both sides: text peeking out
	// beside a dialog only distracts.
	for i, bl := range boxLines {
		right := max(width-left-ansi.StringWidth(bl), 0)
		lines[top+i] = strings.Repeat(" ", left) + bl + "\x1b[0m" + strings.Repeat(" ", right)
	}
	return strings.Join(lines, "\n")
}
