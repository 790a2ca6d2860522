package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"pincer/agent"
	"pincer/agent/agenttest"
	"pincer/agent/llm"
	"pincer/chat"
	"pincer/safety"
	"pincer/session"
	"pincer/themes"
	"pincer/tools"
)

// programApp is the screen over a temporary project, talking to srv, ready
// to run under teatest.
func programApp(t *testing.T, srv *agenttest.Server) (*App, string) {
	t.Helper()
	root := t.TempDir()
	writeTestFile(t, root, "main.go", "package main\n")
	client, err := llm.NewClient(llm.ClientOptions{BaseURL: srv.BaseURL(), Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := tools.NewRegistry(tools.Builtins(tools.Options{Root: root})...)
	cls, _ := safety.NewClassifier(safety.Rules{})
	ag, err := agent.New(agent.Options{Model: client, Tools: reg, Safety: cls, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	app := New(Options{Agent: ag, Root: root, Theme: themes.Dark(), Model: "test-model", Session: "s"})
	ag.SetApprover(approver{b: app.bridge})
	return app, root
}

func waitScreen(t *testing.T, tm *teatest.TestModel, what string, ok func(string) bool) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return ok(ansi.Strip(string(b))) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

func quitProgram(t *testing.T, tm *teatest.TestModel) *App {
	t.Helper()
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	return tm.FinalModel(t).(*App)
}

// TestReusedToolCallIDsKeepTheirCards runs two turns against a server that
// names every turn's call "call_0"; the second call is refused. Each card
// must keep its own command.
func TestReusedToolCallIDsKeepTheirCards(t *testing.T) {
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "call_0", Name: "glob", Arguments: `{"pattern":"*.go"}`}),
		agenttest.Text("One file.", 6),
		agenttest.Tools("", agenttest.Call{ID: "call_0", Name: "run_command", Arguments: `{"command":"mkdir d1"}`}),
		agenttest.Text("Not made.", 6),
	)
	defer srv.Close()
	app, _ := programApp(t, srv)
	tm := teatest.NewTestModel(t, app, teatest.WithInitialTermSize(100, 30))
	tm.Type("list go files")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitScreen(t, tm, "first answer", func(s string) bool { return strings.Contains(s, "One file.") })
	tm.Type("make d1")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitScreen(t, tm, "approval", func(s string) bool { return strings.Contains(s, "mkdir d1") && strings.Contains(s, "Run") })
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape}) // refuse
	waitScreen(t, tm, "second answer", func(s string) bool { return strings.Contains(s, "Not made.") })
	final := quitProgram(t, tm)
	var cards []string
	for _, l := range strings.Split(screen(final), "\n") {
		if strings.Contains(l, "glob") || strings.Contains(l, "run_command") {
			cards = append(cards, strings.TrimSpace(l))
		}
	}
	if len(cards) != 2 || !strings.Contains(cards[0], "glob") || !strings.Contains(cards[0], "*.go") ||
		!strings.Contains(cards[1], "run_command") || !strings.Contains(cards[1], "mkdir d1") {
		t.Errorf("cards = %q, want the glob card and then the run_command card with mkdir d1\n%s", cards, screen(final))
	}
}

func TestPasteCountsLinesWithAnyLineBreak(t *testing.T) {
	lines := func(n int, sep string, trailing bool) string {
		s := strings.Repeat("a line of pasted log"+sep, n)
		if !trailing {
			s = strings.TrimSuffix(s, sep)
		}
		return s
	}
	cases := []struct {
		name, paste, label string
	}{
		{"LF with a trailing break", lines(300, "\n", true), "[pasted text #1: 300 lines]"},
		{"LF without", lines(300, "\n", false), "[pasted text #1: 300 lines]"},
		{"CR (bracketed paste)", lines(300, "\r", true), "[pasted text #1: 300 lines]"},
		{"CRLF", lines(300, "\r\n", false), "[pasted text #1: 300 lines]"},
		{"one long line", strings.Repeat("x", 5000), "[pasted text #1: 1 line]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newTestApp(t, 100, 24)
			a.Update(tea.PasteMsg{Content: c.paste})
			if v := a.input.Value(); v != c.label {
				t.Errorf("input %q, want %q", v, c.label)
			}
			if got := a.expandPastes(a.input.Value()); strings.Contains(got, "\r") {
				t.Errorf("the sent text keeps CR characters")
			}
		})
	}
	// A short paste with CR breaks goes in as lines.
	a := newTestApp(t, 100, 24)
	a.Update(tea.PasteMsg{Content: "one\rtwo\rthree"})
	if v := a.input.Value(); v != "one\ntwo\nthree" {
		t.Errorf("short paste went in as %q", v)
	}
}

// summaryModel answers every request with a short summary.
type summaryModel struct{}

func (summaryModel) Complete(context.Context, llm.Request, func(agent.Event)) (llm.Reply, error) {
	return llm.Reply{Content: "The user asked about files; they were read."}, nil
}

// TestCompactGaugeShowsTheNextRequest compacts a session whose kept
// messages hold a tool output larger than the window: the next request
// cuts it to fit, and the gauge must say what that request carries.
func TestCompactGaugeShowsTheNextRequest(t *testing.T) {
	root := t.TempDir()
	reg, _ := tools.NewRegistry(tools.Builtins(tools.Options{Root: root})...)
	cls, _ := safety.NewClassifier(safety.Rules{})
	ag, err := agent.New(agent.Options{Model: summaryModel{}, Tools: reg, Safety: cls, Root: root,
		System: "You are pincer.", Budget: agent.Budget{ContextWindow: 8000, CompressAt: 0.8, KeepRecent: 4}})
	if err != nil {
		t.Fatal(err)
	}
	var hist []agent.Message
	for i := 0; i < 6; i++ {
		hist = append(hist, agent.Message{Role: agent.RoleUser, Content: fmt.Sprintf("question %d", i)},
			agent.Message{Role: agent.RoleAssistant, Content: "answer"})
	}
	hist = append(hist,
		agent.Message{Role: agent.RoleUser, Content: "read the log"},
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"log"}`}}},
		agent.Message{Role: agent.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: strings.Repeat("log line number so and so\n", 1600)},
		agent.Message{Role: agent.RoleAssistant, Content: "It is a long log."})
	ag.Restore(hist, "", 0)
	a := New(Options{Agent: ag, Root: root, Theme: themes.Dark(), Model: "m", Session: "s"})
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	a.Update(eventsMsg{agent.Usage{PromptTokens: 7400, CompletionTokens: 10}}) // what the server counted, cut to fit
	if err := ag.Compact(context.Background(), "", a.bridge.event); err != nil {
		t.Fatal(err)
	}
	a.Update(compactDoneMsg{})
	status := ansi.Strip(a.statusLine())
	var pct int
	if i := strings.Index(status, "ctx "); i < 0 {
		t.Fatalf("no gauge in %q", status)
	} else {
		fmt.Sscanf(status[i+4:], "%d%%", &pct)
	}
	if pct > 100 || pct <= 0 {
		t.Errorf("after /compact the gauge says %d%% (%q); the next request fits the window", pct, status)
	}
}

// TestFailuresAreNotInterruptions: a server that refuses the key, or that
// is not there, ends the turn with an explained error, never with
// "(interrupted)".
func TestFailuresAreNotInterruptions(t *testing.T) {
	cases := []struct {
		name  string
		reply []agenttest.Reply
		down  bool
	}{
		{"401", []agenttest.Reply{agenttest.Error(401, "Incorrect API key provided")}, false},
		{"server down", nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := agenttest.New(c.reply...)
			defer srv.Close()
			app, _ := programApp(t, srv)
			if c.down {
				srv.Close()
			}
			var explained error
			app.opts.ExplainError = func(err error) error {
				explained = err
				return fmt.Errorf("explained: %w", err)
			}
			tm := teatest.NewTestModel(t, app, teatest.WithInitialTermSize(100, 30))
			tm.Type("hello")
			tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
			waitScreen(t, tm, "error", func(s string) bool { return strings.Contains(s, "Explained:") })
			final := quitProgram(t, tm)
			s := screen(final)
			if strings.Contains(s, "interrupted") {
				t.Errorf("a failure is shown as an interruption:\n%s", s)
			}
			if explained == nil {
				t.Error("the error was not explained")
			}
		})
	}
}

// TestStoppedCommandHasNoExtraMark: Esc while a command runs shows the stop
// on the command's card only; Esc while the model thinks marks the turn.
func TestStoppedCommandHasNoExtraMark(t *testing.T) {
	for _, inTool := range []bool{true, false} {
		a := newTestApp(t, 100, 24)
		a.transcript.AddUser("build it")
		a.busy, a.cancel = true, func() {}
		if inTool {
			a.Update(eventsMsg{
				agent.ToolCallDelta{Index: 0, Call: "k1", ID: "c1", Name: "run_command", ArgsSoFar: `{"command":"make"}`},
				agent.AssistantMessage{Message: agent.Message{ToolCalls: []agent.ToolCall{{ID: "c1", Name: "run_command", Arguments: `{"command":"make"}`}}}, Calls: []string{"k1"}},
				agent.ToolStarted{Call: "k1", ID: "c1", Name: "run_command", Summary: "run_command make"},
			})
		}
		press(a, "esc")
		if inTool {
			a.bridge.event(agent.ToolResult{Call: "k1", ID: "c1", Name: "run_command", Content: "(User cancelled the operation while it ran.)", IsError: true})
		}
		a.Update(turnDoneMsg{err: context.Canceled})
		got := strings.Count(screen(a), "(interrupted)")
		want := 1
		if inTool {
			want = 0
		}
		if got != want {
			t.Errorf("stopped in a tool: %v: %d \"(interrupted)\" marks, want %d\n%s", inTool, got, want, screen(a))
		}
	}
}

// TestEscDoesNotSendQueuedPrompts: stopping a turn stops; what was queued
// waits in the input for the person to send it.
func TestEscDoesNotSendQueuedPrompts(t *testing.T) {
	for _, stopKey := range []string{"esc", "ctrl+c"} {
		a := newTestApp(t, 100, 24)
		a.busy, a.cancel = true, func() {}
		typeText(a, "then do this")
		press(a, "enter")
		typeText(a, "and that")
		press(a, "enter")
		press(a, stopKey)
		cmd := a.turnDone(turnDoneMsg{err: context.Canceled})
		if a.busy || len(a.queue) != 0 {
			t.Errorf("%s: busy %v, queue %q after stopping; want idle with nothing queued", stopKey, a.busy, a.queuedTexts())
		}
		_ = cmd
		if v := a.input.Value(); v != "then do this\n\nand that" {
			t.Errorf("%s: input %q, want the queued prompts back", stopKey, v)
		}
		if s := screen(a); strings.Contains(s, "queued:") || !strings.Contains(s, "back in the input") {
			t.Errorf("%s: screen after stopping:\n%s", stopKey, s)
		}
	}
}

// TestInputMarksOnlyLineStarts: a long line wraps without a › on its
// continuation rows; a real new line gets one.
func TestInputMarksOnlyLineStarts(t *testing.T) {
	a := newTestApp(t, 40, 20)
	typeText(a, strings.Repeat("wrapping words go on and on ", 4))
	press(a, "ctrl+j")
	typeText(a, "second line")
	view := ansi.Strip(a.input.View())
	var marks, rows int
	for _, l := range strings.Split(view, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		rows++
		if strings.HasPrefix(l, "›") {
			marks++
		} else if !strings.HasPrefix(l, "  ") {
			t.Errorf("row %q has neither a mark nor a blank gutter", l)
		}
	}
	if rows < 4 || marks != 2 {
		t.Errorf("%d rows with %d marks, want 2 marks (two lines typed):\n%s", rows, marks, view)
	}
	if !strings.HasPrefix(strings.Split(view, "\n")[0], "› wrapping") {
		t.Errorf("first row %q", strings.Split(view, "\n")[0])
	}
}

func TestLineStartsFollowTheTextareaWrap(t *testing.T) {
	cases := []struct {
		text  string
		width int
		want  string // S a start, c a continuation
	}{
		{"short", 20, "S"},
		{"a\nb\nc", 20, "SSS"},
		{strings.Repeat("x", 45), 20, "Scc"},
		{"one two three four five six seven", 10, "Sccc"},
		{"日本語日本語日本語日本語", 10, "Scc"},
		{"", 10, "S"},
	}
	for _, c := range cases {
		var got strings.Builder
		for _, s := range lineStarts(c.text, c.width) {
			if s {
				got.WriteByte('S')
			} else {
				got.WriteByte('c')
			}
		}
		if got.String() != c.want {
			t.Errorf("lineStarts(%q, %d) = %s, want %s", c.text, c.width, got.String(), c.want)
		}
	}
}

// TestEditReviewFitsAShortDiff: a one-line change opens a dialog as high as
// its diff, not one that fills the screen with blank lines.
func TestEditReviewFitsAShortDiff(t *testing.T) {
	a := newTestApp(t, 120, 40)
	ch := &tools.Change{Path: "/p/a.txt", Rel: "a.txt", Before: []byte("one\n"), After: []byte("uno\n"), Summary: "replaced 1 occurrence"}
	a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApproveEdit, Step: 1, Change: ch, Tier: safety.Confirm}, reply: make(chan agent.Decision, 1)}})
	checkShape(t, a)
	lines := strings.Split(screen(a), "\n")
	top, bottom := -1, -1
	for i, l := range lines {
		if strings.Contains(l, "╭") {
			top = i
		}
		if strings.Contains(l, "╰") {
			bottom = i
		}
	}
	if top < 0 || bottom < 0 {
		t.Fatalf("no dialog on the screen:\n%s", screen(a))
	}
	if h := bottom - top + 1; h > 14 {
		t.Errorf("the review of a one-line change is %d lines high:\n%s", h, screen(a))
	}
	if s := screen(a); !strings.Contains(s, "uno") || !strings.Contains(s, "one") {
		t.Errorf("the diff is not shown:\n%s", s)
	}
	// f still gives the diff the whole screen.
	time.Sleep(settleTime)
	press(a, "f")
	lines = strings.Split(screen(a), "\n")
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "│") {
			n++
		}
	}
	if n < 30 {
		t.Errorf("full screen shows a dialog of %d lines", n)
	}
}

// TestResumedPromptShowsWhatWasTyped: a stored prompt with an attached file
// shows as typed, with a line naming the file, and Up recalls the typed
// text, not the file.
func TestResumedPromptShowsWhatWasTyped(t *testing.T) {
	root := t.TempDir()
	writeTestFile(t, root, "main.go", "package main\n")
	reg, _ := tools.NewRegistry(tools.Builtins(tools.Options{Root: root})...)
	cls, _ := safety.NewClassifier(safety.Rules{})
	model := &recordingModel{}
	ag, err := agent.New(agent.Options{Model: model, Tools: reg, Safety: cls, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ag.Run(context.Background(), "explain @main.go", nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(model.user, "package main") {
		t.Fatalf("the file was not attached: %q", model.user)
	}
	a := New(Options{Agent: ag, Root: root, Theme: themes.Dark(), Model: "m", Session: "s", History: ag.History()})
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	s := screen(a)
	if !strings.Contains(s, "explain @main.go") || !strings.Contains(s, "Attached main.go.") || strings.Contains(s, "package main") {
		t.Errorf("resumed screen:\n%s", s)
	}
	press(a, "up")
	if v := a.input.Value(); v != "explain @main.go" {
		t.Errorf("Up recalls %q", v)
	}
}

// recordingModel answers "ok" and keeps the last user message it got.
type recordingModel struct{ user string }

func (m *recordingModel) Complete(_ context.Context, req llm.Request, _ func(agent.Event)) (llm.Reply, error) {
	for _, msg := range req.Messages {
		if msg.Role == agent.RoleUser {
			m.user = msg.Content
		}
	}
	return llm.Reply{Content: "ok"}, nil
}

// drive runs cmd as the program would, feeding what it returns to the app,
// batches and sequences included (a few levels deep; no timers).
func drive(t *testing.T, a *App, cmd tea.Cmd, depth int) {
	t.Helper()
	if cmd == nil || depth > 6 {
		return
	}
	msg := cmd()
	if msg == nil {
		return
	}
	if batch, ok := msg.(tea.BatchMsg); ok {
		for _, c := range batch {
			drive(t, a, c, depth+1)
		}
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
		for i := 0; i < v.Len(); i++ { // tea.Sequence
			drive(t, a, v.Index(i).Interface().(tea.Cmd), depth+1)
		}
		return
	}
	_, next := a.Update(msg)
	drive(t, a, next, depth+1)
}

func TestSessionPickerKeysAndRefresh(t *testing.T) {
	a := newTestApp(t, 120, 30)
	st, err := session.Open(filepath.Join(t.TempDir(), "s.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"refactor", "bugfix"} {
		s, _ := st.Create(session.Session{Name: n, Dir: a.opts.Root})
		st.Append(s.ID, chat.Message{Role: chat.RoleUser, Content: "work on the " + n})
	}
	a.opts.Store = st
	drive(t, a, a.openSessionPicker(), 0)
	p, ok := a.topDialog().(*picker)
	if !ok {
		t.Fatalf("no picker:\n%s", screen(a))
	}
	if strings.Contains(screen(a), "ctrl+n") {
		t.Errorf("the footer still offers ctrl+n:\n%s", screen(a))
	}
	first, _ := p.list.Selected()
	a.Update(tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl})
	if second, _ := p.list.Selected(); second.Value == first.Value {
		t.Error("ctrl+n did not move down")
	}
	if list, _ := st.List(); len(list) != 2 {
		t.Errorf("%d sessions after ctrl+n, want 2: it must not make one", len(list))
	}
	// Rename the selected one: the open list shows the new name.
	a.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	typeText(a, "-two")
	_, cmd := a.Update(keyMsg("enter"))
	drive(t, a, cmd, 0)
	if s := screen(a); !strings.Contains(s, "refactor-two") && !strings.Contains(s, "bugfix-two") {
		t.Errorf("the renamed session is not in the list:\n%s", s)
	}
	if _, ok := a.topDialog().(*picker); !ok {
		t.Error("the picker closed after renaming")
	}
	// Columns: every row's detail ends at the same cell.
	var ends []int
	for _, l := range strings.Split(screen(a), "\n") {
		if i := strings.Index(l, " msg"); i >= 0 {
			ends = append(ends, i)
		}
	}
	if len(ends) != 2 || ends[0] != ends[1] {
		t.Errorf("the rows' details end at %v:\n%s", ends, screen(a))
	}
}

func TestNewSessionLeavesNoEmptyOne(t *testing.T) {
	a := newTestApp(t, 100, 24)
	st, err := session.Open(filepath.Join(t.TempDir(), "s.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	empty, _ := st.Create(session.Session{Dir: a.opts.Root})
	a.opts.Store, a.opts.SessionID = st, empty.ID
	drive(t, a, a.newSession(), 0)
	if a.opts.SessionID == empty.ID {
		t.Fatal("no new session")
	}
	if _, err := st.Get(empty.ID); err == nil {
		t.Error("the empty session left behind is still stored")
	}
	if list, _ := st.List(); len(list) != 1 {
		t.Errorf("%d sessions stored, want the new one", len(list))
	}
}

// TestNewSessionStaysPrivate: after pincer --private, /new starts a
// private session too; without it, an ordinary one.
func TestNewSessionStaysPrivate(t *testing.T) {
	for _, private := range []bool{true, false} {
		a := newTestApp(t, 100, 24)
		st, err := session.Open(filepath.Join(t.TempDir(), "s.db"), session.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		a.opts.Store, a.opts.Private = st, private
		drive(t, a, a.newSession(), 0)
		got, err := st.Get(a.opts.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Private != private {
			t.Errorf("--private %v: the new session's Private is %v", private, got.Private)
		}
	}
}

// TestHelpFitsAndScrolls: the help keeps its border on any screen, and
// every line of it can be scrolled into view.
func TestHelpFitsAndScrolls(t *testing.T) {
	for _, size := range [][2]int{{60, 20}, {120, 36}, {100, 40}} {
		a := newTestApp(t, size[0], size[1])
		press(a, "?")
		if !a.showHelp {
			t.Fatal("? did not open the help")
		}
		checkShape(t, a)
		s := screen(a)
		if !strings.Contains(s, "╭") || !strings.Contains(s, "╰") {
			t.Errorf("%dx%d: the help's border is cut:\n%s", size[0], size[1], s)
		}
		// Scroll to the end, a page at a time: every line comes into view.
		seen := map[string]bool{}
		for i := 0; i < 20; i++ {
			for _, l := range strings.Split(screen(a), "\n") {
				seen[strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "│"))] = true
			}
			a.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
		}
		last := "/" + a.cmdList[len(a.cmdList)-1].Name
		found := false
		for l := range seen {
			if strings.Contains(l, last+" ") {
				found = true
			}
		}
		if !found {
			t.Errorf("%dx%d: the last command %s never came into view", size[0], size[1], last)
		}
		checkShape(t, a)
		if !a.showHelp {
			t.Errorf("%dx%d: scrolling closed the help", size[0], size[1])
		}
		press(a, "x")
		if a.showHelp {
			t.Errorf("%dx%d: another key did not close the help", size[0], size[1])
		}
	}
}

// TestKeysPageIsGenerated: the key tables of docs/keys.md are what the key
// maps say; after changing a binding, run go generate ./docs.
func TestKeysPageIsGenerated(t *testing.T) {
	md, err := os.ReadFile(filepath.Join("..", "docs", "keys.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range keyDocSections() {
		if !strings.Contains(string(md), "<!-- keys:"+name+" -->") {
			t.Errorf("docs/keys.md has no generated table %q", name)
		}
	}
	want, err := RewriteKeyDoc(string(md))
	if err != nil {
		t.Fatal(err)
	}
	if want != string(md) {
		t.Error("docs/keys.md is out of date with the key maps; run go generate ./docs")
	}
	// The generator itself: a changed binding shows in the page.
	stale := strings.Replace(string(md), "| `Esc` | close the list |", "| `Esc` | something else |", 1)
	if got, _ := RewriteKeyDoc(stale); got != string(md) {
		t.Error("RewriteKeyDoc does not rewrite a stale row")
	}
	if _, err := RewriteKeyDoc("<!-- keys:nosuch -->\n<!-- /keys -->"); err == nil {
		t.Error("an unknown table name is accepted")
	}
}

func TestDocKey(t *testing.T) {
	cases := map[string]string{"up": "↑", "ctrl+p": "Ctrl+P", "shift+tab": "Shift+Tab", "ctrl+up": "Ctrl+↑", "k": "k", "G": "G", "pgdown": "PgDn", "f1": "F1", "[": "["}
	for in, want := range cases {
		if got := docKey(in); got != want {
			t.Errorf("docKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEditReviewFollowsTheLayout: switching a short review from side by
// side to unified (v) makes the diff taller; the dialog grows with it
// instead of cutting the change.
func TestEditReviewFollowsTheLayout(t *testing.T) {
	a := newTestApp(t, 160, 44)
	ch := &tools.Change{Path: "/p/a.txt", Rel: "a.txt", Before: []byte("one\ntwo\nthree\n"), After: []byte("uno\ndos\ntres\n"), Summary: "replaced 3 lines"}
	a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApproveEdit, Step: 1, Change: ch, Tier: safety.Confirm}, reply: make(chan agent.Decision, 1)}})
	screen(a)
	time.Sleep(settleTime)
	press(a, "v")
	s := screen(a)
	for _, w := range []string{"one", "two", "three", "uno", "dos", "tres"} {
		if !strings.Contains(s, w) {
			t.Errorf("after v the review cuts %q:\n%s", w, s)
		}
	}
}

// lineStarts is the plain statement of what inputRows keeps up to date:
// it reports for each display row of text at width whether it
// starts a line, measuring every long line afresh.
func lineStarts(text string, width int) []bool {
	if width <= 0 {
		return nil
	}
	var r inputRows
	var starts []bool
	for _, line := range strings.Split(text, "\n") {
		rows := 1
		if mayWrap(line, width) {
			rows = max(r.measure(line, width), 1)
		}
		starts = append(starts, true)
		for j := 1; j < rows; j++ {
			starts = append(starts, false)
		}
	}
	return starts
}

// TestQueuedCommandsComeBackAsTyped: a custom command typed during a turn
// waits as what was typed (its "!" lines run when its turn comes), and
// stopping puts it back as a command; a message that starts with "/"
// comes back escaped so Enter sends it as a message again.
func TestQueuedCommandsComeBackAsTyped(t *testing.T) {
	a := newTestApp(t, 100, 24)
	rendered := 0
	a2 := New(Options{Agent: a.agent, Root: a.opts.Root, Theme: a.theme, Commands: []Command{PromptCommand(CustomCommand{
		Name: "review", Args: "PATH",
		Render: func(context.Context, string, func(context.Context, string) (string, error)) (string, error) {
			rendered++
			return "Review it", nil
		},
	})}})
	a2.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	a2.busy, a2.cancel = true, func() {}
	typeText(a2, "/review api")
	press(a2, "enter")
	typeText(a2, "//etc is a dir")
	press(a2, "enter")
	if got := a2.queuedTexts(); len(got) != 2 || got[0] != "/review api" || got[1] != "/etc is a dir" {
		t.Fatalf("queue %q, want the command as typed and the message", got)
	}
	if rendered != 0 {
		t.Errorf("the queued command was made %d times before its turn", rendered)
	}
	press(a2, "esc")
	a2.turnDone(turnDoneMsg{err: context.Canceled})
	if v := a2.input.Value(); v != "/review api\n\n//etc is a dir" {
		t.Errorf("input %q after stopping, want the command and the escaped message", v)
	}
}
