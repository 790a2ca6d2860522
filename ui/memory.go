package ui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"pincer/internal/human"
	"pincer/session"
)

// memoryMsg carries the project's saved notes for /memory.
type memoryMsg struct {
	notes []session.Note
	err   error
}

// rememberCommand is /remember TEXT: the note is saved to the project's
// memory, for auto recall in later sessions.
func (a *App) rememberCommand(text string) tea.Cmd {
	text = strings.TrimSpace(text)
	if text == "" {
		a.transcript.AddError("/remember needs the text to remember, as in /remember the staging database listens on 5433.")
		return nil
	}
	if a.opts.Store == nil {
		a.transcript.AddError("/remember needs the session store, which is not open.")
		return nil
	}
	st, root := a.opts.Store, a.opts.Root
	return func() tea.Msg {
		n, err := st.AddNote(root, text)
		if err != nil {
			return noticeMsg{err: fmt.Errorf("/remember: %w", err)}
		}
		if session.LooksSecret(n.Text) {
			warning := strings.TrimPrefix(session.SecretNoteWarning(n.ID), fmt.Sprintf("note %d ", n.ID))
			return noticeMsg{err: errors.New(sentence(fmt.Sprintf("saved as note #%d, but it %s", n.ID, warning)))}
		}
		return noticeMsg{text: fmt.Sprintf("Remembered as note #%d; later sessions of this project are reminded of it when it matters. /memory lists the notes; pincer memory edit %d or rm %d changes them.", n.ID, n.ID, n.ID)}
	}
}

// memoryCommand is /memory: what auto recall gave the model in this
// session, and the project's saved notes.
func (a *App) memoryCommand() tea.Cmd {
	if a.opts.Store == nil {
		a.transcript.AddNotice(a.recalledText(nil))
		return nil
	}
	st, root := a.opts.Store, a.opts.Root
	return func() tea.Msg {
		notes, err := st.Notes(root)
		return memoryMsg{notes: notes, err: err}
	}
}

// recalledText describes the recalls of this session and the notes.
func (a *App) recalledText(notes []session.Note) string {
	now := time.Now()
	var b strings.Builder
	if len(a.recalled) == 0 {
		b.WriteString("Nothing was recalled from earlier sessions in this session yet.")
	} else {
		b.WriteString("Recalled in this session (given to the model before your message):")
		for _, r := range a.recalled {
			for _, n := range r.Notes {
				from := "session '" + n.Source() + "'"
				if n.NoteID != 0 {
					from = fmt.Sprintf("saved note #%d", n.NoteID)
				}
				fmt.Fprintf(&b, "\n• %s, %s: %s", from, human.Ago(now, n.When), n.Text)
			}
		}
	}
	if notes != nil || a.opts.Store != nil {
		if len(notes) == 0 {
			b.WriteString("\n\nNo saved notes for this project. /remember TEXT saves one.")
		} else {
			b.WriteString("\n\nSaved notes for this project (pincer memory edit ID / rm ID change them):")
			for _, n := range notes {
				fmt.Fprintf(&b, "\n• #%d, %s: %s", n.ID, human.Ago(now, n.Updated), n.Text)
			}
		}
	}
	return b.String()
}
