package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"pincer/agent"
	"pincer/internal/human"
	"pincer/ui/complete"
)

// Pastes longer than these are shown in the input as a short placeholder
// and put back when the prompt is sent, so a 5,000-line paste does not
// make the input box crawl.
const (
	pasteMaxBytes = 4000
	pasteMaxLines = 30
)

// inputKey handles a key for the input box: send, history, and editing
// (which updates the completion popups).
func (a *App) inputKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, a.keys.Send):
		return a.sendInput()
	case msg.String() == "up" && a.input.Line() == 0 && a.historyBack():
		return nil
	case msg.String() == "down" && a.input.Line() == a.input.LineCount()-1 && a.historyForward():
		return nil
	}
	a.typed()
	before := a.input.Height()
	var cmd tea.Cmd
	a.input, cmd = a.input.Update(msg)
	reload := a.updateCompletion()
	if a.input.Height() != before {
		a.layout()
	}
	return tea.Batch(cmd, reload)
}

// sendInput submits what is typed.
func (a *App) sendInput() tea.Cmd {
	text := a.input.Value()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	a.input.Reset()
	a.closePopups()
	a.draft = ""
	a.lastTyped = time.Time{} // sent: the person is no longer typing
	a.layout()
	return a.submit(text)
}

// setInput replaces the input's text and puts the cursor at a character
// offset.
func (a *App) setInput(text string, cursor int) {
	a.input.SetValue(text)
	// SetValue leaves the cursor at the end; walk it back to the offset.
	runes := []rune(text)
	if cursor < 0 || cursor > len(runes) {
		cursor = len(runes)
	}
	prefix := string(runes[:cursor])
	line := strings.Count(prefix, "\n")
	col := len([]rune(prefix[strings.LastIndex(prefix, "\n")+1:]))
	for i := 0; a.input.Line() > line && i < len(runes); i++ {
		a.input.CursorUp()
	}
	a.input.SetCursorColumn(col)
	a.layout()
}

// historyBack shows the previous prompt; false when there is none.
func (a *App) historyBack() bool {
	if a.historyPos == 0 || len(a.history) == 0 {
		return false
	}
	if a.historyPos == len(a.history) {
		a.draft = a.input.Value()
	}
	a.historyPos--
	a.setInput(a.history[a.historyPos], -1)
	return true
}

// historyForward shows the next prompt, and the draft after the last one.
func (a *App) historyForward() bool {
	if a.historyPos >= len(a.history) {
		return false
	}
	a.historyPos++
	if a.historyPos == len(a.history) {
		a.setInput(a.draft, -1)
	} else {
		a.setInput(a.history[a.historyPos], -1)
	}
	return true
}

// updateCompletion opens, narrows or closes the popups for the word at the
// cursor: @file mentions and /commands. Opening the / list reads the
// command files again, in the returned command.
func (a *App) updateCompletion() tea.Cmd {
	text := a.input.Value()
	tok, ok := complete.FindToken(text, complete.Offset(text, a.input.Line(), a.input.Column()))
	if !ok {
		a.closePopups()
		return nil
	}
	a.token = tok
	switch tok.Kind {
	case complete.FileMention:
		a.commands.Close()
		if a.files.IsOpen() {
			a.files.SetQuery(tok.Query)
		} else {
			if a.fileIndex != nil {
				a.files.OpenIndex(a.fileIndex, tok.Query)
			} else {
				a.files.Open(a.fileItems, tok.Query)
			}
		}
	case complete.SlashCommand:
		a.files.Close()
		if a.commands.IsOpen() {
			a.commands.SetQuery(tok.Query)
		} else {
			a.commands.Open(a.commandItems(), tok.Query)
			return a.reloadCommands("")
		}
	}
	return nil
}

// insertMention puts "@path " into the input at the cursor.
func (a *App) insertMention(path string) {
	v := a.input.Value()
	if v != "" && !strings.HasSuffix(v, " ") && !strings.HasSuffix(v, "\n") {
		a.input.InsertString(" ")
	}
	a.input.InsertString("@" + agent.MentionPath(path) + " ")
	a.layout()
}

// paste inserts pasted text; a long paste becomes a placeholder that is
// expanded when the prompt is sent.
func (a *App) paste(content string) tea.Cmd {
	if len(a.dialogs) > 0 && !a.heldDialog() {
		return nil
	}
	a.typed()
	if gd, ok := a.topDialog().(guardedDialog); ok {
		gd.guard().last = a.lastTyped // a paste is typing too
	}
	content = normalizeNewlines(content)
	lines := countLines(content)
	if len(content) <= pasteMaxBytes && lines <= pasteMaxLines {
		a.setFocus(focusInput)
		a.input.InsertString(content)
		a.layout()
		return nil
	}
	tag := fmt.Sprintf("[pasted text #%d: %s]", len(a.pastes)+1, human.Plural(lines, "line"))
	a.pastes[tag] = content
	a.setFocus(focusInput)
	a.input.InsertString(tag)
	a.layout()
	return nil
}

// normalizeNewlines turns CRLF and lone CR line breaks into LF: terminals
// send a bracketed paste with CR between lines.
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// countLines is how many lines s has, as a person counts them: a final
// line break does not start another line.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// expandPastes puts pasted text back in place of its placeholders.
func (a *App) expandPastes(text string) string {
	for tag, content := range a.pastes {
		text = strings.ReplaceAll(text, tag, content)
	}
	return text
}
