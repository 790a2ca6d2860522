package cli

import (
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
	s := newSandbox(t, srv.BaseURL())

	r := s.run("", "run", "--json", "-s", "todo", "plan the fix")
	if r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	lines := jsonLines(t, r.stdout)
	todos := ofType(lines, "todo")
	if len(todos) != 1 {
		t.Fatalf("%d todo events, want 1 (the malformed call changes nothing):\n%s", len(todos), r.stdout)
	}
	items, _ := todos[0]["items"].([]any)
	if len(items) != 2 || todos[0]["completed"] != 0.0 || todos[0]["total"] != 2.0 {
		t.Fatalf("todo event %v", todos[0])
	}
	first := items[0].(map[string]any)
	if first["content"] != "Read the code" || first["status"] != "in_progress" {
		t.Errorf("first item %v", first)
	}
	results := ofType(lines, "tool_result")
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
	if !strings.Contains(string(reqs[0].Raw), `"name":"todo_write"`) {
		t.Error("the first request does not offer todo_write")
	}

	show := func(when string, want ...string) {
		t.Helper()
		r := s.run("", "sessions", "show", "todo")
		if r.code != 0 {
			t.Fatalf("sessions show %s: exit %d\n%s", when, r.code, r.stderr)
		}
		_, list, ok := strings.Cut(r.stdout, "## Task list")
		if !ok {
			t.Fatalf("sessions show %s prints no task list:\n%s", when, r.stdout)
		}
		for _, w := range want {
			if !strings.Contains(list, w) {
				t.Errorf("sessions show %s: the list lacks %q:\n%s", when, w, list)
			}
		}
	}
	show("after the first run", "0/2 done", "- [ ] **Read the code** (in progress)", "- [ ] Write the fix")

	if r := s.run("", "run", "-s", "todo", "go on"); r.code != 0 {
		t.Fatalf("second run: exit %d\n%s", r.code, r.stderr)
	} else if !strings.Contains(r.stderr, "tasks: 1/2 done") || !strings.Contains(r.stderr, "[x] Read the code") {
		t.Errorf("pincer run does not print the list on stderr:\n%s", r.stderr)
	}
	show("after the second run", "1/2 done", "- [x] Read the code", "- [ ] **Write the fix** (in progress)")

	if r := s.run("", "sessions", "rewind", "todo"); r.code != 0 {
		t.Fatalf("rewind: exit %d\n%s%s", r.code, r.stdout, r.stderr)
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
	s := newSandbox(t, srv.BaseURL())
	s.write("main.go", "package main\n")
	ts := newTmuxScreen(t, s, 110, 30, "-s", "todos")
	ts.waitFor("the screen to open", "Ask pincer", "main.go")

	ts.keys("plan the fix", "Enter")
	screen := ts.waitFor("the list and the card", "Updated tasks  0/2 done", "Tasks 0/2 done", "◐ Read the code", "☐ Write the fix", "Planned.", "idle")
	// The list is in the side pane: its lines start at the left edge,
	// under the tree.
	if !strings.Contains(screen, "\n◐ Read the code") || strings.Index(screen, "main.go") > strings.Index(screen, "\nTasks 0/2 done") {
		t.Errorf("the list is not under the tree in the side pane:\n%s", screen)
	}
	if strings.Contains(screen, `"todos"`) {
		t.Errorf("the card shows the raw JSON:\n%s", screen)
	}

	ts.keys("go on", "Enter")
	screen = ts.waitFor("the refused call", "Task list not updated", `item 1 has the status "later"`, "Still on it.", "idle")
	if !strings.Contains(screen, "Tasks 0/2 done") || !strings.Contains(screen, "◐ Read the code") {
		t.Errorf("a refused call changed the list on screen:\n%s", screen)
	}
	ts.keys("C-c")
	ts.keys("C-c")
	ts.waitFor("pincer to exit", "[pincer exited]")

	narrow := newTmuxScreen(t, s, 80, 24, "-s", "todos")
	screen = narrow.waitFor("the resumed list", "Resumed session todos", " Tasks 0/2 done", " ◐ Read the code", " ☐ Write the fix")
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
