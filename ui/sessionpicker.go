package ui

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/agent"
	"pincer/chat"
	"pincer/internal/human"
	"pincer/internal/safetext"
	"pincer/session"
	"pincer/ui/complete"
)

// sessionOpenedMsg switches the screen to another session.
type sessionOpenedMsg struct {
	sess    session.Session
	history []agent.Message
	summary string
	through uint64
	err     error
	// after is a notice shown once the session is loaded; prompt, when
	// set, goes into the input box (a rewound prompt).
	after  string
	prompt string
	// reloaded: the session in use, read again after a rewind or a redo,
	// not a session resumed.
	reloaded bool
}

// noticeMsg shows a line in the transcript (from a command that ran in the
// background); err shows it as an error.
type noticeMsg struct {
	text string
	err  error
}

// sessionListMsg carries the sessions for the picker; refresh updates the
// open picker instead of opening one.
type sessionListMsg struct {
	list    []session.Session
	err     error
	refresh bool
}

// previewMsg carries the last messages of a session for the picker.
type previewMsg struct {
	id   string
	msgs []chat.Message
}

// needIdle refuses a command while the agent works.
func (a *App) needIdle(what string) bool {
	if a.busy {
		a.transcript.AddError(fmt.Sprintf("%s is not possible while the agent works; wait for it or press Esc first.", what))
		return false
	}
	if a.opts.Store == nil {
		a.transcript.AddError(what + " needs the session store, which is not open.")
		return false
	}
	return true
}

// openSessionPicker lists the sessions: this directory's first, then the
// others, each with its title and last activity.
func (a *App) openSessionPicker() tea.Cmd {
	if !a.needIdle("Switching sessions") {
		return nil
	}
	return a.listSessions(false)
}

// listSessions reads the sessions for the picker, to open it or (refresh)
// to update the open one.
func (a *App) listSessions(refresh bool) tea.Cmd {
	st := a.opts.Store
	return func() tea.Msg {
		list, err := st.List()
		return sessionListMsg{list: list, err: err, refresh: refresh}
	}
}

func (a *App) showSessionPicker(msg sessionListMsg) tea.Cmd {
	if msg.err != nil {
		a.transcript.AddError("Could not list the sessions: " + msg.err.Error())
		return nil
	}
	list := msg.list
	sort.SliceStable(list, func(i, j int) bool {
		hi, hj := list[i].Dir == a.opts.Root, list[j].Dir == a.opts.Root
		if hi != hj {
			return hi
		}
		return list[i].Updated.After(list[j].Updated)
	})
	byID := map[string]session.Session{}
	home, _ := os.UserHomeDir()
	for _, s := range list {
		byID[s.ID] = s
	}
	items := sessionItems(list, a.opts.SessionID, pickerListWidth(a.width, true), time.Now())
	filter, selected, warn, at := "", "", "", 0
	if msg.refresh {
		// A rename or a delete: the open picker shows the list as it is
		// now, with the filter and the selection kept (a deleted
		// session's place goes to the one after it).
		old, ok := a.topDialog().(*picker)
		if !ok || old.title != "Sessions" {
			return nil
		}
		filter = old.filter.Value()
		warn = old.warn
		if it, ok := old.list.Selected(); ok {
			selected, at = it.Value, old.list.Cursor()
		}
		a.dialogs = a.dialogs[:len(a.dialogs)-1]
	}
	p := newPicker("Sessions", items, a.styles)
	if filter != "" {
		p.filter.SetValue(filter)
		p.list.Open(items, filter)
	}
	if selected != "" && !p.list.SelectValue(selected) {
		p.list.SelectIndex(at)
	}
	p.warn = warn
	p.empty = "No sessions yet."
	previews := map[string][]chat.Message{}
	store := a.opts.Store
	p.moved = func(it complete.Item) tea.Cmd {
		if _, ok := previews[it.Value]; ok {
			return nil
		}
		return func() tea.Msg {
			msgs, _ := store.Messages(it.Value, 0)
			if len(msgs) > 8 {
				msgs = msgs[len(msgs)-8:]
			}
			return previewMsg{id: it.Value, msgs: msgs}
		}
	}
	a.previews = previews
	p.preview = func(it complete.Item, w, h int) string {
		s := byID[it.Value]
		var b strings.Builder
		where := "this project"
		if s.Dir != a.opts.Root {
			where = human.Tilde(s.Dir, home)
		}
		if s.Model != "" {
			where += " · " + s.Model
		}
		b.WriteString(a.styles.Accent.Render(ansi.Truncate(safetext.LineOf(s.Label()), w, "…")) + "\n")
		b.WriteString(a.styles.Muted.Render(ansi.Truncate(safetext.LineOf(where), w, "…")) + "\n")
		b.WriteString(a.styles.Muted.Render(ansi.Truncate(human.Ago(time.Now(), s.Updated)+" · "+human.Plural(s.MessageCount, "message"), w, "…")) + "\n\n")
		msgs, ok := a.previews[it.Value]
		if !ok {
			b.WriteString(a.styles.Muted.Render("…"))
		}
		for _, m := range msgs {
			if m.Role != chat.RoleUser && m.Role != chat.RoleAssistant || m.Content == "" {
				continue
			}
			who := a.styles.UserMark.Render("❯ ")
			if m.Role == chat.RoleAssistant {
				who = a.styles.AgentMark.Render("● ")
			}
			b.WriteString(who + ansi.Truncate(safetext.LineOf(human.OneLine(m.Content, 400)), w-2, "…") + "\n")
		}
		lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
		if len(lines) > h {
			lines = lines[len(lines)-h:]
		}
		return strings.Join(lines, "\n")
	}
	p.choose = func(it complete.Item) (bool, tea.Cmd) {
		if it.Value == a.opts.SessionID {
			return true, nil
		}
		return true, a.switchSession(it.Value)
	}
	p.actions = []pickerAction{
		{key: "ctrl+r", help: "rename", prompt: "New name:", initial: func(it complete.Item) string { return byID[it.Value].Name },
			run: func(it complete.Item, name string) tea.Cmd {
				return tea.Sequence(a.sessionOp(func() error { return store.Rename(it.Value, name) }, "Renamed to "+name+".", it.Value == a.opts.SessionID, name), a.listSessions(true))
			}},
		{key: "ctrl+f", help: "fork", prompt: "Name of the copy:", run: func(it complete.Item, name string) tea.Cmd {
			return tea.Sequence(func() tea.Msg {
				s, err := store.Fork(it.Value, name)
				if err != nil {
					return noticeMsg{err: err}
				}
				return noticeMsg{text: fmt.Sprintf("Forked %s into %s.", byID[it.Value].Label(), s.Label())}
			}, a.listSessions(true))
		}},
		{key: "ctrl+d", help: "delete", confirm: true, prompt: "Delete this session and all its messages? y/n",
			refuse: func(it complete.Item) string {
				if it.Value == a.opts.SessionID {
					return "This is the session you are in, so it cannot be deleted here: switch to another one first (or use pincer sessions rm after quitting)."
				}
				return ""
			},
			run: func(it complete.Item, _ string) tea.Cmd {
				return tea.Sequence(a.sessionOp(func() error { return store.Delete(it.Value) }, "Deleted "+byID[it.Value].Label()+".", false, ""), a.listSessions(true))
			}},
	}
	a.pushDialog(p)
	if it, ok := p.list.Selected(); ok {
		return p.moved(it)
	}
	return nil
}

// sessionOp runs a store operation in the background and reports it;
// renamed, when true, renames the session in use to name.
func (a *App) sessionOp(op func() error, done string, renamed bool, name string) tea.Cmd {
	return func() tea.Msg {
		if err := op(); err != nil {
			return noticeMsg{err: err}
		}
		if renamed {
			return renamedMsg{name: name}
		}
		return noticeMsg{text: done}
	}
}

// renamedMsg says the session in use got a new name.
type renamedMsg struct{ name string }

// switchSession loads another session and makes it the one in use.
func (a *App) switchSession(id string) tea.Cmd {
	st := a.opts.Store
	return func() tea.Msg {
		sess, err := st.Get(id)
		if err != nil {
			return sessionOpenedMsg{err: err}
		}
		history, summary, through, err := agent.LoadSession(st, sess.ID)
		return sessionOpenedMsg{sess: sess, history: history, summary: summary, through: through, err: err}
	}
}

// newSession starts a new session in this directory.
func (a *App) newSession() tea.Cmd {
	if !a.needIdle("Starting a new session") {
		return nil
	}
	st, root, model, private := a.opts.Store, a.opts.Root, a.opts.Model, a.opts.Private
	return func() tea.Msg {
		sess, err := st.Create(session.Session{Dir: root, Model: model, Private: private})
		return sessionOpenedMsg{sess: sess, err: err}
	}
}

// sessionOpened makes a loaded session the one in use.
func (a *App) sessionOpened(msg sessionOpenedMsg) tea.Cmd {
	if msg.err != nil {
		a.transcript.AddError("Could not open the session: " + msg.err.Error())
		return nil
	}
	if a.busy {
		a.transcript.AddError("The agent started working meanwhile; try again when it is done.")
		return nil
	}
	a.agent.Restore(msg.history, msg.summary, msg.through)
	a.plan = "" // the plan belongs to the session it was made in
	a.agent.SetRecorder(agent.SessionLog{Store: a.opts.Store, ID: msg.sess.ID})
	cleanup := a.dropIfEmpty(a.opts.SessionID)
	a.opts.SessionID = msg.sess.ID
	a.opts.Session = msg.sess.Label()
	a.usage = msg.sess.Usage
	a.turnUsage = agent.Usage{}
	a.subUsage = agent.Usage{}
	a.lastContext = 0
	a.history = nil
	a.queue = nil
	a.recalled = nil
	a.transcript.Reset()
	a.tree.ClearMarks() // the marks belong to the session left behind
	a.todosFrom(msg.history)
	if len(msg.history) > 0 {
		a.showHistory(msg.history, !msg.reloaded)
		a.estimateContext()
	} else if msg.after == "" {
		a.transcript.AddNotice(fmt.Sprintf("New session %s. Ask for anything.", a.opts.Session))
	}
	if msg.after != "" {
		a.transcript.AddNotice(msg.after)
	}
	if msg.prompt != "" {
		a.setInput(msg.prompt, -1)
		a.setFocus(focusInput)
	}
	if a.opts.OnSession != nil {
		a.opts.OnSession(msg.sess.ID)
	}
	return cleanup
}

// dropIfEmpty deletes the session left behind when nothing was said in
// it, as quitting does: /new or a switch must not leave empty sessions in
// the list.
func (a *App) dropIfEmpty(id string) tea.Cmd {
	st := a.opts.Store
	if st == nil || id == "" {
		return nil
	}
	return func() tea.Msg {
		if s, err := st.Get(id); err == nil && s.MessageCount == 0 {
			_ = st.Delete(id)
		}
		return nil
	}
}

// renameSession names the session in use.
func (a *App) renameSession(name string) tea.Cmd {
	if a.opts.Store == nil {
		a.transcript.AddError("/rename needs the session store, which is not open.")
		return nil
	}
	if name == "" {
		a.transcript.AddError("Give the new name: /rename NAME")
		return nil
	}
	st, id := a.opts.Store, a.opts.SessionID
	return a.sessionOp(func() error { return st.Rename(id, name) }, "", true, name)
}
