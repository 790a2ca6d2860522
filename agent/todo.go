package agent

import (
	"strings"

	"pincer/tools/todo"
)

// Todos returns the task list a conversation left: the list of its last
// todo_write call that succeeded, or nil when it has none. The list has
// no storage of its own, so a resumed session, a rewound one (whose
// history no longer holds the later calls) and `pincer sessions show` all
// get it from the history.
func Todos(history []Message) []todo.Item {
	items, _ := lastTodos(history)
	return items
}

// lastTodos is Todos and the index in history of the assistant message
// that made the call (-1 when none did).
func lastTodos(history []Message) ([]todo.Item, int) {
	ok := map[string]bool{}
	for _, m := range history {
		if m.Role == RoleTool && m.ToolName == todo.Name && !m.IsError {
			ok[m.ToolCallID] = true
		}
	}
	if len(ok) == 0 {
		return nil, -1
	}
	for i := len(history) - 1; i >= 0; i-- {
		calls := history[i].ToolCalls
		for j := len(calls) - 1; j >= 0; j-- {
			c := calls[j]
			if c.Name != todo.Name || !ok[c.ID] {
				continue
			}
			if items, err := todo.Parse(c.Arguments); err == nil {
				return items, i
			}
		}
	}
	return nil, -1
}

// reportTodos tells the front ends the list a successful todo_write call
// set.
func reportTodos(call ToolCall, isError bool, sink func(Event)) {
	if call.Name != todo.Name || isError {
		return
	}
	if items, err := todo.Parse(call.Arguments); err == nil {
		sink(TodoList{Items: items})
	}
}

// todoNote restates the task list for the model when the call that set it
// was compressed into the summary, so the model keeps working from its
// list; "" when the call is still among the messages sent, or there is
// no list.
func (a *Agent) todoNote() string {
	if a.summary.text == "" {
		return ""
	}
	items, at := lastTodos(a.history)
	if at < 0 || at >= a.summaryStart() || len(items) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Your task list (set with todo_write before the summary above) stands at " + todo.Count(items).String() + ":\n")
	for _, it := range items {
		b.WriteString("- [" + string(it.Status) + "] " + it.Content + "\n")
	}
	b.WriteString("Keep it up to date with todo_write.")
	return b.String()
}
