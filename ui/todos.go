package ui

import (
	"pincer/agent"
	"pincer/themes"
	"pincer/tools/todo"
	"pincer/ui/todolist"
)

// setTodos shows a task list, and gives it room.
func (a *App) setTodos(items []todo.Item) {
	a.todos.Set(items)
	a.layout()
}

// todosFrom shows the task list a conversation left (see agent.Todos).
func (a *App) todosFrom(history []agent.Message) { a.setTodos(agent.Todos(history)) }

// todoPaneHeight is how many lines of the side pane the task list takes
// under the tree; 0 when the pane is hidden or too short, and the list
// goes above the input instead.
func (a *App) todoPaneHeight() int {
	if a.treeWidth() == 0 {
		return 0
	}
	return a.todos.PaneHeight(a.treeWidth(), max(a.height-a.inputHeight()-1, 1))
}

// todoBlockHeight is how many lines the task list takes above the input:
// none while it fits in the side pane.
func (a *App) todoBlockHeight() int {
	if a.todos.Empty() || a.todoPaneHeight() > 0 {
		return 0
	}
	return a.todos.BlockHeight(a.height)
}

// todoStyles are the task list's styles from the theme.
func todoStyles(st themes.Styles) todolist.Styles {
	return todolist.Styles{
		Title: st.Accent, Count: st.Muted, Rule: st.Faint,
		Pending: st.Text, Active: st.Accent, Done: st.Muted,
		DoneMark: st.OK.Bold(false), PendMark: st.Muted, ActiveMark: st.Warning.Bold(true),
	}
}
