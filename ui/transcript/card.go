package transcript

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/internal/human"
	"pincer/tools/todo"
)

// previewLines is how many lines of a tool's result a collapsed card shows.
const previewLines = 4

// commandPreviewLines is how many lines of a multi-line command a collapsed
// card shows under its header before it folds the rest into a count.
const commandPreviewLines = 6

// renderCard draws a tool card: the tool's name and key argument, then, once
// it ran, a preview of the result (the whole result when expanded).
func (s *state) renderCard(it *item, w int) []string {
	st := &s.styles
	t := it.tool
	if t.name == todo.Name {
		if lines := s.renderTodoCard(it, w); lines != nil {
			return lines
		}
	}
	head := cardHeader(t, w-diagWidth(t), st.ToolName, st.ToolArg, st.Muted)
	if t.diag != "" {
		style := st.Muted
		if t.diagBad {
			style = st.Error
		}
		head += style.Render(" · " + t.diag)
	}
	out := []string{head}
	bar := st.ToolBorder.Render("│") + " "
	inner := max(w-2, 1)
	if t.sub != nil || t.name == taskTool {
		return s.renderTaskCard(it, out, bar, inner)
	}
	out = s.appendCommandLines(out, t, it.expanded, bar, inner)
	switch {
	case t.done:
		out = s.appendResult(out, t, it.expanded, bar, inner)
	case t.running:
		out = append(out, bar+st.Muted.Render("running…"))
	}
	return out
}

// diagWidth is the room the language servers' count takes at the end of
// the header: " · 2 errors".
func diagWidth(t *toolState) int {
	if t.diag == "" {
		return 0
	}
	return ansi.StringWidth(t.diag) + 3
}

// cardHeader is the first line of a card: "name  key-argument".
func cardHeader(t *toolState, w int, nameStyle, argStyle, muted lipgloss.Style) string {
	name := t.name
	if name == "" {
		name = "tool"
	}
	name = ansi.Truncate(sanitizeLine(name), w, "…")
	arg := cardArgument(t)
	head := nameStyle.Render(name)
	sep := "  "
	if t.name == taskTool {
		sep = " · " // task · what the sub-agent does
	}
	room := w - ansi.StringWidth(name) - ansi.StringWidth(sep)
	if arg != "" && room > 0 {
		head += sep + argStyle.Render(ansi.Truncate(arg, room, "…"))
	} else if arg == "" && !t.done && !t.running && room > 0 {
		head += "  " + muted.Render("…")
	}
	return head
}

// cardArgument is what the header shows after the tool's name: the
// agent's summary once the call runs, else the key argument as far as it
// has streamed (for a task, its description and agent). Only its first line is shown.
func cardArgument(t *toolState) string {
	arg := ""
	if t.summary != "" {
		arg = strings.TrimPrefix(t.summary, t.name+" ")
	} else if t.name == taskTool {
		// As the agent's summary says it, so a card loaded from the
		// session names its agent as the live one did.
		arg = stringField(t.args, "description")
		for _, f := range partialStringFields(t.args) {
			if f.key == "agent" && f.complete && f.value != "" && arg != "" {
				arg += " (" + f.value + ")"
			}
		}
	} else if _, v, ok := keyArgument(t.args); ok {
		arg = v
	}
	arg = sanitize(arg)
	if i := strings.IndexByte(arg, '\n'); i >= 0 {
		arg = strings.TrimRight(arg[:i], " ") + " …"
	}
	return strings.TrimSpace(arg)
}

// commandRest is what the header does not show of a multi-line key
// argument (a script given to run_command): every line after the first.
// Each is one line of what runs, so each is drawn on a line of its own,
// a carriage return in it shown, never taken for a line break.
func commandRest(t *toolState) []string {
	_, v, ok := keyArgument(t.args)
	if !ok {
		return nil
	}
	lines := strings.Split(strings.TrimSpace(v), "\n")
	if len(lines) < 2 {
		return nil
	}
	return lines[1:]
}

// appendCommandLines adds the lines of a multi-line command after the
// header: a few when the card is collapsed, then how many more there are
// (never cut without saying so), and all of them when it is expanded.
func (s *state) appendCommandLines(out []string, t *toolState, expanded bool, bar string, w int) []string {
	rest := commandRest(t)
	if len(rest) == 0 {
		return out
	}
	st := &s.styles
	shown := len(rest)
	if !expanded && shown > commandPreviewLines {
		shown = commandPreviewLines - 1 // leave a line for the count
	}
	for _, line := range rest[:shown] {
		line = sanitizeLine(line)
		if !expanded {
			out = append(out, bar+st.ToolArg.Render(ansi.Truncate(line, w, "…")))
			continue
		}
		for _, part := range appendWrapped(nil, line, w) {
			out = append(out, bar+st.ToolArg.Render(part))
		}
	}
	if more := len(rest) - shown; more > 0 {
		out = append(out, bar+st.Muted.Render("… "+human.Plural(more, "more line")+" of the command (expand the card to see them)"))
	}
	return out
}

// appendResult adds the result lines of a finished call.
func (s *state) appendResult(out []string, t *toolState, expanded bool, bar string, w int) []string {
	st := &s.styles
	body := st.Muted
	if t.isError {
		body = st.Error
	}
	result := strings.TrimRight(t.result, "\n ")
	if strings.TrimSpace(result) == "" {
		return append(out, bar+st.Muted.Render("(no output)"))
	}
	diff := !t.isError && looksLikeDiff(result)
	style := func(l string) string {
		if diff {
			switch {
			case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"):
				return st.DiffAdded.Render(l)
			case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
				return st.DiffRemoved.Render(l)
			}
		}
		return body.Render(l)
	}
	total := strings.Count(result, "\n") + 1
	shown := total
	if !expanded && total > previewLines {
		shown = previewLines - 1 // leave a line for "… more"
	}
	rest := result
	for i := 0; i < shown; i++ {
		line := rest
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			line, rest = rest[:j], rest[j+1:]
		} else {
			rest = ""
		}
		line = sanitize(line)
		if !expanded {
			out = append(out, bar+style(ansi.Truncate(line, w, "…")))
			continue
		}
		for _, part := range appendWrapped(nil, line, w) {
			out = append(out, bar+style(part))
		}
	}
	if shown < total {
		more := total - shown
		out = append(out, bar+st.Muted.Render("… "+human.Plural(more, "more line")))
	}
	return out
}

// looksLikeDiff reports whether a result is a unified diff, whose added and
// removed lines are worth colouring.
func looksLikeDiff(s string) bool {
	return strings.HasPrefix(s, "@@ ") || strings.Contains(s, "\n@@ ") ||
		strings.HasPrefix(s, "--- ") && strings.Contains(s, "\n+++ ")
}
