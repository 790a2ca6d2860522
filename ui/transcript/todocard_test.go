package transcript

import (
	"strings"
	"testing"
)

// TestTodoCard: a todo_write call shows as what it did, not as JSON, live
// and when a session is loaded; expanded it lists every item; a refused
// call keeps the ordinary card with the reason.
func TestTodoCard(t *testing.T) {
	args := `{"todos":[{"content":"Read the code","status":"completed"},{"content":"Write the fix","status":"in_progress"},{"content":"Run the tests","status":"pending"}]}`
	m := newTestModel(70, 20)
	m.ToolCallDelta(0, "c1", "todo_write", args[:40])
	if lines := viewLines(m); indexOf(lines, "Updating tasks…") < 0 {
		t.Errorf("a streaming call does not say it updates the tasks:\n%s", strings.Join(lines, "\n"))
	}
	m.ToolCallDelta(0, "c1", "todo_write", args)
	m.FinishAssistant(false)
	m.ToolStarted("c1", "todo_write 1/3 done")
	m.ToolResult("c1", "todo_write", "", "Task list saved: 3 items (1 completed, 1 in progress, 1 pending). Update it as you go.", false)
	check := func(when string, m Model) {
		t.Helper()
		lines := viewLines(m)
		text := strings.Join(lines, "\n")
		if indexOf(lines, "Updated tasks  1/3 done") < 0 || indexOf(lines, "│ ◐ Write the fix") < 0 {
			t.Errorf("%s: the card lacks its summary or the item in progress:\n%s", when, text)
		}
		for _, never := range []string{`"todos"`, "Run the tests", "Task list saved"} {
			if strings.Contains(text, never) {
				t.Errorf("%s: the collapsed card shows %q:\n%s", when, never, text)
			}
		}
	}
	check("live", m)
	m = press(m, "ctrl+up")
	m = press(m, "enter")
	lines := viewLines(m)
	for _, want := range []string{"│ ☑ Read the code", "│ ◐ Write the fix", "│ ☐ Run the tests"} {
		if indexOf(lines, want) < 0 {
			t.Errorf("the expanded card lacks %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}

	loaded := newTestModel(70, 20)
	loaded.Load(
		Entry{Kind: KindTool, ToolID: "c1", ToolName: "todo_write", ToolArgs: args},
		Entry{Kind: KindToolResult, ToolID: "c1", ToolName: "todo_write", Text: "Task list saved"},
	)
	check("loaded", loaded)

	bad := newTestModel(70, 20)
	bad.ToolCallDelta(0, "c2", "todo_write", `{"todos":[{"content":"x","status":"blocked"}]}`)
	bad.FinishAssistant(false)
	bad.ToolResult("c2", "todo_write", "", `The arguments for todo_write were not valid, so it was not run: invalid arguments for todo_write: item 1 has the status "blocked"; use "pending", "in_progress" or "completed". The task list was not changed. A valid call looks like: {}`, true)
	lines = viewLines(bad)
	if indexOf(lines, "Task list not updated") < 0 || indexOf(lines, `│ item 1 has the status "blocked"; use "pending"`) < 0 {
		t.Errorf("a refused call does not say why in a line:\n%s", strings.Join(lines, "\n"))
	}
	cancelled := newTestModel(70, 20)
	cancelled.ToolCallDelta(0, "c3", "todo_write", `{"todos":[]}`)
	cancelled.ToolResult("c3", "todo_write", "", "Cancelled by the user.", true)
	if lines := viewLines(cancelled); indexOf(lines, "│ Cancelled by the user.") < 0 {
		t.Errorf("a cancelled call does not show its result:\n%s", strings.Join(lines, "\n"))
	}
}
