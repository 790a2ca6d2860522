package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"pincer/agent"
	"pincer/tools/todo"
)

var testTodos = []todo.Item{
	{Content: "Read the code", Status: todo.Completed},
	{Content: "Write the fix", Status: todo.InProgress},
	{Content: "Run the tests", Status: todo.Pending},
}

// TestTodoListOnScreen: the list goes under the tree in the side pane; with
// the pane hidden, or on a narrow screen, above the input; the screen
// keeps its size either way; an empty list takes no room.
func TestTodoListOnScreen(t *testing.T) {
	a := newTestApp(t, 120, 30)
	bodyBefore := a.bodyHeight()
	a.handleEvents(eventsMsg{agent.TodoList{Items: testTodos}})
	s := screen(a)
	lines := strings.Split(s, "\n")
	title := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "Tasks 1/3 done") {
			title = i
		}
	}
	if title < 0 {
		t.Fatalf("no task list at the left of the side pane:\n%s", s)
	}
	for i, want := range []string{"☑ Read the code", "◐ Write the fix", "☐ Run the tests"} {
		if l := lines[title+1+i]; !strings.HasPrefix(l, want) {
			t.Errorf("side pane line %q, want it to start %q", l, want)
		}
	}
	if !strings.Contains(s, "internal/") {
		t.Error("the tree is gone")
	}
	if a.bodyHeight() != bodyBefore {
		t.Error("the list in the side pane shortened the transcript")
	}
	checkShape(t, a)

	press(a, "ctrl+t") // hide the pane: the list moves above the input
	s = screen(a)
	lines = strings.Split(s, "\n")
	in := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "›") {
			in = i
		}
	}
	if in < 4 || !strings.Contains(lines[in-4], "Tasks 1/3 done") || !strings.Contains(lines[in-2], "◐ Write the fix") {
		t.Errorf("the list is not above the input with the pane hidden:\n%s", s)
	}
	if a.bodyHeight() >= bodyBefore {
		t.Error("the transcript did not make room for the list")
	}
	checkShape(t, a)

	press(a, "ctrl+t")
	a.Update(tea.WindowSizeMsg{Width: 70, Height: 24})
	if s := screen(a); !strings.Contains(s, " Tasks 1/3 done") || !strings.Contains(s, "◐ Write the fix") {
		t.Errorf("the list is not shown on a narrow screen:\n%s", s)
	}
	checkShape(t, a)

	a.handleEvents(eventsMsg{agent.TodoList{}})
	if s := screen(a); strings.Contains(s, "Tasks") {
		t.Errorf("a cleared list is still shown:\n%s", s)
	}
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if a.bodyHeight() != bodyBefore {
		t.Error("a cleared list still takes room")
	}
}

// TestTodoListFromHistory: a resumed session shows the list its last
// todo_write call left.
func TestTodoListFromHistory(t *testing.T) {
	args := `{"todos":[{"content":"Read the code","status":"done"},{"content":"Write the fix","status":"in_progress"}]}`
	history := []agent.Message{
		{Role: agent.RoleUser, Content: "fix it"},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "c1", Name: todo.Name, Arguments: args}}},
		{Role: agent.RoleTool, ToolCallID: "c1", ToolName: todo.Name, Content: "Task list saved"},
	}
	a := newTestApp(t, 120, 30)
	a.sessionOpened(sessionOpenedMsg{history: history})
	if s := screen(a); !strings.Contains(s, "Tasks 1/2 done") || !strings.Contains(s, "Updated tasks  1/2 done") {
		t.Errorf("the resumed session does not show its list and card:\n%s", s)
	}
	a.sessionOpened(sessionOpenedMsg{})
	if s := screen(a); strings.Contains(s, "Tasks") {
		t.Errorf("a session without a list shows the one before:\n%s", s)
	}
}
