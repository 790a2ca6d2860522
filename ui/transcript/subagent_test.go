package transcript

import (
	"fmt"
	"strings"
	"testing"

	"pincer/chat"
)

// TestTaskCardNestsTheSubAgentsSteps: a task card says "task ·
// description", shows the sub-agent's calls one line each while it works
// (the latest ones, the rest counted), collapses to one line when done,
// and expands with the transcript's toggle key to every step and the
// whole report.
func TestTaskCardNestsTheSubAgentsSteps(t *testing.T) {
	m := newTestModel(80, 40)
	m.AddUser("Find the loader.")
	m.ToolCallDelta(0, "pincer-call-1", "task", `{"description":"find the loa`)
	if i := indexOf(viewLines(m), "task · find the loa"); i < 0 {
		t.Fatalf("the streaming task card does not show its description:\n%s", strings.Join(viewLines(m), "\n"))
	}
	m.ToolCall("pincer-call-1", "task", `{"description":"find the loader","prompt":"Find it."}`)
	m.FinishAssistant(false)
	m.ToolStarted("pincer-call-1", "task find the loader")
	if indexOf(viewLines(m), "working…") < 0 {
		t.Error("a task without steps yet does not say it works")
	}
	// The sub-agent's own keys repeat the main agent's: they stay apart.
	m.SubCall("pincer-call-1", "pincer-call-1", "grep", `{"pattern":"func Load\u001b[2J"}`)
	lines := viewLines(m)
	if i := indexOf(lines, "○ grep func Load␛[2J"); i < 0 {
		t.Errorf("the pending step is not shown, sanitised:\n%s", strings.Join(lines, "\n"))
	}
	m.SubStarted("pincer-call-1", "pincer-call-1", "grep func Load (in .)")
	if indexOf(viewLines(m), "◐ grep func Load (in .)") < 0 {
		t.Errorf("the running step lacks its summary:\n%s", strings.Join(viewLines(m), "\n"))
	}
	m.SubResult("pincer-call-1", "pincer-call-1", false)
	for i := 2; i <= 12; i++ {
		key := fmt.Sprintf("pincer-call-%d", i)
		m.SubCall("pincer-call-1", key, "read_file", fmt.Sprintf(`{"path":"f%d.go"}`, i))
		m.SubStarted("pincer-call-1", key, fmt.Sprintf("read_file f%d.go", i))
		m.SubResult("pincer-call-1", key, i == 12)
	}
	lines = viewLines(m)
	if indexOf(lines, "… 4 earlier steps") < 0 || indexOf(lines, "✗ read_file f12.go") < 0 || indexOf(lines, "f4.go") >= 0 || indexOf(lines, "f5.go") < 0 {
		t.Errorf("a long run shows its latest steps and counts the rest:\n%s", strings.Join(lines, "\n"))
	}
	if got := len(lines); indexOf(lines, "task · find the loader") < 0 {
		t.Fatalf("no header in %d lines:\n%s", got, strings.Join(lines, "\n"))
	}
	if indexOf(viewLines(m), "grep func Load") >= 0 {
		t.Error("a step that scrolled out of the live view is still shown")
	}

	report := "The loader is config/load.go:42.\nIt reads three layers.\nDetails follow."
	m.ToolResult("pincer-call-1", "task", "", report, false)
	lines = viewLines(m)
	if indexOf(lines, "12 steps · The loader is config/load.go:42. …") < 0 || indexOf(lines, "read_file f5.go") >= 0 || indexOf(lines, "Details follow.") >= 0 {
		t.Errorf("the finished task is not one summary line:\n%s", strings.Join(lines, "\n"))
	}
	m = press(m, "ctrl+up")
	m = press(m, "enter")
	lines = viewLines(m)
	for _, want := range []string{"✓ grep func Load (in .)", "✓ read_file f2.go", "✗ read_file f12.go", "│ Details follow."} {
		if indexOf(lines, want) < 0 {
			t.Errorf("the expanded task lacks %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	if got, ok := m.FocusedText(); !ok || got != report {
		t.Errorf("FocusedText = %q, want the report", got)
	}
}

// TestTaskCardFromAResumedSession: stored steps come back on the card.
func TestTaskCardFromAResumedSession(t *testing.T) {
	m := newTestModel(80, 20)
	m.Load(
		Entry{Kind: KindTool, ToolID: "call_1", ToolName: "task", ToolArgs: `{"description":"survey","prompt":"p"}`},
		Entry{Kind: KindToolResult, ToolID: "call_1", ToolName: "task", Text: "Report.", Steps: []chat.Step{
			{Tool: "tree_view", Summary: "tree_view ."}, {Tool: "run_command", Args: `{"command":"rm -rf x"}`, IsError: true},
		}},
	)
	lines := viewLines(m)
	if indexOf(lines, "task · survey") < 0 || indexOf(lines, "2 steps · Report.") < 0 {
		t.Fatalf("resumed task card:\n%s", strings.Join(lines, "\n"))
	}
	m = press(m, "ctrl+up")
	m = press(m, "enter")
	lines = viewLines(m)
	if indexOf(lines, "✓ tree_view .") < 0 || indexOf(lines, "✗ run_command rm -rf x") < 0 {
		t.Errorf("the resumed steps are not shown:\n%s", strings.Join(lines, "\n"))
	}
}

// TestTaskCardNamesItsAgent: a task card loaded from the session names the
// agent the model chose, as the live card did; a name still streaming is
// not shown half.
func TestTaskCardNamesItsAgent(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{`{"description":"find go files","prompt":"p","agent":"finder"}`, "find go files (finder)"},
		{`{"description":"find go files","prompt":"p"}`, "find go files"},
		{`{"description":"find go files","agent":"fin`, "find go files"},
		{`{"agent":"finder"}`, ""},
	} {
		if got := cardArgument(&toolState{name: taskTool, args: tc.args}); got != tc.want {
			t.Errorf("cardArgument(%s) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
