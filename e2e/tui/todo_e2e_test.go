package tui

import (
	"pincer/e2e/e2etest"
	"slices"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

const (
	e2eListA = `{"todos":[{"content":"Read the code","status":"in_progress"},{"content":"Write the fix","status":"pending"}]}`
	e2eListB = `{"todos":[{"content":"Read the code","status":"done"},{"content":"Write the fix","status":"in_progress"}]}`
)

// TestTodoWriteHeadless: with the real binary, a todo_write call becomes a
// todo event with the items; a malformed call gives the model a clear
// error and no event; `sessions show` prints the list in force, which a
// later call replaces and a rewind brings back.
func TestTodoWriteHeadless(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("Planning.", agenttest.Call{ID: "t1", Name: "todo_write", Arguments: e2eListA}),
		agenttest.Tools("", agenttest.Call{ID: "t2", Name: "todo_write", Arguments: `{"todos":[{"content":"Read the code","status":"blocked"}]}`}),
		agenttest.Text("Planned.", 4),
		agenttest.Tools("", agenttest.Call{ID: "t3", Name: "todo_write", Arguments: e2eListB}),
		agenttest.Text("Read it.", 4),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())

	r := s.Run("", "run", "--json", "-s", "todo", "plan the fix")
	if r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	lines := e2etest.JSONLines(t, r.Stdout)
	todos := e2etest.OfType(lines, "todo")
	if len(todos) != 1 {
		t.Fatalf("%d todo events, want 1 (the malformed call changes nothing):\n%s", len(todos), r.Stdout)
	}
	items, _ := todos[0]["items"].([]any)
	if len(items) != 2 || todos[0]["completed"] != 0.0 || todos[0]["total"] != 2.0 {
		t.Fatalf("todo event %v", todos[0])
	}
	first := items[0].(map[string]any)
	if first["content"] != "Read the code" || first["status"] != "in_progress" {
		t.Errorf("first item %v", first)
	}
	results := e2etest.OfType(lines, "tool_result")
	if len(results) != 2 || results[0]["is_error"] != false || results[1]["is_error"] != true {
		t.Fatalf("tool results %v", results)
	}
	if c, _ := results[1]["content"].(string); !strings.Contains(c, `item 1 has the status "blocked"`) || !strings.Contains(c, "The task list was not changed") {
		t.Errorf("the model is not told what was wrong: %q", c)
	}
	reqs := srv.Requests()
	for i, req := range reqs {
		if req.Strict != nil {
			t.Errorf("request %d: %v", i, req.Strict)
		}
	}
	if !slices.Contains(e2etest.ToolNames(reqs[0]), "todo_write") {
		t.Error("the first request does not offer todo_write")
	}

	show := func(when string, want ...string) {
		t.Helper()
		r := s.Run("", "sessions", "show", "todo")
		if r.Code != 0 {
			t.Fatalf("sessions show %s: exit %d\n%s", when, r.Code, r.Stderr)
		}
		_, list, ok := strings.Cut(r.Stdout, "## Task list")
		if !ok {
			t.Fatalf("sessions show %s prints no task list:\n%s", when, r.Stdout)
		}
		for _, w := range want {
			if !strings.Contains(list, w) {
				t.Errorf("sessions show %s: the list lacks %q:\n%s", when, w, list)
			}
		}
	}
	show("after the first run", "0/2 done", "- [ ] **Read the code** (in progress)", "- [ ] Write the fix")

	if r := s.Run("", "run", "-s", "todo", "go on"); r.Code != 0 {
		t.Fatalf("second run: exit %d\n%s", r.Code, r.Stderr)
	} else if !strings.Contains(r.Stderr, "tasks: 1/2 done") || !strings.Contains(r.Stderr, "[x] Read the code") {
		t.Errorf("pincer run does not print the list on stderr:\n%s", r.Stderr)
	}
	show("after the second run", "1/2 done", "- [x] Read the code", "- [ ] **Write the fix** (in progress)")

	if r := s.Run("", "sessions", "rewind", "todo"); r.Code != 0 {
		t.Fatalf("rewind: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	show("after the rewind", "0/2 done", "- [ ] **Read the code** (in progress)")
}

// TestTodoWriteOnScreen: with the real binary in tmux, a todo_write call
// shows its card and the list under the tree with its marks; a malformed
// call says what was wrong and leaves the list; a resumed session on a
// narrow screen shows the list above the input.
func TestTodoWriteOnScreen(t *testing.T) {
	srv := agenttest.New(
		agenttest.Tools("Planning.", agenttest.Call{ID: "t1", Name: "todo_write", Arguments: e2eListA}),
		agenttest.Text("Planned.", 4),
		agenttest.Tools("", agenttest.Call{ID: "t2", Name: "todo_write", Arguments: `{"todos":[{"content":"Read the code","status":"later"}]}`}),
		agenttest.Text("Still on it.", 4),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("main.go", "package main\n")
	ts := e2etest.NewTmuxScreen(t, s, 110, 30, "-s", "todos")
	ts.WaitFor("the screen to open", "Ask pincer", "main.go")

	ts.Keys("plan the fix", "Enter")
	screen := ts.WaitFor("the list and the card", "Updated tasks  0/2 done", "Tasks 0/2 done", "◐ Read the code", "☐ Write the fix", "Planned.", "idle")
	// The list is in the side pane: its lines start at the left edge,
	// under the tree.
	if !strings.Contains(screen, "\n◐ Read the code") || strings.Index(screen, "main.go") > strings.Index(screen, "\nTasks 0/2 done") {
		t.Errorf("the list is not under the tree in the side pane:\n%s", screen)
	}
	if strings.Contains(screen, `"todos"`) {
		t.Errorf("the card shows the raw JSON:\n%s", screen)
	}

	ts.Keys("go on", "Enter")
	screen = ts.WaitFor("the refused call", "Task list not updated", `item 1 has the status "later"`, "Still on it.", "idle")
	if !strings.Contains(screen, "Tasks 0/2 done") || !strings.Contains(screen, "◐ Read the code") {
		t.Errorf("a refused call changed the list on screen:\n%s", screen)
	}
	ts.Keys("C-c")
	ts.Keys("C-c")
	ts.WaitFor("pincer to exit", "[pincer exited]")

	narrow := e2etest.NewTmuxScreen(t, s, 80, 24, "-s", "todos")
	screen = narrow.WaitFor("the resumed list", "Resumed session todos", " Tasks 0/2 done", " ◐ Read the code", " ☐ Write the fix")
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "›") && (i < 2 || !strings.Contains(lines[i-1], "☐ Write the fix")) {
			t.Errorf("the list is not right above the input on a narrow screen:\n%s", screen)
		}
	}
	for i, r := range srv.Requests() {
		if r.Strict != nil {
			t.Errorf("request %d: %v", i, r.Strict)
		}
	}
}
