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

// overlayPopup draws a completion popup over the bottom lines of the
// transcript, from its left edge: never over the tree or its border.
func (a *App) overlayPopup(base, box string) string {
	left := 0
	if tw := a.treeWidth(); tw > 0 {
		left = tw + 1
	}
	return overlayAt(base, box, a.width, left, a.bodyHeight()-lipgloss.Height(box))
}

// overlayAt replaces the cells of base from column left, on the rows from
// top, with the lines of box; the rest of each row stays as it was.
func overlayAt(base, box string, width, left, top int) string {
	lines := strings.Split(base, "\n")
	boxLines := strings.Split(box, "\n")
	top = max(min(top, len(lines)-len(boxLines)), 0)
	for i, bl := range boxLines {
		if top+i >= len(lines) {
			break
		}
		row := lines[top+i]
		bw := ansi.StringWidth(bl)
		if left+bw > width {
			bl = ansi.Truncate(bl, max(width-left, 0), "")
			bw = ansi.StringWidth(bl)
		}
		head := ansi.Truncate(row, left, "")
		if w := ansi.StringWidth(head); w < left {
			head += strings.Repeat(" ", left-w)
		}
		tail := ansi.TruncateLeft(row, left+bw, "")
		lines[top+i] = head + "\x1b[0m" + bl + "\x1b[0m" + tail
	}
	return strings.Join(lines, "\n")
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
