package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"pincer/agent"
	"pincer/safety"
	"pincer/tools"
)

// statusOf is the status line, without colours.
func statusOf(a *App) string {
	lines := strings.Split(screen(a), "\n")
	return lines[len(lines)-1]
}

// TestShiftTabCyclesTheMode: shift+tab goes ask → accept edits → plan →
// ask, from any pane, and the status line always shows the mode first.
func TestShiftTabCyclesTheMode(t *testing.T) {
	a := newTestApp(t, 100, 30)
	shiftTab := tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	want := []struct {
		mode  agent.Mode
		badge string
	}{{agent.ModeAcceptEdits, " accept edits · idle"}, {agent.ModePlan, "  plan  · idle"}, {agent.ModeAsk, " ask · idle"}}
	for i, w := range want {
		if i == 1 {
			press(a, "tab") // the transcript has the focus: the key still cycles the mode
		}
		a.Update(shiftTab)
		if got := a.agent.Mode(); got != w.mode {
			t.Fatalf("after %d presses the mode is %q, want %q", i+1, got, w.mode)
		}
		if st := statusOf(a); !strings.HasPrefix(st, w.badge) {
			t.Errorf("status line %q does not start with %q", st, w.badge)
		}
	}
	if a.focus != focusTranscript {
		t.Errorf("shift+tab moved the focus (%v)", a.focus)
	}
	// The plan badge survives a narrow screen.
	a.setMode(agent.ModePlan, false)
	a.Update(tea.WindowSizeMsg{Width: 30, Height: 20})
	if st := statusOf(a); !strings.Contains(st, "plan") {
		t.Errorf("a narrow status line drops the mode: %q", st)
	}
}

// TestPlanIsKeptAndSaved: the answer of a turn made in plan mode becomes
// the plan; /plan save writes it to PLAN.md in the project, will not
// replace a file without -f, and writes only inside the project.
func TestPlanIsKeptAndSaved(t *testing.T) {
	a := newTestApp(t, 100, 30)
	run := func(cmd tea.Cmd) string {
		t.Helper()
		if cmd == nil {
			return ""
		}
		msg := cmd()
		a.Update(msg)
		if n, ok := msg.(noticeMsg); ok && n.err != nil {
			return n.err.Error()
		}
		return ""
	}
	if errText := screen(a); strings.Contains(errText, "Saved") {
		t.Fatal("unexpected screen")
	}
	a.savePlan("") // no plan yet
	if !strings.Contains(screen(a), "no plan to save yet") {
		t.Errorf("saving without a plan does not say why:\n%s", screen(a))
	}
	// An answer outside plan mode is no plan.
	a.turnDone(turnDoneMsg{res: agent.Result{Text: "just an answer", StopReason: "answer"}})
	if a.plan != "" {
		t.Fatalf("an answer in ask mode became the plan: %q", a.plan)
	}
	plan := "1. Read main.go.\n2. Rename main."
	a.turnDone(turnDoneMsg{res: agent.Result{Text: plan, StopReason: "answer", Planned: true}})
	if a.plan != plan || !strings.Contains(screen(a), "Plan ready") {
		t.Fatalf("the plan was not kept (%q):\n%s", a.plan, screen(a))
	}
	root := a.opts.Root
	if e := run(a.savePlan("")); e != "" {
		t.Fatal(e)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "PLAN.md")); string(data) != plan+"\n" {
		t.Errorf("PLAN.md = %q", data)
	}
	a.plan = "a newer plan"
	if e := run(a.savePlan("")); !strings.Contains(e, "already exists") || !strings.Contains(e, "/plan save -f PLAN.md") {
		t.Errorf("overwriting without -f: %q", e)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "PLAN.md")); string(data) != plan+"\n" {
		t.Errorf("PLAN.md was replaced without -f: %q", data)
	}
	if e := run(a.savePlan("-f PLAN.md")); e != "" {
		t.Fatal(e)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "PLAN.md")); string(data) != "a newer plan\n" {
		t.Errorf("PLAN.md after -f = %q", data)
	}
	if e := run(a.savePlan("internal/next.md")); e != "" {
		t.Fatal(e)
	}
	if _, err := os.Stat(filepath.Join(root, "internal", "next.md")); err != nil {
		t.Error(err)
	}
	outside := filepath.Join(t.TempDir(), "PLAN.md")
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	// On a file system that ignores case (macOS), .GIT is .git.
	if err := os.Mkdir(filepath.Join(root, ".GIT"), 0o755); err != nil {
		t.Fatal(err)
	}
	a.busy = true
	if cmd := a.savePlan("busy.md"); cmd != nil {
		t.Error("/plan save ran while a turn works")
	}
	a.busy = false
	// Missing folders are made, as /export makes them.
	if e := run(a.savePlan("plans/next/PLAN.md")); e != "" {
		t.Fatal(e)
	}
	if _, err := os.Stat(filepath.Join(root, "plans", "next", "PLAN.md")); err != nil {
		t.Error(err)
	}
	for _, p := range []string{"../PLAN.md", outside, "out/PLAN.md", ".git/PLAN.md", ".GIT/PLAN.md", "main.go/PLAN.md", "sub/.git/PLAN.md", "internal"} {
		before := screen(a)
		if cmd := a.savePlan(p); cmd != nil {
			t.Errorf("/plan save %s was attempted", p)
			run(cmd)
		}
		if screen(a) == before {
			t.Errorf("/plan save %s was refused without a word", p)
		}
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("the plan was written outside the project")
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".pincer-") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}

// TestPlanGoSendsThePlanBack: /plan go leaves plan mode for ask and sends
// the plan as the next prompt.
func TestPlanGoSendsThePlanBack(t *testing.T) {
	a := newTestApp(t, 100, 30)
	a.setMode(agent.ModePlan, false)
	a.planGo("")
	if a.agent.Mode() != agent.ModePlan || !strings.Contains(screen(a), "no plan to carry out") {
		t.Fatalf("/plan go without a plan did something:\n%s", screen(a))
	}
	a.plan = "1. Rename main.\n2. Run go test."
	a.busy = true
	a.runCommand("/plan go")
	if a.agent.Mode() != agent.ModePlan || !strings.Contains(screen(a), "still working") {
		t.Fatalf("/plan go while a turn runs did something:\n%s", screen(a))
	}
	a.busy = false
	if cmd := a.runCommand("/plan go and keep it short"); cmd == nil || !a.busy {
		t.Error("/plan go started no turn")
	}
	if a.agent.Mode() != agent.ModeAsk {
		t.Errorf("mode after /plan go = %q, want ask", a.agent.Mode())
	}
	if got := screen(a); !strings.Contains(got, "/plan go and keep it short") {
		t.Errorf("the transcript does not show what was typed:\n%s", got)
	}
	p := goPrompt(a.plan, "and keep it short")
	if !strings.Contains(p, "<plan>\n1. Rename main.\n2. Run go test.\n</plan>") || !strings.Contains(p, "carry out this plan") || !strings.HasSuffix(p, "and keep it short") {
		t.Errorf("the prompt does not carry the plan back:\n%s", p)
	}
}

// TestAcceptEditsShowsTheDiff: in accept edits an edit is applied without
// a dialog, and its card shows the diff.
func TestAcceptEditsShowsTheDiff(t *testing.T) {
	a := newTestApp(t, 100, 30)
	a.setMode(agent.ModeAcceptEdits, false)
	ch := twoHunks()
	q := question{q: agent.Approval{Kind: agent.ApproveEdit, Step: 1, CallID: "c1", Tool: "edit_file", Change: ch, Tier: safety.Confirm}, reply: make(chan agent.Decision, 1)}
	a.Update(eventsMsg{agent.ToolCallDelta{Index: 0, ID: "c1", Name: "edit_file", ArgsSoFar: `{"path":"f.txt"}`}, q})
	if a.topDialog() != nil {
		t.Fatal("accept edits opened the review dialog")
	}
	if !answer(t, q).Allow {
		t.Fatal("the edit was not allowed")
	}
	res := tools.AppliedResult(ch, ch.After)
	a.Update(eventsMsg{agent.ToolResult{ID: "c1", Name: "edit_file", Content: res.Content}})
	got := screen(a)
	for _, w := range []string{"@@ -2 +2 @@", "-line 2", "+line two, edited"} {
		if !strings.Contains(got, w) {
			t.Errorf("the card's preview lacks %q:\n%s", w, got)
		}
	}
	press(a, "tab")
	typeText(a, "[")
	press(a, "enter") // expand the card
	got = screen(a)
	for _, w := range []string{"Edited f.txt", "-line 11", "+line eleven, edited"} {
		if !strings.Contains(got, w) {
			t.Errorf("the card lacks %q:\n%s", w, got)
		}
	}
}
