package agent

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/safety"
	"pincer/tools"
	"pincer/tools/todo"
)

// newTodoHarness is newHarness with the todo_write tool registered too, as
// main wires it.
func newTodoHarness(t *testing.T, replies ...agenttest.Reply) *harness {
	t.Helper()
	h := newHarness(t, 30, replies...)
	reg, err := tools.NewRegistry(append(tools.Builtins(tools.Options{Root: h.root, CommandTimeout: 10 * time.Second}), todo.Tool())...)
	if err != nil {
		t.Fatal(err)
	}
	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	h.agent.opts.Tools, h.agent.classifier = reg, cls
	return h
}

func todoCall(id, args string) agenttest.Call {
	return agenttest.Call{ID: id, Name: todo.Name, Arguments: args}
}

const (
	listA = `{"todos":[{"content":"Read the code","status":"in_progress"},{"content":"Write the fix","status":"pending"}]}`
	listB = `{"todos":[{"content":"Read the code","status":"completed"},{"content":"Write the fix","status":"in_progress"}]}`
)

// TestTodoWriteReportsTheList: a good call runs unasked, tells the model
// it was saved and reports the list; a malformed one gives the model a
// clear error, reports nothing, and the list in force stays the earlier.
func TestTodoWriteReportsTheList(t *testing.T) {
	h := newTodoHarness(t,
		agenttest.Tools("", todoCall("c1", listA)),
		agenttest.Tools("", todoCall("c2", `{"todos":[{"content":"","status":"pending"}]}`)),
		agenttest.Tools("", todoCall("c3", `{"todos":[{"content":"x","status":"blocked"}]}`)),
		agenttest.Text("done", 4),
	)
	if _, err := h.run("fix the bug"); err != nil {
		t.Fatal(err)
	}
	if len(h.asked) != 0 {
		t.Errorf("todo_write asked for approval: %+v", h.asked)
	}
	var lists []TodoList
	for _, ev := range h.events {
		if l, ok := ev.(TodoList); ok {
			lists = append(lists, l)
		}
	}
	want := []todo.Item{{Content: "Read the code", Status: todo.InProgress}, {Content: "Write the fix", Status: todo.Pending}}
	if len(lists) != 1 || !reflect.DeepEqual(lists[0].Items, want) {
		t.Fatalf("TodoList events %+v, want one with %+v", lists, want)
	}
	results := h.toolMessages(3)
	if len(results) != 3 {
		t.Fatalf("%d tool results in the last request, want 3", len(results))
	}
	if c := results[0]["content"].(string); !strings.HasPrefix(c, "Task list saved: 2 items") {
		t.Errorf("first result %q", c)
	}
	for i, want := range []string{`item 1 has no "content"`, `item 1 has the status "blocked"`} {
		c := results[i+1]["content"].(string)
		if !strings.Contains(c, want) || !strings.Contains(c, "The task list was not changed") {
			t.Errorf("result %d %q does not say %q", i+2, c, want)
		}
	}
	for i, r := range h.srv.Requests() {
		if r.Strict != nil {
			t.Errorf("request %d: %v", i, r.Strict)
		}
	}
	if got := Todos(h.agent.History()); !reflect.DeepEqual(got, want) {
		t.Errorf("Todos after the bad calls = %+v, want the first list %+v", got, want)
	}
}

func TestTodosFromHistory(t *testing.T) {
	call := func(id, args string) Message {
		return Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: id, Name: todo.Name, Arguments: args}}}
	}
	result := func(id string, isError bool) Message {
		return Message{Role: RoleTool, ToolCallID: id, ToolName: todo.Name, IsError: isError, Content: "x"}
	}
	a, _ := todo.Parse(listA)
	b, _ := todo.Parse(listB)
	tests := []struct {
		name    string
		history []Message
		want    []todo.Item
	}{
		{"none", []Message{{Role: RoleUser, Content: "hi"}}, nil},
		{"the last successful call wins", []Message{call("1", listA), result("1", false), call("2", listB), result("2", false)}, b},
		{"a refused call leaves the earlier list", []Message{call("1", listA), result("1", false), call("2", listB), result("2", true)}, a},
		{"a call without a result does not count", []Message{call("1", listA), result("1", false), call("2", listB)}, a},
		{"a rewound history brings back the earlier list", []Message{call("1", listA), result("1", false), {Role: RoleUser, Content: "next"}}, a},
		{"cleared", []Message{call("1", listA), result("1", false), call("2", `{"todos":[]}`), result("2", false)}, []todo.Item{}},
		{"two calls in one message: the later", []Message{
			{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "1", Name: todo.Name, Arguments: listA}, {ID: "2", Name: todo.Name, Arguments: listB}}},
			result("1", false), result("2", false)}, b},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Todos(tt.history); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Todos = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestTodoListOutlivesCompression: once the call that set the list is
// summarised away, each request restates the list for the model.
func TestTodoListOutlivesCompression(t *testing.T) {
	h := newTodoHarness(t, agenttest.Text("ok", 4), agenttest.Text("ok", 4))
	hist := []Message{
		{Seq: 1, Role: RoleUser, Content: "plan it"},
		{Seq: 2, Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "t1", Name: todo.Name, Arguments: listB}}},
		{Seq: 3, Role: RoleTool, ToolCallID: "t1", ToolName: todo.Name, Content: "Task list saved"},
		{Seq: 4, Role: RoleAssistant, Content: "working"},
	}
	h.agent.Restore(hist, "", 0)
	if _, err := h.agent.Run(context.Background(), "go on", nil); err != nil {
		t.Fatal(err)
	}
	if raw := string(h.srv.Requests()[0].Raw); strings.Contains(raw, "Your task list") {
		t.Error("the list is restated although its call is still sent")
	}
	h.agent.Restore(hist, "We planned the fix.", 4)
	if _, err := h.agent.Run(context.Background(), "go on", nil); err != nil {
		t.Fatal(err)
	}
	raw := string(h.srv.Requests()[1].Raw)
	for _, want := range []string{"Your task list", "1/2 done", "[in_progress] Write the fix"} {
		if !strings.Contains(raw, want) {
			t.Errorf("the request after compression does not carry %q", want)
		}
	}
	if err := h.srv.Requests()[1].Strict; err != nil {
		t.Error(err)
	}
}
