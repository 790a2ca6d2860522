package ui

import (
	"context"
	"flag"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/agent"
	"pincer/agent/llm"
	"pincer/chat"
	"pincer/safety"
	"pincer/session"
	"pincer/themes"
	"pincer/tools"
	"pincer/tools/lsp"
	"pincer/ui/complete"
	"pincer/ui/tree"
	"pincer/ui/watch"
)

// updating reports whether -update was given (the flag is defined by the
// golden package teatest uses) to rewrite the golden files.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// silentModel is a model that must not be called: these tests drive the
// screen with events directly.
type silentModel struct{ t *testing.T }

func (m silentModel) Complete(context.Context, llm.Request, func(agent.Event)) (llm.Reply, error) {
	m.t.Error("the model was called")
	return llm.Reply{}, nil
}

// newTestApp is the screen at w×h over a small project, with the tree
// listed, in the dark theme.
// defaultRules builds the classifier of an empty rule set once for the
// test binary: building one parses the command tables, a third of what a
// test app costs, and a Classifier never changes once built (its With
// methods return new ones), so the tests can share it.
var defaultRules = sync.OnceValues(func() (*safety.Classifier, error) { return safety.NewClassifier(safety.Rules{}) })

// defaultClassifier is the shared classifier of an empty rule set.
func defaultClassifier(t testing.TB) *safety.Classifier {
	t.Helper()
	cls, err := defaultRules()
	if err != nil {
		t.Fatal(err)
	}
	return cls
}

func newTestApp(t *testing.T, w, h int) *App {
	t.Helper()
	root := t.TempDir()
	for name, content := range map[string]string{"main.go": "package main\n", "go.mod": "module x\n", "internal/a.go": "package internal\n"} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: root})...)
	if err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Options{Model: silentModel{t}, Tools: reg, Safety: defaultClassifier(t), Root: root, Budget: agent.Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 10}})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Agent: ag, Root: root, Theme: themes.Dark(), Model: "test-model", Session: "demo"})
	a.transcript.Reset() // the welcome line names the temporary directory
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	// List the tree synchronously, as the program would through its Cmd.
	if msg := a.tree.Init()(); msg != nil {
		a.Update(msg)
	}
	return a
}

func press(a *App, keys ...string) {
	for _, k := range keys {
		a.Update(keyMsg(k))
	}
}

// keyMsg builds the key press a terminal sends for a key name.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+j":
		return tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}
	case "ctrl+t":
		return tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

func typeText(a *App, s string) {
	for _, r := range s {
		a.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// screen is what the terminal shows, without colours.
func screen(a *App) string { return ansi.Strip(a.render()) }

// checkShape asserts the screen fills exactly w×h cells at most.
func checkShape(t *testing.T, a *App) {
	t.Helper()
	lines := strings.Split(a.render(), "\n")
	if len(lines) != a.height {
		t.Errorf("screen has %d lines, want %d", len(lines), a.height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > a.width {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i, w, a.width, ansi.Strip(l))
		}
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(path, []byte(got), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// conversation feeds a small exchange: a prompt, reasoning, a tool call
// with its result, and an answer.
func conversation(a *App) {
	a.transcript.AddUser("What is in main.go?")
	a.Update(eventsMsg{
		agent.ReasoningDelta{Text: "The user wants the file."},
		agent.ToolCallDelta{Index: 0, ID: "c1", Name: "read_file", ArgsSoFar: `{"path":"main.go"}`},
		agent.AssistantMessage{},
		agent.ToolStarted{ID: "c1", Name: "read_file", Summary: "read_file main.go"},
		agent.ToolResult{ID: "c1", Name: "read_file", Content: "     1\tpackage main", Touched: []chat.Touch{{Path: "main.go", Kind: chat.TouchRead}}},
		agent.TextDelta{Text: "It declares **package main** and nothing else."},
		agent.AssistantMessage{},
		agent.Usage{PromptTokens: 1500, CompletionTokens: 40},
	})
}

func TestGoldenScreens(t *testing.T) {
	cases := []struct {
		name string
		w, h int
		prep func(a *App)
		want []string // must appear on screen
	}{
		{"empty_100x24", 100, 24, func(a *App) {}, []string{"main.go", "internal/", "test-model", "demo", "idle"}},
		{"conversation_100x24", 100, 24, conversation, []string{"What is in main.go?", "read_file", "main.go", "package main", "↑1.5k ↓40", "ctx 5%"}},
		{"conversation_60x15", 60, 15, conversation, []string{"package main", "test-model"}},
		{"approval_100x24", 100, 24, func(a *App) {
			a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApproveCommand, Step: 1, Tool: "run_command", Summary: "run_command go test ./...",
				Command: "go test ./...", Tier: safety.Confirm, Reasons: []string{"go test ./...: runs a program"}, SuggestedRule: "go test *"}, reply: make(chan agent.Decision, 1)}})
		}, []string{"Run this command?", "$ go test ./...", "confirm", "a always allow \"go test *\"", "waiting for you"}},
		{"dangerous_step2_100x24", 100, 24, func(a *App) {
			a.Update(eventsMsg{question{q: agent.Approval{Kind: agent.ApproveCommand, Step: 2, Tool: "run_command", Summary: "run_command rm -rf build",
				Command: "rm -rf build", Tier: safety.Dangerous, Reasons: []string{"rm -rf build: recursive forced delete"}}, reply: make(chan agent.Decision, 1)}})
		}, []string{"Second confirmation", "Type yes", "recursive forced delete"}},
		{"help_100x40", 100, 40, func(a *App) { press(a, "?") }, []string{"Conversation", "ctrl+c", "/help", "Shift while dragging"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, tc.w, tc.h)
			tc.prep(a)
			checkShape(t, a)
			got := screen(a)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("screen lacks %q:\n%s", w, got)
				}
			}
			golden(t, tc.name, got)
		})
	}
}

func TestTreeHidesWhenNarrowAndOnCtrlT(t *testing.T) {
	a := newTestApp(t, 120, 30)
	if !strings.Contains(screen(a), "internal/") {
		t.Fatal("the tree is not shown at 120 columns")
	}
	press(a, "ctrl+t")
	if strings.Contains(screen(a), "internal/") {
		t.Error("ctrl+t did not hide the tree")
	}
	press(a, "ctrl+t")
	a.Update(tea.WindowSizeMsg{Width: 70, Height: 20})
	if strings.Contains(screen(a), "internal/") {
		t.Error("the tree is shown at 70 columns")
	}
	checkShape(t, a)
}

func TestToolResultsMarkTheTree(t *testing.T) {
	a := newTestApp(t, 120, 30)
	conversation(a)
	if own, _ := a.tree.MarkOf("main.go"); own != tree.MarkRead {
		t.Errorf("main.go mark %v, want read", own)
	}
}

func answer(t *testing.T, q question) agent.Decision {
	t.Helper()
	select {
	case d := <-q.reply:
		return d
	default:
		return agent.Decision{Comment: "<no answer>"}
	}
}

func TestApprovalDialogKeys(t *testing.T) {
	confirm := agent.Approval{Kind: agent.ApproveCommand, Step: 1, Command: "go test ./...", Tier: safety.Confirm, SuggestedRule: "go test *"}
	dangerous1 := agent.Approval{Kind: agent.ApproveCommand, Step: 1, Command: "rm -rf x", Tier: safety.Dangerous}
	dangerous2 := dangerous1
	dangerous2.Step = 2
	cases := []struct {
		name     string
		approval agent.Approval
		keys     []string // "settle" waits out the settle time
		want     agent.Decision
		open     bool // the dialog is still open afterwards
	}{
		{"y allows once", confirm, []string{"settle", "y"}, agent.Decision{Allow: true}, false},
		{"n denies", confirm, []string{"settle", "n"}, agent.Decision{}, false},
		{"esc denies at once", confirm, []string{"esc"}, agent.Decision{}, false},
		{"a saves the suggested rule", confirm, []string{"settle", "a", "enter"}, agent.Decision{Allow: true, AllowRule: "go test *"}, false},
		{"c denies with a comment", confirm, []string{"settle", "c", "use make", "enter"}, agent.Decision{Comment: "use make"}, false},
		{"keys during the settle time are ignored", confirm, []string{"y", "y"}, agent.Decision{Comment: "<no answer>"}, true},
		{"dangerous step 1 y continues", dangerous1, []string{"settle", "y"}, agent.Decision{Allow: true}, false},
		{"dangerous step 1 has no always", dangerous1, []string{"settle", "a"}, agent.Decision{Comment: "<no answer>"}, true},
		{"dangerous step 2 refuses repeated y", dangerous2, []string{"settle", "y", "y", "y", "enter"}, agent.Decision{Comment: "<no answer>"}, true},
		{"dangerous step 2 takes yes", dangerous2, []string{"settle", "yes", "enter"}, agent.Decision{Allow: true}, false},
		{"dangerous step 2 esc cancels", dangerous2, []string{"settle", "esc"}, agent.Decision{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 100, 24)
			q := question{q: tc.approval, reply: make(chan agent.Decision, 1)}
			a.Update(eventsMsg{q})
			for _, k := range tc.keys {
				switch {
				case k == "settle":
					a.topDialog().(*approvalDialog).opened = time.Now().Add(-time.Second)
				case len(k) > 1 && k != "enter" && k != "esc":
					typeText(a, k)
				default:
					press(a, k)
				}
			}
			if got := answer(t, q); got.Allow != tc.want.Allow || got.Comment != tc.want.Comment || got.AllowRule != tc.want.AllowRule {
				t.Errorf("decision %+v, want %+v", got, tc.want)
			}
			if open := a.topDialog() != nil; open != tc.open {
				t.Errorf("dialog open = %v, want %v", open, tc.open)
			}
		})
	}
}

func TestBridgeBatchesEvents(t *testing.T) {
	b := newBridge()
	go func() {
		for i := 0; i < 5000; i++ {
			b.event(agent.TextDelta{Text: "x"})
		}
	}()
	total, batches := 0, 0
	for total < 5000 {
		msg := b.wait()().(eventsMsg)
		total += len(msg)
		batches++
	}
	if total != 5000 {
		t.Fatalf("%d events delivered, want 5000", total)
	}
	// Sent in a tight loop, 5000 deltas must arrive in a handful of
	// frames, not one screen update each.
	if batches > 50 {
		t.Errorf("%d batches for 5000 events", batches)
	}
}

func TestLongPasteBecomesAPlaceholder(t *testing.T) {
	a := newTestApp(t, 100, 24)
	long := strings.Repeat("line of pasted log output\n", 200)
	a.Update(tea.PasteMsg{Content: long})
	v := a.input.Value()
	if !strings.HasPrefix(v, "[pasted text #1: 200 lines]") {
		t.Fatalf("input %q, want a placeholder", v)
	}
	if got := a.expandPastes("see " + v); got != "see "+long {
		t.Errorf("placeholder not expanded back to the pasted text")
	}
	a.input.Reset()
	a.Update(tea.PasteMsg{Content: "short"})
	if a.input.Value() != "short" {
		t.Errorf("a short paste went in as %q", a.input.Value())
	}
}

func TestPromptHistory(t *testing.T) {
	a := newTestApp(t, 100, 24)
	a.history = []string{"first", "second"}
	a.historyPos = 2
	typeText(a, "draft")
	press(a, "up")
	if a.input.Value() != "second" {
		t.Fatalf("up: %q", a.input.Value())
	}
	press(a, "up", "up")
	if a.input.Value() != "first" {
		t.Fatalf("up up up: %q", a.input.Value())
	}
	press(a, "down", "down")
	if a.input.Value() != "draft" {
		t.Errorf("down to the end: %q, want the draft back", a.input.Value())
	}
}

func TestMessagesTypedWhileBusyAreQueued(t *testing.T) {
	a := newTestApp(t, 100, 24)
	a.busy = true
	typeText(a, "next thing")
	press(a, "enter")
	if len(a.queue) != 1 || a.queue[0].text != "next thing" {
		t.Fatalf("queue %v", a.queue)
	}
	if !strings.Contains(screen(a), "next thing") || !strings.Contains(screen(a), "1 queued") {
		t.Errorf("the queued message is not shown:\n%s", screen(a))
	}
	cmd := a.turnDone(turnDoneMsg{res: agent.Result{StopReason: "answer"}})
	if len(a.queue) != 0 || !a.busy || cmd == nil {
		t.Errorf("after the turn: queue %v, busy %v; want the queued prompt started", a.queue, a.busy)
	}
	a.cancelTurn()
}

func TestSlashCommands(t *testing.T) {
	a := newTestApp(t, 100, 24)
	typeText(a, "/frobnicate")
	// The popup is open but matches nothing; Enter sends.
	press(a, "enter")
	if !strings.Contains(screen(a), "Unknown command /frobnicate") {
		t.Errorf("no error for an unknown command:\n%s", screen(a))
	}
	typeText(a, "/tree")
	a.closePopups()
	press(a, "enter")
	if a.treeShown {
		t.Error("/tree did not hide the tree")
	}
}

func TestCtrlC(t *testing.T) {
	a := newTestApp(t, 100, 24)
	typeText(a, "half typed")
	press(a, "ctrl+c")
	if a.input.Value() != "" || a.quit {
		t.Fatalf("first ctrl+c with text: input %q quit %v; want the input cleared", a.input.Value(), a.quit)
	}
	press(a, "ctrl+c")
	if a.quit || !a.quitArmed {
		t.Fatal("ctrl+c on an empty input quit at once")
	}
	press(a, "ctrl+c")
	if !a.quit {
		t.Error("a second ctrl+c did not quit")
	}
	// While busy it cancels instead.
	b := newTestApp(t, 100, 24)
	cancelled := false
	b.busy, b.cancel = true, func() { cancelled = true }
	press(b, "ctrl+c")
	if !cancelled || b.quit {
		t.Errorf("ctrl+c while busy: cancelled %v quit %v", cancelled, b.quit)
	}
}

func TestNotifiesOnlyWhenNotFocused(t *testing.T) {
	a := newTestApp(t, 100, 24)
	if a.notify("x") != nil {
		t.Error("notified while the terminal has focus")
	}
	a.Update(tea.BlurMsg{})
	cmd := a.notify("pincer: finished")
	if cmd == nil {
		t.Fatal("no notification while the terminal is in the background")
	}
	if raw, ok := cmd().(tea.RawMsg); !ok || !strings.Contains(raw.Msg.(string), "\a") || !strings.Contains(raw.Msg.(string), "]9;pincer: finished") {
		t.Errorf("notification %#v, want a bell and OSC 9", cmd())
	}
}

// twoHunks is a change with two separate hunks: line 2 and line 11.
func twoHunks() *tools.Change {
	var before, after strings.Builder
	for i := 1; i <= 12; i++ {
		line := fmt.Sprintf("line %d\n", i)
		before.WriteString(line)
		switch i {
		case 2:
			after.WriteString("line two, edited\n")
		case 11:
			after.WriteString("line eleven, edited\n")
		default:
			after.WriteString(line)
		}
	}
	return &tools.Change{Path: "/p/f.txt", Rel: "f.txt", Before: []byte(before.String()), After: []byte(after.String()), Summary: "replaced 2 occurrences"}
}

func TestEditDialog(t *testing.T) {
	ch := twoHunks()
	onlySecond := strings.Replace(string(ch.Before), "line 11\n", "line eleven, edited\n", 1)
	cases := []struct {
		name        string
		keys        []string
		wantAllow   bool
		wantContent string // "" means nil: the change as planned
		wantNote    bool
		wantComment string
		acceptAll   bool
	}{
		{"y accepts everything", []string{"y"}, true, "", false, "", false},
		{"drop the first hunk, keep the second", []string{"space", "y"}, true, onlySecond, true, "", false},
		{"reject every hunk is a refusal", []string{"r", "y"}, false, "", false, "I rejected every part of this edit.", false},
		{"n rejects", []string{"n"}, false, "", false, "", false},
		{"c rejects with a comment", []string{"c", "keep line 2", "enter"}, false, "", false, "keep line 2", false},
		{"A accepts and turns on accept-edits", []string{"A"}, true, "", false, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 100, 30)
			q := question{q: agent.Approval{Kind: agent.ApproveEdit, Step: 1, Tool: "edit_file", Change: ch, Tier: safety.Confirm}, reply: make(chan agent.Decision, 1)}
			a.Update(eventsMsg{q})
			d := a.topDialog().(*editDialog)
			d.opened = time.Now().Add(-time.Second)
			for _, k := range tc.keys {
				switch {
				case k == "space":
					a.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
				case len(k) > 1 && k != "enter":
					typeText(a, k)
				default:
					press(a, k)
				}
			}
			got := answer(t, q)
			if got.Allow != tc.wantAllow || got.Comment != tc.wantComment {
				t.Errorf("decision %+v, want allow %v comment %q", got, tc.wantAllow, tc.wantComment)
			}
			if tc.wantContent == "" && got.Content != nil || tc.wantContent != "" && string(got.Content) != tc.wantContent {
				t.Errorf("content %q, want %q", got.Content, tc.wantContent)
			}
			if (got.Note != "") != tc.wantNote {
				t.Errorf("note %q, want one: %v", got.Note, tc.wantNote)
			}
			if got := a.mode() == agent.ModeAcceptEdits; got != tc.acceptAll {
				t.Errorf("accept-edits mode = %v, want %v", got, tc.acceptAll)
			}
		})
	}
}

func TestModesAnswerWithoutAsking(t *testing.T) {
	cases := []struct {
		name        string
		auto, edits bool
		approval    agent.Approval
		wantAsked   bool
	}{
		// Auto approvals are applied by the agent, only to sandboxed
		// commands; a question that reaches the screen is asked.
		{"auto asks what the agent asks", true, false, agent.Approval{Kind: agent.ApproveCommand, Tier: safety.Confirm}, true},
		{"auto still asks for dangerous", true, false, agent.Approval{Kind: agent.ApproveCommand, Tier: safety.Dangerous}, true},
		{"auto asks before leaving the sandbox", true, false, agent.Approval{Kind: agent.ApproveUnsandboxed, Tier: safety.Confirm, Reasons: []string{"write to /x (outside the writable paths)"}}, true},
		{"auto-approve does not accept edits", true, false, agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Confirm, Change: twoHunks()}, true},
		{"accept-edits accepts an edit", false, true, agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Confirm, Change: twoHunks()}, false},
		{"accept-edits still asks for a dangerous edit", false, true, agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Dangerous, Change: twoHunks()}, true},
		{"accept-edits asks for an edit a hook wants asked", false, true, agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Confirm, Change: twoHunks(), HookAsked: true}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 100, 30)
			a.autoApprove = tc.auto
			if tc.edits {
				a.setMode(agent.ModeAcceptEdits, false)
			}
			q := question{q: tc.approval, reply: make(chan agent.Decision, 1)}
			a.Update(eventsMsg{q})
			if asked := a.topDialog() != nil; asked != tc.wantAsked {
				t.Fatalf("asked = %v, want %v", asked, tc.wantAsked)
			}
			if !tc.wantAsked && !answer(t, q).Allow {
				t.Error("the mode did not allow it")
			}
			st := screen(a)
			if tc.auto && !strings.Contains(st, "auto") || tc.edits && !strings.Contains(st, "accept edits") {
				t.Errorf("the status line does not show the mode:\n%s", st)
			}
		})
	}
}

func TestDialogGoldens(t *testing.T) {
	cases := []struct {
		name string
		w, h int
		q    agent.Approval
		want []string
	}{
		{"edit_100x30", 100, 30, agent.Approval{Kind: agent.ApproveEdit, Step: 1, Change: twoHunks(), Tier: safety.Confirm}, []string{"Review the edit", "f.txt", "line two, edited", "hunk 1/2", "space keep/drop"}},
		{"edit_stale_100x30", 100, 30, agent.Approval{Kind: agent.ApproveEdit, Step: 1, Change: func() *tools.Change { c := twoHunks(); c.Stale = true; return c }(), Tier: safety.Confirm}, []string{"changed on disk since the model read it"}},
		{"path_100x24", 100, 24, agent.Approval{Kind: agent.ApprovePath, Step: 1, Paths: []string{"/etc/hosts"}, Tier: safety.Confirm, Reasons: []string{"/etc/hosts: outside the project"}}, []string{"Allow this file access?", "/etc/hosts", "outside the project"}},
		{"dangerous_step1_80x24", 80, 24, agent.Approval{Kind: agent.ApproveCommand, Step: 1, Summary: "run_command sudo rm -rf /var/x", Command: "sudo rm -rf /var/x", Tier: safety.Dangerous,
			Reasons: []string{"sudo: runs as another user", "rm -rf /var/x: recursive forced delete"}}, []string{"⚠ Dangerous", "runs as another user", "recursive forced delete", "final confirmation"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, tc.w, tc.h)
			a.Update(eventsMsg{question{q: tc.q, reply: make(chan agent.Decision, 1)}})
			checkShape(t, a)
			got := screen(a)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("screen lacks %q:\n%s", w, got)
				}
			}
			golden(t, tc.name, got)
		})
	}
}

func TestPickers(t *testing.T) {
	a := newTestApp(t, 100, 30)
	// The theme picker previews as the selection moves and Esc restores.
	press(a, "/")
	a.closePopups()
	a.input.Reset()
	a.Update(a.openThemePicker("")())
	press(a, "down")
	if a.theme.Name == themes.Dark().Name {
		t.Errorf("moving in the theme picker did not preview another theme")
	}
	press(a, "esc")
	if a.theme.Name != themes.Dark().Name || a.topDialog() != nil {
		t.Errorf("Esc left theme %q and dialog %v", a.theme.Name, a.topDialog())
	}
	// Filtering narrows; Enter chooses.
	a.Update(a.openThemePicker("")())
	typeText(a, "light")
	press(a, "enter")
	if a.theme.Name != "light" {
		t.Errorf("theme %q after choosing light", a.theme.Name)
	}
	// An unknown theme by name says so.
	a.Update(a.openThemePicker("no-such-theme")())
	if !strings.Contains(screen(a), "no-such-theme") {
		t.Errorf("no error for an unknown theme:\n%s", screen(a))
	}
}

func TestDangerousEditSecondStepNeedsYes(t *testing.T) {
	a := newTestApp(t, 100, 30)
	q := question{q: agent.Approval{Kind: agent.ApproveEdit, Step: 2, Change: twoHunks(), Tier: safety.Dangerous, Paths: []string{"/p/f.txt"}}, reply: make(chan agent.Decision, 1)}
	a.Update(eventsMsg{q})
	d, ok := a.topDialog().(*approvalDialog)
	if !ok {
		t.Fatalf("step 2 of a dangerous edit opened %T, want the type-yes confirmation", a.topDialog())
	}
	d.opened = time.Now().Add(-time.Second)
	press(a, "y", "y", "enter")
	if got := answer(t, q); got.Comment != "<no answer>" {
		t.Fatalf("repeated y answered the second step: %+v", got)
	}
	if !strings.Contains(screen(a), "really apply this edit") {
		t.Errorf("screen:\n%s", screen(a))
	}
	a.topDialog().(*approvalDialog).input.SetValue("")
	typeText(a, "yes")
	press(a, "enter")
	if got := answer(t, q); !got.Allow {
		t.Errorf("typing yes did not confirm: %+v", got)
	}
}

func TestTreeGetsPageKeysWhenFocused(t *testing.T) {
	a := newTestApp(t, 120, 12)
	press(a, "tab", "tab") // input → transcript → tree
	if a.focus != focusTree {
		t.Fatalf("focus %v, want the tree", a.focus)
	}
	before, _, _ := a.tree.Selected()
	press(a, "end")
	after, _, _ := a.tree.Selected()
	if before == after {
		t.Errorf("End on the focused tree did not move its selection (%q)", after)
	}
}

func writeTestFile(t *testing.T, root, name, content string) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPickerGoldens(t *testing.T) {
	cases := []struct {
		name string
		open func(t *testing.T, a *App)
		want []string
	}{
		{"theme_picker_100x24", func(t *testing.T, a *App) { a.Update(a.openThemePicker("")()) }, []string{"Theme", "dark", "light", "dracula", "tokyo-night", "esc close"}},
		{"model_picker_100x24", func(t *testing.T, a *App) {
			a.opts.Model = "m-two"
			a.Update(modelListMsg{names: []string{"m-one", "m-two", "m-three"}})
		}, []string{"Model", "m-one", "m-three", "in use"}},
		{"session_picker_100x24", func(t *testing.T, a *App) {
			st, err := session.Open(filepath.Join(t.TempDir(), "s.db"), session.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []string{"refactor", "bugfix"} {
				s, _ := st.Create(session.Session{Name: n, Dir: a.opts.Root})
				st.Append(s.ID, chat.Message{Role: chat.RoleUser, Content: "work on the " + n})
			}
			other, _ := st.Create(session.Session{Name: "elsewhere", Dir: "/some/other/project"})
			st.Append(other.ID, chat.Message{Role: chat.RoleUser, Content: "unrelated"})
			a.opts.Store = st
			list, _ := st.List()
			a.Update(sessionListMsg{list: list})
		}, []string{"Sessions", "refactor", "bugfix", "elsewhere", "ctrl+r rename", "ctrl+d delete"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 100, 24)
			tc.open(t, a)
			checkShape(t, a)
			got := screen(a)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("screen lacks %q:\n%s", w, got)
				}
			}
			// This directory's sessions come before the others.
			if strings.Contains(got, "elsewhere") && strings.Index(got, "elsewhere") < strings.Index(got, "bugfix") {
				t.Error("a session of another directory is listed first")
			}
			golden(t, tc.name, got)
		})
	}
}

func TestFileMentions(t *testing.T) {
	a := newTestApp(t, 120, 30)
	// The files for @ completion load through a Cmd, as at start.
	a.Update(complete.LoadFiles(context.Background(), a.opts.Root, 100)())
	typeText(a, "look at @ma")
	if !a.files.Visible() || !strings.Contains(screen(a), "main.go") {
		t.Fatalf("no completion popup for @ma:\n%s", screen(a))
	}
	press(a, "tab")
	if got := a.input.Value(); got != "look at @main.go " {
		t.Errorf("input after accepting %q", got)
	}
	// Enter on a file in the tree mentions it too.
	a.input.Reset()
	a.Update(tree.SelectMsg{Path: "internal/a.go"})
	if got := a.input.Value(); got != "@internal/a.go " || a.focus != focusInput {
		t.Errorf("tree selection: input %q, focus %v", got, a.focus)
	}
}

// TestFileMentionsOfOddNames: a name with spaces or a newline goes into
// the input quoted, so the prompt's mention names the whole file (unquoted,
// "@docs/release notes.md" would name "docs/release" and attach nothing).
func TestFileMentionsOfOddNames(t *testing.T) {
	cases := []struct {
		name, file, typed, want string
	}{
		{"spaces", "docs/release notes.md", "@rel", `@"docs/release notes.md" `},
		{"a newline", "new\nline.txt", "@new", `@"new\nline.txt" `},
		{"plain", "plain.go", "@plai", "@plain.go "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 120, 30)
			p := filepath.Join(a.opts.Root, tc.file)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			a.Update(complete.LoadFiles(context.Background(), a.opts.Root, 100)())
			typeText(a, tc.typed)
			if !a.files.Visible() {
				t.Fatalf("no completion popup for %s:\n%s", tc.typed, screen(a))
			}
			press(a, "tab")
			if got := a.input.Value(); got != tc.want {
				t.Errorf("input after accepting %q, want %q", got, tc.want)
			}
			a.input.Reset()
			a.Update(tree.SelectMsg{Path: tc.file})
			if got := a.input.Value(); got != tc.want {
				t.Errorf("tree selection: input %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTreeRefreshesOnlyWhenFilesMayHaveChanged(t *testing.T) {
	cases := []struct {
		name string
		ev   agent.ToolResult
		want bool
	}{
		{"a read changes nothing", agent.ToolResult{Name: "read_file", Touched: []chat.Touch{{Path: "main.go", Kind: chat.TouchRead}}}, false},
		{"a search changes nothing", agent.ToolResult{Name: "grep"}, false},
		{"an edit", agent.ToolResult{Name: "edit_file", Touched: []chat.Touch{{Path: "main.go", Kind: chat.TouchChanged}}}, true},
		{"a new file", agent.ToolResult{Name: "write_file", Touched: []chat.Touch{{Path: "n.go", Kind: chat.TouchCreated}}}, true},
		{"a command may write", agent.ToolResult{Name: "run_command"}, true},
	}
	for _, tc := range cases {
		a := newTestApp(t, 120, 30)
		if got := len(a.handleEvents(eventsMsg{tc.ev})) > 0; got != tc.want {
			t.Errorf("%s: refresh = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestThemeFilesInThePicker(t *testing.T) {
	a := newTestApp(t, 100, 24)
	a.opts.ThemeDir = t.TempDir()
	writeTestFile(t, a.opts.ThemeDir, "mine.json", `{"name": "mine", "extends": "light", "colors": {"accent": "#ff8800"}}`)
	writeTestFile(t, a.opts.ThemeDir, "broken.json", `{"name": "broken", "colors": {"accent": "nope"}}`)
	a.Update(a.openThemePicker("")())
	got := screen(a)
	if !strings.Contains(got, "mine") || !strings.Contains(got, "mine.json") {
		t.Errorf("the user's theme is not listed:\n%s", got)
	}
	if !strings.Contains(got, "Not listed") || !strings.Contains(got, "broken.json") {
		t.Errorf("the broken theme file is not reported:\n%s", got)
	}
	press(a, "esc")
	a.Update(a.openThemePicker("mine")())
	if a.theme.Name != "mine" || a.theme.Dark {
		t.Errorf("/theme mine gave %q (dark %v)", a.theme.Name, a.theme.Dark)
	}
}

// TestBodyTextReadableOnAnyTerminal draws every built-in theme on a black,
// a white and a silent terminal (one that never reports its background,
// as tmux often does) and checks that body text reaches the WCAG 4.5:1
// contrast against the background it will really be shown on.
func TestBodyTextReadableOnAnyTerminal(t *testing.T) {
	black, _ := themes.ParseColor("#000000")
	white, _ := themes.ParseColor("#ffffff")
	terminals := []struct {
		name string
		bg   color.Color // nil: the terminal does not answer
	}{{"black", black}, {"white", white}, {"silent", nil}}
	for _, th := range themes.Builtin() {
		for _, auto := range []bool{false, true} {
			for _, term := range terminals {
				t.Run(fmt.Sprintf("%s/auto=%v/%s", th.Name, auto, term.name), func(t *testing.T) {
					a := newTestApp(t, 80, 24)
					a.opts.AutoTheme = auto
					a.applyTheme(th)
					if term.bg != nil {
						a.Update(tea.BackgroundColorMsg{Color: term.bg})
					}
					v := a.View()
					shown := term.bg
					if v.BackgroundColor != nil {
						shown = v.BackgroundColor
					}
					if shown == nil {
						t.Fatalf("theme %s leaves the background to a terminal that did not say what it is", a.theme.Name)
					}
					fg := a.theme.Palette.Foreground
					if v.ForegroundColor != nil {
						fg = v.ForegroundColor
					}
					if r := themes.ContrastRatio(fg, shown); r < 4.5 {
						t.Errorf("theme %s body text %s on %s: contrast %.2f, want at least 4.5",
							a.theme.Name, themes.ColorString(fg), themes.ColorString(shown), r)
					}
				})
			}
		}
	}
}

// runCmd runs cmd and hands what it returns to the screen, following
// batches and the commands Update returns in turn. Only for commands that
// do not wait on anything (no bridge, no watcher).
func runCmd(a *App, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			runCmd(a, c)
		}
	default:
		_, next := a.Update(msg)
		runCmd(a, next)
	}
}

// TestChangesOnDiskReachTheTreeAndCompletion: a file made outside pincer
// (another shell, /export, a command) shows in the tree and in @
// completion once the watcher reports its directory.
func TestChangesOnDiskReachTheTreeAndCompletion(t *testing.T) {
	a := newTestApp(t, 120, 30)
	runCmd(a, a.reloadFiles())
	if strings.Contains(screen(a), "fresh.go") {
		t.Fatal("fresh.go shows before it exists")
	}
	writeTestFile(t, a.opts.Root, "fresh.go", "package main\n")
	_, cmd := a.Update(watch.ChangedMsg{Root: a.tree.Root(), Dirs: []string{""}})
	runCmd(a, cmd)
	if !strings.Contains(screen(a), "fresh.go") {
		t.Errorf("the tree does not show a file made outside pincer:\n%s", screen(a))
	}
	if !slices.ContainsFunc(a.fileItems, func(it complete.Item) bool { return it.Value == "fresh.go" }) {
		t.Errorf("@ completion does not offer fresh.go")
	}
}

// TestOlderFileListingsAreDropped: a listing asked for before a newer one
// neither overwrites it nor keeps walking.
func TestOlderFileListingsAreDropped(t *testing.T) {
	a := newTestApp(t, 120, 30)
	older := a.reloadFiles()
	writeTestFile(t, a.opts.Root, "later.go", "package main\n")
	newer := a.reloadFiles()
	runCmd(a, newer)
	if !slices.ContainsFunc(a.fileItems, func(it complete.Item) bool { return it.Value == "later.go" }) {
		t.Fatal("the newer listing lacks later.go")
	}
	// The older request's walk was cancelled when the newer one started;
	// whatever it returns now must not replace the newer listing.
	os.Remove(filepath.Join(a.opts.Root, "later.go"))
	msg := older().(filesLoadedMsg)
	a.Update(msg)
	if !slices.ContainsFunc(a.fileItems, func(it complete.Item) bool { return it.Value == "later.go" }) {
		t.Error("an older listing replaced a newer one")
	}
	if msg.files.Err == nil {
		t.Error("the older walk was not cancelled when a newer one started")
	}
}

// TestResumeMarksTouchedFiles: files read and changed in a stored session
// are marked in the tree when it is resumed.
func TestResumeMarksTouchedFiles(t *testing.T) {
	a := newTestApp(t, 120, 30)
	a.loadHistory([]agent.Message{
		{Role: agent.RoleUser, Content: "look"},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"main.go"}`}}},
		{Role: agent.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "package main", Touched: []chat.Touch{{Path: "main.go", Kind: chat.TouchRead}}},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "c2", Name: "edit_file", Arguments: `{}`}}},
		{Role: agent.RoleTool, ToolCallID: "c2", ToolName: "edit_file", Content: "ok", Touched: []chat.Touch{{Path: "internal/a.go", Kind: chat.TouchChanged}}},
	})
	if own, _ := a.tree.MarkOf("main.go"); own != tree.MarkRead {
		t.Errorf("main.go mark %v after resume, want read", own)
	}
	if own, _ := a.tree.MarkOf("internal/a.go"); own != tree.MarkChanged {
		t.Errorf("internal/a.go mark %v after resume, want changed", own)
	}
}

func TestStatusLineShowsTheSandbox(t *testing.T) {
	cases := []struct {
		name string
		sb   SandboxStatus
		auto bool
		want string
	}{
		{"workspace", SandboxStatus{Mode: "workspace", Active: true, Jailed: true, Network: true}, false, "sandbox workspace"},
		{"network off", SandboxStatus{Mode: "workspace", Active: true, Jailed: true}, false, "sandbox workspace, net off"},
		{"read-only with auto", SandboxStatus{Mode: "read-only", Active: true, Jailed: true, Network: true}, true, "sandbox read-only · auto"},
		{"no namespaces: auto asks", SandboxStatus{Mode: "workspace", Active: true, Network: true}, true, "sandbox workspace, no namespaces · auto (asks: no namespaces)"},
		{"none possible", SandboxStatus{Mode: "workspace", Note: "no Landlock"}, true, "no sandbox · auto (asks: no sandbox)"},
		{"off", SandboxStatus{Mode: "off"}, false, "sandbox off"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 160, 30)
			a.opts.Sandbox, a.autoApprove = tc.sb, tc.auto
			if st := ansi.Strip(a.statusLine()); !strings.Contains(st, tc.want) {
				t.Errorf("status line lacks %q:\n%s", tc.want, st)
			}
		})
	}
}

func TestBlockedDialogAsksToLeaveTheSandbox(t *testing.T) {
	a := newTestApp(t, 120, 30)
	q := question{q: agent.Approval{Kind: agent.ApproveUnsandboxed, Step: 1, Tier: safety.Confirm, Command: "touch /etc/x",
		Reasons: []string{"write to /etc/x (outside the writable paths)"}}, reply: make(chan agent.Decision, 1)}
	a.Update(eventsMsg{q})
	if a.topDialog() == nil {
		t.Fatal("leaving the sandbox did not ask")
	}
	if st := screen(a); !strings.Contains(st, "Blocked by the sandbox") || !strings.Contains(st, "write to /etc/x (outside the writable paths)") || !strings.Contains(st, "run it outside the sandbox?") {
		t.Errorf("the dialog does not say what was blocked:\n%s", st)
	}
}

// TestSwitchingSessionsClearsTheirMarks: the tree marks what the session
// on screen touched, not what the one left behind did.
func TestSwitchingSessionsClearsTheirMarks(t *testing.T) {
	a := newTestApp(t, 120, 30)
	a.tree.Mark("main.go", tree.MarkChanged)
	a.Update(sessionOpenedMsg{history: []agent.Message{
		{Role: agent.RoleUser, Content: "look"},
		{Role: agent.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "x", Touched: []chat.Touch{{Path: "internal/a.go", Kind: chat.TouchRead}}},
	}})
	if own, _ := a.tree.MarkOf("main.go"); own != 0 {
		t.Errorf("main.go keeps the mark %v of the session left behind", own)
	}
	if own, _ := a.tree.MarkOf("internal/a.go"); own != tree.MarkRead {
		t.Errorf("internal/a.go mark %v, want read", own)
	}
}

// What the language servers report after an edit reaches the card, the
// tree and the status line; the fix takes the count to zero and clears
// the tree's mark.
func TestDiagnosticsOnScreen(t *testing.T) {
	a := newTestApp(t, 100, 24)
	edit := func(id string, rep lsp.Report) {
		a.Update(eventsMsg{
			agent.ToolCallDelta{Index: 0, ID: id, Name: "edit_file", ArgsSoFar: `{"path":"main.go"}`},
			agent.AssistantMessage{},
			agent.ToolStarted{ID: id, Name: "edit_file", Summary: "edit_file main.go"},
			agent.Diagnosed{ID: id, Report: rep},
			agent.ToolResult{ID: id, Name: "edit_file", Content: "Edited main.go.\n\n" + rep.Text(0), Touched: []chat.Touch{{Path: "main.go", Kind: chat.TouchChanged}}},
		})
	}
	broken := lsp.Report{Servers: []string{"gopls"}, Files: []string{"main.go"}, Errors: 1, New: 1, Total: 1, Baseline: true,
		Problems: map[string]int{"main.go": 1},
		Items:    []lsp.Item{{Path: "main.go", Line: 3, Column: 2, Severity: lsp.SeverityError, Message: "undefined: x", New: true}}}
	edit("c1", broken)
	treeMark := func(screen string) string {
		for _, l := range strings.Split(screen, "\n") {
			if pane, _, ok := strings.Cut(l, "│"); ok && strings.HasPrefix(strings.TrimSpace(pane), "main.go") {
				return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(pane), "main.go"))
			}
		}
		return ""
	}
	got := screen(a)
	for _, want := range []string{"edit_file  main.go · 1 error", "✗ 1 error"} {
		if !strings.Contains(got, want) {
			t.Errorf("screen lacks %q:\n%s", want, got)
		}
	}
	if m := treeMark(got); m != "✗" {
		t.Errorf("the tree marks main.go %q:\n%s", m, got)
	}
	edit("c2", lsp.Report{Servers: []string{"gopls"}, Files: []string{"main.go"}, Baseline: true, Problems: map[string]int{}})
	got = screen(a)
	for _, want := range []string{"edit_file  main.go · no problems", "· 0 errors ·"} {
		if !strings.Contains(got, want) {
			t.Errorf("after the fix the screen lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "✗ 1 error") || treeMark(got) != "●" {
		t.Errorf("the error is still shown after the fix:\n%s", got)
	}
}
