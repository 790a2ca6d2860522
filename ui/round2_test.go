package ui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"pincer/session"
)

// TestCtrlCClearingLinesGivesTheRowsBack: Ctrl+C on a multi-line input
// shrinks the input box, and the transcript takes the rows back at once:
// no blank rows are left under the status line.
func TestCtrlCClearingLinesGivesTheRowsBack(t *testing.T) {
	for _, size := range [][2]int{{120, 36}, {80, 24}, {60, 20}} {
		a := newTestApp(t, size[0], size[1])
		typeText(a, "one")
		press(a, "ctrl+j")
		typeText(a, "two")
		press(a, "ctrl+j")
		typeText(a, "three")
		if h := a.input.Height(); h != 3 {
			t.Fatalf("%v: the input is %d rows high with three lines", size, h)
		}
		press(a, "ctrl+c")
		checkShape(t, a)
		lines := strings.Split(screen(a), "\n")
		if last := lines[len(lines)-1]; !strings.Contains(last, "idle") {
			t.Errorf("%v: the last row is %q, not the status line", size, last)
		}
		if got := strings.Count(a.transcript.View(), "\n") + 1; got != a.bodyHeight() {
			t.Errorf("%v: the transcript is %d rows high, the body %d", size, got, a.bodyHeight())
		}
	}
}

// sessionStore opens a store with sessions named names in a's project,
// each with one message; the first is made the session in use.
func sessionStore(t *testing.T, a *App, names ...string) *session.Store {
	t.Helper()
	st, err := session.Open(filepath.Join(t.TempDir(), "s.db"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		s, err := st.Create(session.Session{Name: n, Dir: a.opts.Root})
		if err != nil {
			t.Fatal(err)
		}
		st.Append(s.ID, session.Message{Role: session.RoleUser, Content: "work on the " + n})
		if i == 0 {
			a.opts.SessionID, a.opts.Session = s.ID, n
		}
	}
	a.opts.Store = st
	return st
}

// selectSession moves the picker's selection to the session named name.
func selectSession(t *testing.T, a *App, p *picker, name string) {
	t.Helper()
	for range 10 {
		if it, ok := p.list.Selected(); ok && strings.Contains(it.Label, name) {
			return
		}
		press(a, "down")
	}
	t.Fatalf("no session %q in the picker:\n%s", name, screen(a))
}

// TestSessionPickerRefusesDeletingTheCurrentSessionAtOnce: Ctrl+D on the
// session in use says why at once, in the picker; it does not ask "y/n"
// and then do nothing.
func TestSessionPickerRefusesDeletingTheCurrentSessionAtOnce(t *testing.T) {
	a := newTestApp(t, 120, 36)
	st := sessionStore(t, a, "current", "other")
	drive(t, a, a.openSessionPicker(), 0)
	p := a.topDialog().(*picker)
	selectSession(t, a, p, "current")
	a.Update(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl})
	if p.pending != nil {
		t.Fatalf("Ctrl+D on the session in use asks a question:\n%s", screen(a))
	}
	if s := screen(a); !strings.Contains(s, "the session you are in") {
		t.Errorf("the picker does not say why at once:\n%s", s)
	}
	_, cmd := a.Update(keyMsg("y"))
	drive(t, a, cmd, 0)
	if list, _ := st.List(); len(list) != 2 {
		t.Errorf("%d sessions left, want 2", len(list))
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyBackspace}) // the y went to the filter
	// Another session is still deleted after a yes.
	selectSession(t, a, a.topDialog().(*picker), "other")
	a.Update(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl})
	_, cmd = a.Update(keyMsg("y"))
	drive(t, a, cmd, 0)
	if list, _ := st.List(); len(list) != 1 {
		t.Errorf("%d sessions after deleting the other, want 1", len(list))
	}
}

// TestSessionPickerKeepsTheRenamedSessionSelected: after Ctrl+R the
// cursor stays on the session renamed, wherever the list puts it.
func TestSessionPickerKeepsTheRenamedSessionSelected(t *testing.T) {
	a := newTestApp(t, 120, 36)
	sessionStore(t, a, "current", "alpha", "beta", "gamma")
	drive(t, a, a.openSessionPicker(), 0)
	p := a.topDialog().(*picker)
	selectSession(t, a, p, "beta")
	a.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	typeText(a, "-renamed")
	_, cmd := a.Update(keyMsg("enter"))
	drive(t, a, cmd, 0)
	p = a.topDialog().(*picker)
	if it, ok := p.list.Selected(); !ok || !strings.Contains(it.Label, "beta-renamed") {
		t.Errorf("after the rename the selection is %q, want beta-renamed:\n%s", it.Label, screen(a))
	}
}
