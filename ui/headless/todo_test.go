package headless

import (
	"bytes"
	"strings"
	"testing"

	"pincer/agent"
	"pincer/tools/todo"
)

func TestTodoEvent(t *testing.T) {
	items := []todo.Item{
		{ID: "1", Content: "Read the code", Status: todo.Completed},
		{Content: "Fix \x1b[31mit", Status: todo.InProgress},
		{Content: "Test", Status: todo.Pending},
	}
	t.Run("json", func(t *testing.T) {
		var out bytes.Buffer
		p := NewPrinter(&out, &bytes.Buffer{}, true)
		p.Event(agent.TodoList{Items: items})
		p.Event(agent.TodoList{})
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		want := []string{
			`{"type":"todo","items":[{"id":"1","content":"Read the code","status":"completed"},{"content":"Fix \u001b[31mit","status":"in_progress"},{"content":"Test","status":"pending"}],"completed":1,"total":3}`,
			`{"type":"todo","items":[],"completed":0,"total":0}`,
		}
		if len(lines) != len(want) {
			t.Fatalf("lines %q, want %q", lines, want)
		}
		for i := range want {
			if lines[i] != want[i] {
				t.Errorf("line %d\n got %s\nwant %s", i, lines[i], want[i])
			}
		}
	})
	t.Run("text", func(t *testing.T) {
		var out, errOut bytes.Buffer
		p := NewPrinter(&out, &errOut, false)
		p.Event(agent.TodoList{Items: items})
		p.Event(agent.TodoList{})
		want := "tasks: 1/3 done\n  [x] Read the code\n  [>] Fix ␛[31mit\n  [ ] Test\ntasks: cleared\n"
		if got := errOut.String(); got != want {
			t.Errorf("stderr\n%q\nwant\n%q", got, want)
		}
		if out.Len() != 0 {
			t.Errorf("stdout %q, want nothing: the list is activity", out.String())
		}
	})
}
