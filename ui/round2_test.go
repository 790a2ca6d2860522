package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/agent"
	"pincer/chat"
	"pincer/checkpoint"
	"pincer/rewind"
	"pincer/safety"
	"pincer/session"
	"pincer/tools"
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
	st, err := session.Open(filepath.Join(t.TempDir(), "s.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		s, err := st.Create(session.Session{Name: n, Dir: a.opts.Root})
		if err != nil {
			t.Fatal(err)
		}
		st.Append(s.ID, chat.Message{Role: chat.RoleUser, Content: "work on the " + n})
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

// fakeClock is a clock a test moves by hand.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time      { return c.now }
func (c *fakeClock) Add(d time.Duration) { c.now = c.now.Add(d) }
func withClock(a *App) *fakeClock {
	c := &fakeClock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	a.clock = c.Now
	return c
}

// typeAt types s one key every gap, as a person does.
func typeAt(a *App, c *fakeClock, gap time.Duration, s string) {
	for _, r := range s {
		c.Add(gap)
		a.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func pressAt(a *App, c *fakeClock, gap time.Duration, k string) {
	c.Add(gap)
	a.Update(keyMsg(k))
}

// TestDialogOpenedWhileTypingTakesNoKeys types a follow-up at 60 ms a key
// while an approval opens between two keys: the "y" of "tidy", the "n" of
// "in" and the Enter meant to send the prompt must not answer it. The
// text stays in the input; the dialog says it waits; after a pause, Tab
// gives it the keys.
func TestDialogOpenedWhileTypingTakesNoKeys(t *testing.T) {
	const gap = 60 * time.Millisecond
	touch := agent.Approval{Kind: agent.ApproveCommand, Step: 1, Command: "touch notes.txt", Tier: safety.Confirm, SuggestedRule: "touch *"}
	for _, opensAfter := range []string{"", "t", "ti", "tid"} {
		t.Run("opens after "+strconv.Quote(opensAfter), func(t *testing.T) {
			a := newTestApp(t, 100, 30)
			c := withClock(a)
			a.busy = true // a turn runs: the model asks while the person types
			const prompt = "tidy up in the morning"
			typeAt(a, c, gap, opensAfter)
			c.Add(gap / 2)
			q := question{q: touch, reply: make(chan agent.Decision, 1)}
			a.Update(eventsMsg{q})
			typeAt(a, c, gap/2, prompt[len(opensAfter):len(opensAfter)+1])
			typeAt(a, c, gap, prompt[len(opensAfter)+1:])
			pressAt(a, c, gap, "enter")
			if got := answer(t, q); got.Comment != "<no answer>" {
				t.Fatalf("the typing answered the dialog: %+v", got)
			}
			if v := a.input.Value(); v != prompt {
				t.Errorf("the input holds %q, want %q", v, prompt)
			}
			if s := screen(a); !strings.Contains(s, "You are typing") || !strings.Contains(s, "touch notes.txt") {
				t.Errorf("the dialog does not say it waits:\n%s", s)
			}
			// Tab while the keys still come is not enough.
			pressAt(a, c, gap, "tab")
			pressAt(a, c, gap, "y")
			if got := answer(t, q); got.Comment != "<no answer>" {
				t.Fatalf("a Tab amid typing let the dialog answer: %+v", got)
			}
			// After a pause the dialog says how to answer it; letters still
			// go to the input.
			c.Add(time.Second)
			if s := screen(a); !strings.Contains(s, "opened while you were typing") || !strings.Contains(s, "Tab") {
				t.Errorf("after the pause the dialog does not say Tab answers it:\n%s", s)
			}
			pressAt(a, c, time.Second, "tab")
			pressAt(a, c, 200*time.Millisecond, "y")
			if got := answer(t, q); !got.Allow {
				t.Errorf("y after Tab: %+v, want allowed", got)
			}
			if a.topDialog() != nil {
				t.Error("the dialog is still open after its answer")
			}
		})
	}
}

// TestEditReviewOpenedWhileTypingIgnoresEnter: the Enter that was meant to
// send the prompt does not accept an edit that opened a moment before.
func TestEditReviewOpenedWhileTypingIgnoresEnter(t *testing.T) {
	a := newTestApp(t, 120, 36)
	c := withClock(a)
	a.busy = true
	typeAt(a, c, 60*time.Millisecond, "add tests")
	c.Add(400 * time.Millisecond) // past the settle time, within a typing pause
	q := question{q: agent.Approval{Kind: agent.ApproveEdit, Step: 1, Change: twoHunks(), Tier: safety.Confirm}, reply: make(chan agent.Decision, 1)}
	a.Update(eventsMsg{q})
	c.Add(400 * time.Millisecond)
	press(a, "enter")
	if got := answer(t, q); got.Comment != "<no answer>" {
		t.Fatalf("Enter accepted the edit: %+v", got)
	}
	if v := a.input.Value(); v != "add tests" {
		t.Errorf("the input holds %q", v)
	}
}

// TestTypingIntoAnOpenDialogIsNotAnAnswer: with a dialog open for a while,
// a word typed without looking at it ("tidy") goes to the input once its
// first letter is not one of the dialog's keys.
func TestTypingIntoAnOpenDialogIsNotAnAnswer(t *testing.T) {
	a := newTestApp(t, 100, 30)
	c := withClock(a)
	a.busy = true
	q := question{q: agent.Approval{Kind: agent.ApproveCommand, Step: 1, Command: "touch x", Tier: safety.Confirm}, reply: make(chan agent.Decision, 1)}
	a.Update(eventsMsg{q})
	c.Add(3 * time.Second)
	typeAt(a, c, 60*time.Millisecond, "tidy")
	if got := answer(t, q); got.Comment != "<no answer>" {
		t.Fatalf("the y of tidy answered: %+v", got)
	}
	if v := a.input.Value(); v != "tidy" {
		t.Errorf("the input holds %q, want tidy", v)
	}
	// The keys a person answers with still answer a dialog they saw open.
	b := newTestApp(t, 100, 30)
	cb := withClock(b)
	q2 := question{q: agent.Approval{Kind: agent.ApproveCommand, Step: 1, Command: "touch x", Tier: safety.Confirm}, reply: make(chan agent.Decision, 1)}
	b.Update(eventsMsg{q2})
	pressAt(b, cb, 2*time.Second, "n")
	if got := answer(t, q2); got.Allow || got.Comment == "<no answer>" {
		t.Errorf("n on a dialog open for 2 s: %+v, want a refusal", got)
	}
}

// TestRepeatedKeyFromAnAnsweredDialogIsDropped: the second step of a
// dangerous command opens as the first is answered; a y still repeating
// goes nowhere (not into the input, not into the field), and "yes"
// typed on purpose then confirms.
func TestRepeatedKeyFromAnAnsweredDialogIsDropped(t *testing.T) {
	a := newTestApp(t, 100, 30)
	c := withClock(a)
	a.busy = true
	step1 := agent.Approval{Kind: agent.ApproveCommand, Step: 1, Command: "rm -rf build", Tier: safety.Dangerous}
	q1 := question{q: step1, reply: make(chan agent.Decision, 1)}
	a.Update(eventsMsg{q1})
	pressAt(a, c, time.Second, "y")
	if got := answer(t, q1); !got.Allow {
		t.Fatalf("step 1: %+v", got)
	}
	step2 := step1
	step2.Step = 2
	q2 := question{q: step2, reply: make(chan agent.Decision, 1)}
	c.Add(20 * time.Millisecond)
	a.Update(eventsMsg{q2})
	pressAt(a, c, 30*time.Millisecond, "y")
	pressAt(a, c, 30*time.Millisecond, "y")
	if v := a.input.Value(); v != "" {
		t.Errorf("the repeated y went into the input: %q", v)
	}
	c.Add(time.Second)
	typeAt(a, c, 60*time.Millisecond, "yes")
	pressAt(a, c, 60*time.Millisecond, "enter")
	if got := answer(t, q2); !got.Allow {
		t.Errorf("yes at step 2: %+v, want allowed", got)
	}
}

// runExport runs /export args to the end and returns the error it showed,
// or "" and the notice.
func runExport(t *testing.T, a *App, args string) (errText, notice string) {
	t.Helper()
	before := screen(a)
	cmd := a.exportSession(args)
	if cmd == nil {
		if screen(a) == before {
			t.Errorf("/export %s was refused without a word", args)
		}
		return "refused", ""
	}
	msg := cmd()
	a.Update(msg)
	n := msg.(noticeMsg)
	if n.err != nil {
		return n.err.Error(), ""
	}
	return "", n.text
}

// TestExportWritesOnlyIntoTheProject: /export follows /plan save's rules.
// It found /export README.md, .git/config, ../escape.md and ~/.bashrc
// replaced without a question.
func TestExportWritesOnlyIntoTheProject(t *testing.T) {
	a := newTestApp(t, 120, 36)
	st := sessionStore(t, a, "demo")
	root := a.opts.Root
	st.Append(a.opts.SessionID, chat.Message{Role: chat.RoleAssistant, Content: "hello from the model"})
	writeTestFile(t, root, "README.md", "# readme\n")
	writeTestFile(t, root, ".git/config", "[core]\n")
	home := t.TempDir()
	bashrc := filepath.Join(home, ".bashrc")
	if err := os.WriteFile(bashrc, []byte("alias ll='ls -l'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(home, filepath.Join(root, "homelink")); err != nil {
		t.Fatal(err)
	}
	escape := filepath.Join(filepath.Dir(root), "escape.md")
	for _, p := range []string{"README.md", ".git/config", ".GIT/config", "../escape.md", bashrc, "homelink/.bashrc", "internal", "main.go/x.md"} {
		if e, _ := runExport(t, a, p); e == "" {
			t.Errorf("/export %s was written", p)
		}
	}
	for path, want := range map[string]string{filepath.Join(root, "README.md"): "# readme\n", filepath.Join(root, ".git", "config"): "[core]\n", bashrc: "alias ll='ls -l'\n"} {
		if got, _ := os.ReadFile(path); string(got) != want {
			t.Errorf("%s was replaced: %q", path, got)
		}
	}
	if _, err := os.Stat(escape); err == nil {
		t.Error("../escape.md was written")
	}
	if e, _ := runExport(t, a, "README.md"); !strings.Contains(e, "/export -f README.md") {
		t.Errorf("refusing to replace README.md does not say how: %q", e)
	}
	// -f replaces a file of the project, never one outside it.
	if e, _ := runExport(t, a, "-f README.md"); e != "" {
		t.Fatal(e)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "README.md")); !strings.Contains(string(got), "hello from the model") {
		t.Errorf("-f did not replace README.md: %q", got)
	}
	if e, _ := runExport(t, a, "-f "+bashrc); e == "" {
		t.Error("-f wrote outside the project")
	}
	// Missing folders are made.
	if e, _ := runExport(t, a, "exports/today/session.json"); e != "" {
		t.Fatal(e)
	}
	if got, err := os.ReadFile(filepath.Join(root, "exports", "today", "session.json")); err != nil || !strings.Contains(string(got), `"format": "pincer-session"`) {
		t.Errorf("the JSON export: %q, %v", got, err)
	}
	// The default name never replaces an earlier export.
	for i, want := range []string{"pincer-demo.md", "pincer-demo-2.md", "pincer-demo-3.md"} {
		if e, n := runExport(t, a, ""); e != "" || !strings.Contains(n, want) {
			t.Errorf("default export %d: %q %q, want it in %s", i+1, e, n, want)
		}
	}
	os.WriteFile(filepath.Join(root, "pincer-demo.md"), []byte("kept"), 0o644)
	runExport(t, a, "")
	if got, _ := os.ReadFile(filepath.Join(root, "pincer-demo.md")); string(got) != "kept" {
		t.Error("the default export replaced an earlier one")
	}
	// Not while a turn runs.
	a.busy = true
	if cmd := a.exportSession("while-busy.md"); cmd != nil {
		t.Error("/export ran while a turn works")
	}
}

// TestExportRedactsSecrets: an export carries no secret-looking tool
// output, and says how many items it redacted.
func TestExportRedactsSecrets(t *testing.T) {
	a := newTestApp(t, 120, 36)
	st := sessionStore(t, a, "leaky")
	const key = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx"
	st.Append(a.opts.SessionID, chat.Message{Role: chat.RoleTool, ToolName: "read_file", ToolCallID: "c1",
		Content: "OPENAI_API_KEY=" + key + "\nDB_PASSWORD=hunter2hunter2\nPORT=5432\n"})
	e, notice := runExport(t, a, "leak.md")
	if e != "" {
		t.Fatal(e)
	}
	data, _ := os.ReadFile(filepath.Join(a.opts.Root, "leak.md"))
	if strings.Contains(string(data), key) || strings.Contains(string(data), "hunter2hunter2") {
		t.Errorf("the export holds the secrets:\n%s", data)
	}
	if !strings.Contains(string(data), "PORT=5432") {
		t.Errorf("the export lost the rest:\n%s", data)
	}
	if !strings.Contains(notice, "Redacted 2 items") {
		t.Errorf("the notice does not say what was redacted: %q", notice)
	}
}

// TestPopupsLeaveTheTreeAlone: the @ and / popups are drawn over the
// transcript; the tree and its border stay whole beside them.
func TestPopupsLeaveTheTreeAlone(t *testing.T) {
	for _, typed := range []string{"@", "/"} {
		a := newTestApp(t, 120, 36)
		drive(t, a, a.reloadFiles(), 0)
		before := strings.Split(screen(a), "\n")
		typeText(a, typed)
		if !a.files.Visible() && !a.commands.Visible() {
			t.Fatalf("%s opened no popup", typed)
		}
		after := strings.Split(screen(a), "\n")
		tw := a.treeWidth()
		changed := 0
		for i := range a.bodyHeight() {
			l, r := []rune(before[i]), []rune(after[i])
			if string(l[:tw+1]) != string(r[:tw+1]) {
				t.Errorf("%s: row %d of the tree changed under the popup:\n%q\n%q", typed, i, string(l[:tw+1]), string(r[:tw+1]))
			}
			if string(l) != string(r) {
				changed++
			}
		}
		if changed == 0 {
			t.Errorf("%s: the popup is not on the screen", typed)
		}
		checkShape(t, a)
	}
}

// TestStatusSaysTheServerIsSilent: a request the server took but has not
// answered shows, from a few seconds on, how long it has waited, the
// limit, and that Esc stops it, at every width; the first token ends it.
func TestStatusSaysTheServerIsSilent(t *testing.T) {
	for _, size := range [][2]int{{120, 36}, {80, 24}, {60, 20}} {
		a := newTestApp(t, size[0], size[1])
		c := withClock(a)
		a.busy, a.state = true, stateThinking
		a.Update(eventsMsg{agent.Waiting{FirstByte: 90 * time.Second, Budget: 3 * time.Minute}})
		c.Add(time.Second)
		if s := ansi.Strip(a.statusLine()); strings.Contains(s, "first token") {
			t.Errorf("%v: after 1 s the status already says %q", size, s)
		}
		c.Add(11 * time.Second)
		s := ansi.Strip(a.statusLine())
		for _, want := range []string{"waiting for the first token", "12 s", "esc stops"} {
			if !strings.Contains(s, want) {
				t.Errorf("%v: the status %q does not say %q", size, s, want)
			}
		}
		if size[0] >= 100 && (!strings.Contains(s, "connected") || !strings.Contains(s, "at most 90 s")) {
			t.Errorf("%v: the status %q does not say it is connected and the limit", size, s)
		}
		checkShape(t, a)
		a.Update(eventsMsg{agent.TextDelta{Text: "Hello"}})
		if s := ansi.Strip(a.statusLine()); strings.Contains(s, "first token") {
			t.Errorf("%v: the status still waits after the first token: %q", size, s)
		}
	}
}

// TestCommandsAddedWhileRunningAreSeen: a command file added while pincer
// runs shows in the / list and runs, without a restart; a warning about
// a file is shown once.
func TestCommandsAddedWhileRunningAreSeen(t *testing.T) {
	a := newTestApp(t, 120, 36)
	var files []string // the command files "on disk"
	ran := ""
	a.opts.ReloadCommands = func() ([]Command, []string) {
		var out []Command
		for _, f := range files {
			out = append(out, Command{Name: f, Help: "your command (" + f + ".md)", Run: func(*App, string) tea.Cmd { ran = f; return nil }})
		}
		return out, []string{"left out the command file bad name.md: a command name uses letters, digits, - and _"}
	}
	typeText(a, "/")
	files = append(files, "deploy")
	// The list read at "/" predates the file; typing the name and Enter
	// reads the files again and runs it.
	a.setInput("", -1)
	a.closePopups()
	typeText(a, "/deploy")
	_, cmd := a.Update(keyMsg("enter"))
	drive(t, a, cmd, 0)
	if ran != "deploy" {
		t.Fatalf("/deploy added while running did not run (ran %q):\n%s", ran, screen(a))
	}
	// A newer file shows in the / list once it opens.
	files = append(files, "review")
	a.setInput("", -1)
	_, cmd = a.Update(tea.KeyPressMsg{Code: '/', Text: "/"})
	drive(t, a, cmd, 0)
	found := false
	for _, it := range a.commands.Results() {
		found = found || it.Value == "review"
	}
	if !found {
		t.Errorf("the / list does not offer /review:\n%s", screen(a))
	}
	if n := strings.Count(screen(a), "left out the command file"); n != 1 {
		t.Errorf("the warning shows %d times, want once:\n%s", n, screen(a))
	}
	// A name still unknown after reading the files is an error.
	a.setInput("", -1)
	a.closePopups()
	typeText(a, "/nosuch")
	_, cmd = a.Update(keyMsg("enter"))
	drive(t, a, cmd, 0)
	if !strings.Contains(screen(a), "Unknown command /nosuch") {
		t.Errorf("an unknown command is not reported:\n%s", screen(a))
	}
}

// TestTypingInThePanesGoesToTheInput: with the tree or the transcript
// focused, printable keys the pane does not use go to the input, which
// takes the focus; /quit and Enter quit instead of opening a folder. The
// panes' own letters (j, k in the tree) still move them.
func TestTypingInThePanesGoesToTheInput(t *testing.T) {
	a := newTestApp(t, 120, 36)
	a.setFocus(focusTree)
	typeText(a, "/quit")
	if a.focus != focusInput || a.input.Value() != "/quit" {
		t.Fatalf("focus %v, input %q; want the input to hold /quit", a.focus, a.input.Value())
	}
	_, cmd := a.Update(keyMsg("enter"))
	if !a.quit || cmd == nil {
		t.Errorf("/quit typed in the tree did not quit:\n%s", screen(a))
	}
	if strings.Contains(screen(a), "a.go") {
		t.Errorf("a folder was opened:\n%s", screen(a))
	}

	b := newTestApp(t, 120, 36)
	b.setFocus(focusTranscript)
	typeText(b, "hello")
	if b.focus != focusInput || b.input.Value() != "hello" {
		t.Errorf("typed in the transcript: focus %v, input %q", b.focus, b.input.Value())
	}

	c := newTestApp(t, 120, 36)
	c.setFocus(focusTree)
	typeText(c, "j")
	if c.focus != focusTree || c.input.Value() != "" {
		t.Errorf("j in the tree: focus %v, input %q; want it to move the tree", c.focus, c.input.Value())
	}
}

// TestKeysThatFindNoUseAreTyped: a key that closes the help, or a space in
// the transcript when no entry is focused to expand, types into the input
// instead of vanishing; the help's own scroll keys and an expandable entry
// keep their meaning.
func TestKeysThatFindNoUseAreTyped(t *testing.T) {
	cases := []struct {
		name  string
		setup func(a *App)
		typed string
		want  string
		help  bool // the help is still open
	}{
		{"a letter closes the help and is typed", func(a *App) { a.showHelp = true }, "x", "x", false},
		{"a sentence after the help", func(a *App) { a.showHelp = true }, "fix it", "fix it", false},
		{"the help's scroll keys scroll", func(a *App) { a.showHelp = true }, "j", "", true},
		{"a space in the transcript with no entry focused", func(a *App) { a.setFocus(focusTranscript) }, " a b", " a b", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 120, 36)
			tc.setup(a)
			typeText(a, tc.typed)
			if a.input.Value() != tc.want || a.showHelp != tc.help {
				t.Errorf("input %q, help open %v; want %q, %v", a.input.Value(), a.showHelp, tc.want, tc.help)
			}
		})
	}
}

// TestRewindWithNoTurnsSaysSo: /rewind in a session without a prompt yet
// says so and opens nothing that would take the next keys.
func TestRewindWithNoTurnsSaysSo(t *testing.T) {
	a := newTestApp(t, 100, 30)
	a.Update(rewindTurnsMsg{})
	if a.topDialog() != nil {
		t.Fatalf("an empty dialog opened:\n%s", screen(a))
	}
	if !strings.Contains(screen(a), "no turn to rewind to yet") {
		t.Errorf("nothing says why:\n%s", screen(a))
	}
	typeText(a, "next prompt")
	if a.input.Value() != "next prompt" {
		t.Errorf("the next keys were swallowed: input %q", a.input.Value())
	}
}

// TestTasksPickerEnterShowsTheTask: Enter on a task shows it whole (its
// prompt, when and where it runs, how its last run went), not only
// closing the list; with no tasks no list opens.
func TestTasksPickerEnterShowsTheTask(t *testing.T) {
	a := newTestApp(t, 120, 36)
	now := time.Now()
	long := "check the nightly build and summarise every failure with its log " + strings.Repeat("and more detail ", 6) + "END-OF-PROMPT"
	a.Update(taskListMsg{tasks: []session.Task{{ID: "01J0000000000000000000TASK", Prompt: long, Next: now.Add(time.Hour), Every: 24 * time.Hour, LastRun: now.Add(-time.Hour), LastError: "exit status 1"}}})
	if !strings.Contains(screen(a), "enter show the task") {
		t.Errorf("the keys do not say what Enter does:\n%s", screen(a))
	}
	press(a, "enter")
	if a.topDialog() != nil {
		t.Error("the picker is still open")
	}
	a.treeShown = false // the transcript alone, its words joined again
	a.layout()
	s := screen(a)
	for _, want := range []string{"END-OF-PROMPT", "every 24h", "exit status 1", "Last run 1 h ago"} {
		if !strings.Contains(strings.Join(strings.Fields(s), " "), want) {
			t.Errorf("the task shown lacks %q:\n%s", want, s)
		}
	}
	b := newTestApp(t, 120, 36)
	b.Update(taskListMsg{})
	if b.topDialog() != nil || !strings.Contains(screen(b), "No tasks are scheduled") {
		t.Errorf("no tasks:\n%s", screen(b))
	}
}

// TestUndoDoesNotSayResumed: reloading the session in use after /undo or
// /redo says what the rewind did, not "Resumed session"; switching to a
// session still says it was resumed.
func TestUndoDoesNotSayResumed(t *testing.T) {
	a := newTestApp(t, 120, 36)
	hist := []agent.Message{{Role: agent.RoleUser, Content: "first"}, {Role: agent.RoleAssistant, Content: "done"}}
	sess := session.Session{ID: "01J00000000000000000000SES", Name: "demo"}
	a.Update(sessionOpenedMsg{sess: sess, history: hist, after: "Rewound to #2 (code and conversation).", reloaded: true})
	if s := screen(a); strings.Contains(s, "Resumed session") || !strings.Contains(s, "Rewound to #2") {
		t.Errorf("after a rewind:\n%s", s)
	}
	a.Update(sessionOpenedMsg{sess: sess, history: hist})
	if s := screen(a); !strings.Contains(s, "Resumed session demo") {
		t.Errorf("after a switch:\n%s", s)
	}
}

// TestRewindPreviewIsNotAReview: the rewind's preview of a file does not
// use the edit review's words.
func TestRewindPreviewIsNotAReview(t *testing.T) {
	a := newTestApp(t, 120, 40)
	files := []rewindFile{{change: checkpoint.Change{Path: "a.txt", Kind: checkpoint.Modified},
		diff: &tools.Change{Path: "a.txt", Rel: "a.txt", Before: []byte("now\n"), After: []byte("then\n")}},
		{change: checkpoint.Change{Path: "same.txt", Kind: checkpoint.Modified},
			diff: &tools.Change{Path: "same.txt", Rel: "same.txt", Before: []byte("x\n"), After: []byte("x\n")}}}
	d := &rewindDialog{app: a, plan: rewind.Plan{Turn: rewind.Turn{N: 1, Prompt: "p"}, Mode: rewind.CodeOnly}, files: files}
	for i := range files {
		d.pick(i)
		view := ansi.Strip(d.View(120, 40, a.styles))
		for _, never := range []string{"accepted", "rejected", "proposal"} {
			if strings.Contains(view, never) {
				t.Errorf("file %d: the preview says %q:\n%s", i, never, view)
			}
		}
	}
}

// TestCommandListDetailsInAColumn: in the / list what each command does
// starts in one column, whatever the length of its name and arguments.
func TestCommandListDetailsInAColumn(t *testing.T) {
	for _, width := range []int{120, 80} {
		a := newTestApp(t, width, 36)
		typeText(a, "/")
		lines := strings.Split(screen(a), "\n")
		starts := map[int][]string{}
		for _, it := range a.commands.Results()[:8] {
			for _, l := range lines {
				label := it.Label
				if i := strings.Index(l, " "+label+" "); i >= 0 {
					rest := []rune(l)
					at := len([]rune(l[:i])) + 1 + len([]rune(label))
					for at < len(rest) && rest[at] == ' ' {
						at++
					}
					starts[at] = append(starts[at], it.Value)
					break
				}
			}
		}
		if len(starts) != 1 {
			t.Errorf("at %d columns the details start at %d columns: %v\n%s", width, len(starts), starts, screen(a))
		}
		checkShape(t, a)
		typeText(a, "sched") // a label wider than the column keeps its detail after it
		if s := screen(a); !strings.Contains(s, "schedule in|every|at WHEN PROMPT  run a prompt") {
			t.Errorf("at %d columns a long label:\n%s", width, s)
		}
	}
}

// TestCtrlTInANarrowWindowSaysWhy: below 90 columns Ctrl+T and /tree say
// the window is too narrow, and the choice is kept for when it is wide.
func TestCtrlTInANarrowWindowSaysWhy(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "ctrl+t")
	if s := screen(a); !strings.Contains(s, "at least 90 columns") {
		t.Errorf("Ctrl+T at 80 columns said nothing:\n%s", s)
	}
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if !strings.Contains(screen(a), "internal/") {
		t.Errorf("widened, the tree is hidden: Ctrl+T changed a choice it could not show:\n%s", screen(a))
	}
}

// TestMCPApprovalHasNoLineNumbers: an MCP call's question is pincer's own
// layout (server, tool, pretty-printed arguments); it is not numbered
// line by line as a command of several lines is.
func TestMCPApprovalHasNoLineNumbers(t *testing.T) {
	q := agent.Approval{Kind: agent.ApproveAction, Step: 1, Tool: "mcp__github__get_issue", Tier: safety.Confirm,
		Summary: "MCP server: github\ntool: get_issue\narguments:\n{\n  \"owner\": \"acme\",\n  \"number\": 7\n}"}
	a, _ := openApproval(t, 100, 30, q)
	s := screen(a)
	if !strings.Contains(s, "tool: get_issue") {
		t.Fatalf("the question is not shown:\n%s", s)
	}
	for _, l := range strings.Split(s, "\n") {
		trimmed := strings.TrimLeft(strings.TrimPrefix(strings.TrimSpace(l), "│"), " ")
		if strings.HasPrefix(trimmed, "2 tool:") || strings.HasPrefix(trimmed, "1 MCP server") {
			t.Errorf("the MCP question is numbered: %q", l)
		}
	}
}

// TestRememberWarnsOfASecret: /remember of a note with a key in it says
// the key will never be recalled; a plain note gets no warning.
func TestRememberWarnsOfASecret(t *testing.T) {
	a := newTestApp(t, 120, 36)
	sessionStore(t, a, "demo")
	for _, c := range []struct {
		note string
		warn bool
	}{
		{"the staging key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWx", true},
		{"the staging database listens on port 5433", false},
	} {
		msg := a.rememberCommand(c.note)().(noticeMsg)
		warned := msg.err != nil && strings.Contains(msg.err.Error(), "never be recalled")
		if warned != c.warn {
			t.Errorf("%q: warned %v (%+v), want %v", c.note, warned, msg, c.warn)
		}
	}
}

// fakeModels is a ModelClient with a fixed list.
type fakeModels struct {
	names []string
	err   error
	set   string
}

func (f *fakeModels) Models(context.Context) ([]string, error) { return f.names, f.err }
func (f *fakeModels) SetModel(name string)                     { f.set = name }

// TestModelByNameIsChecked: /model NAME switches only to a model the
// server lists (a typo would otherwise fail at the next prompt), says how
// to switch anyway, and switches when the list cannot be had.
func TestModelByNameIsChecked(t *testing.T) {
	cases := []struct {
		name, args string
		client     *fakeModels
		wantSet    string
		wantScreen string
	}{
		{"listed", "m-two", &fakeModels{names: []string{"m-one", "m-two"}}, "m-two", "Now using m-two."},
		{"a typo", "m-tow", &fakeModels{names: []string{"m-one", "m-two"}}, "", `does not list a model named "m-tow"`},
		{"forced", "-f m-tow", &fakeModels{names: []string{"m-one", "m-two"}}, "m-tow", "Now using m-tow."},
		{"no list to check against", "custom-1", &fakeModels{err: errors.New("404")}, "custom-1", "Now using custom-1."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 120, 30)
			a.opts.Client = tc.client
			if cmd := a.openModelPicker(tc.args); cmd != nil {
				a.Update(cmd())
			}
			if tc.client.set != tc.wantSet {
				t.Errorf("switched to %q, want %q", tc.client.set, tc.wantSet)
			}
			if got := strings.Join(strings.Fields(screen(a)), " "); !strings.Contains(got, tc.wantScreen) {
				t.Errorf("screen lacks %q:\n%s", tc.wantScreen, screen(a))
			}
		})
	}
}
