package ui

import (
	"fmt"
	"testing"

	"pincer/agent"
	"pincer/tools/todo"
)

// BenchmarkIdleViewWithTodos is BenchmarkIdleView with a 12-item task list
// in the side pane, to compare: the list's drawing is cached, so an idle
// frame should cost about the same.
func BenchmarkIdleViewWithTodos(b *testing.B) {
	a := benchApp(b, 200)
	var items []todo.Item
	for i := range 12 {
		st := todo.Completed
		switch {
		case i == 5:
			st = todo.InProgress
		case i > 5:
			st = todo.Pending
		}
		items = append(items, todo.Item{Content: fmt.Sprintf("Step %d of the plan, with some words", i+1), Status: st})
	}
	a.handleEvents(eventsMsg{agent.TodoList{Items: items}})
	a.render()
	b.ReportAllocs()
	for b.Loop() {
		_ = a.View()
	}
}
