package ui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"pincer/chat"
	"pincer/session"
)

// TestRenameRefusesAnotherSessionsID: /rename and the picker's ctrl+r
// refuse a name that is another session's short id, say why, and leave
// both sessions' names as they were.
func TestRenameRefusesAnotherSessionsID(t *testing.T) {
	a := newTestApp(t, 120, 30)
	st, err := session.Open(filepath.Join(t.TempDir(), "s.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, n := range []string{"rw2", "other"} {
		s, err := st.Create(session.Session{Name: n, Dir: a.opts.Root})
		if err != nil {
			t.Fatal(err)
		}
		st.Append(s.ID, chat.Message{Role: chat.RoleUser, Content: "work on " + n})
		ids = append(ids, s.ID)
	}
	a.opts.Store, a.opts.SessionID, a.opts.Session = st, ids[0], "rw2"
	short := ids[1][:12]
	unchanged := func(how string) {
		t.Helper()
		for i, want := range []string{"rw2", "other"} {
			if s, err := st.Get(ids[i]); err != nil || s.Name != want {
				t.Errorf("after %s, session %d is named %q (%v), want %q", how, i, s.Name, err, want)
			}
		}
		if !strings.Contains(strings.Join(strings.Fields(screen(a)), " "), "looks like a session id") {
			t.Errorf("after %s the screen does not say why:\n%s", how, screen(a))
		}
	}

	drive(t, a, a.renameSession(short), 0)
	unchanged("/rename " + short)
	if a.opts.Session != "rw2" {
		t.Errorf("the status line names the session %q, want rw2", a.opts.Session)
	}

	a = newTestApp(t, 120, 30)
	a.opts.Store, a.opts.SessionID, a.opts.Session = st, ids[0], "rw2"
	drive(t, a, a.openSessionPicker(), 0)
	p, ok := a.topDialog().(*picker)
	if !ok {
		t.Fatalf("no picker:\n%s", screen(a))
	}
	for i := 0; ; i++ {
		if it, _ := p.list.Selected(); it.Value == ids[0] {
			break
		}
		if i == 5 {
			t.Fatalf("rw2 is not in the picker:\n%s", screen(a))
		}
		a.Update(keyMsg("down"))
	}
	a.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	for range len("rw2") {
		a.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	typeText(a, strings.ToLower(short[:8]))
	_, cmd := a.Update(keyMsg("enter"))
	drive(t, a, cmd, 0)
	if _, ok := a.topDialog().(*picker); ok {
		a.Update(keyMsg("esc"))
	}
	unchanged("ctrl+r " + strings.ToLower(short[:8]))
}
