package transcript

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"pincer/tools/todo"
	"pincer/ui/todolist"
)

// renderTodoCard draws a todo_write call as what it did — "Updated tasks
// 2/5 done" and the item in progress — rather than its JSON; expanded, it
// lists every item. A call refused for its arguments says what was wrong
// in a line; nil leaves the call to the ordinary card (one cancelled, say).
func (s *state) renderTodoCard(it *item, w int) []string {
	st := &s.styles
	t := it.tool
	if t.isError {
		_, why, ok := strings.Cut(t.result, "invalid arguments for "+todo.Name+": ")
		if !ok {
			return nil
		}
		why, _, _ = strings.Cut(why, ". The task list was not changed")
		head := st.ToolName.Render(ansi.Truncate("Task list not updated", w, "…"))
		if it.expanded {
			return s.appendResult([]string{head}, t, true, st.ToolBorder.Render("│")+" ", max(w-2, 1))
		}
		return []string{head, st.ToolBorder.Render("│") + " " + st.Error.Render(ansi.Truncate(sanitizeLine(why), max(w-2, 1), "…"))}
	}
	items, err := todo.Parse(t.args)
	if err != nil {
		// Still streaming, or refused before it ran.
		return []string{st.ToolName.Render(ansi.Truncate("Updating tasks…", w, "…"))}
	}
	title, progress := "Updated tasks", todo.Count(items).String()
	if len(items) == 0 {
		title, progress = "Cleared the task list", ""
	}
	head := st.ToolName.Render(ansi.Truncate(title, w, "…"))
	if room := w - ansi.StringWidth(title) - 2; progress != "" && room > 0 {
		head += "  " + st.ToolArg.Render(ansi.Truncate(progress, room, "…"))
	}
	out := []string{head}
	bar := st.ToolBorder.Render("│") + " "
	inner := max(w-2, 1)
	line := func(i todo.Item) string {
		mark, text := st.Muted, st.Text
		switch i.Status {
		case todo.Completed:
			mark, text = st.OK, st.Muted
		case todo.InProgress:
			mark, text = st.Warning.Bold(true), st.Accent
		}
		return bar + mark.Render(todolist.Mark(i.Status)) + " " + text.Render(ansi.Truncate(sanitizeLine(i.Content), max(inner-2, 1), "…"))
	}
	if it.expanded {
		for _, i := range items {
			out = append(out, line(i))
		}
		return out
	}
	if cur, ok := todo.Current(items); ok {
		out = append(out, line(cur))
	}
	return out
}
