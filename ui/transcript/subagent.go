package transcript

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"pincer/chat"
	"pincer/internal/human"
)

// taskTool is the tool whose card nests the steps of the sub-agent it
// runs.
const taskTool = "task"

// liveSteps is how many of a running sub-agent's latest steps its card
// shows; the earlier ones are counted on one line.
const liveSteps = 8

// stepState is how far a sub-agent's call has come.
type stepState int

const (
	stepPending stepState = iota // asked for, not yet running (or refused)
	stepRunning
	stepDone
	stepFailed
)

// subStep is one line of a task card.
type subStep struct {
	tool, summary, args string
	state               stepState
}

// subSteps are the steps of one task's sub-agent, keyed by the
// sub-agent's own call keys (which may repeat another agent's).
type subSteps struct {
	steps []subStep
	keys  []string
}

func (s *subSteps) find(key string) int {
	for i := len(s.keys) - 1; i >= 0; i-- {
		if s.keys[i] == key && key != "" {
			return i
		}
	}
	return -1
}

// loadSteps turns stored steps into a card's.
func loadSteps(steps []chat.Step) *subSteps {
	out := &subSteps{}
	for _, st := range steps {
		state := stepDone
		if st.IsError {
			state = stepFailed
		}
		out.steps = append(out.steps, subStep{tool: st.Tool, summary: st.Summary, args: st.Args, state: state})
		out.keys = append(out.keys, "")
	}
	return out
}

// taskSteps returns the steps of the task call parent, making them.
func (s *state) taskSteps(parent string) (*item, *subSteps) {
	card := s.card(parent, taskTool)
	if card.tool.sub == nil {
		card.tool.sub = &subSteps{}
	}
	return card, card.tool.sub
}

// SubCall shows a tool call the sub-agent of the task call parent asked
// for; key is the sub-agent's own key of the call.
func (m *Model) SubCall(parent, key, tool, args string) {
	card, sub := m.s.taskSteps(parent)
	sub.steps = append(sub.steps, subStep{tool: tool, args: args})
	sub.keys = append(sub.keys, key)
	card.invalidate()
	m.s.grew()
}

// SubStarted marks a sub-agent's call as running, with its summary.
func (m *Model) SubStarted(parent, key, summary string) {
	card, sub := m.s.taskSteps(parent)
	if i := sub.find(key); i >= 0 {
		sub.steps[i].state, sub.steps[i].summary = stepRunning, summary
		card.invalidate()
		m.s.grew()
	}
}

// SubResult marks a sub-agent's call as finished.
func (m *Model) SubResult(parent, key string, isError bool) {
	card, sub := m.s.taskSteps(parent)
	if i := sub.find(key); i >= 0 {
		sub.steps[i].state = stepDone
		if isError {
			sub.steps[i].state = stepFailed
		}
		card.invalidate()
		m.s.grew()
	}
}

// renderTaskCard draws the body of a task card under its header: while
// the sub-agent works, its latest steps, one line each; once done, one
// line with the number of steps and the report's first line, or, when
// expanded, every step and the whole report.
func (s *state) renderTaskCard(it *item, out []string, bar string, w int) []string {
	st := &s.styles
	t := it.tool
	var steps []subStep
	if t.sub != nil {
		steps = t.sub.steps
	}
	if t.done && !it.expanded {
		n := len(steps)
		label := human.Plural(n, "step")
		first := strings.TrimSpace(t.result)
		if i := strings.IndexByte(first, '\n'); i >= 0 {
			first = strings.TrimSpace(first[:i]) + " …"
		}
		style := st.Muted
		if t.isError {
			style = st.Error
		}
		line := label
		if first != "" {
			line += " · " + sanitizeLine(first)
		}
		return append(out, bar+style.Render(ansi.Truncate(line, w, "…")))
	}
	shown := steps
	if !t.done && len(steps) > liveSteps {
		earlier := len(steps) - liveSteps
		out = append(out, bar+st.Muted.Render("… "+human.Plural(earlier, "earlier step")))
		shown = steps[earlier:]
	}
	for _, step := range shown {
		out = append(out, bar+s.stepLine(step, w))
	}
	switch {
	case t.done:
		out = s.appendResult(out, t, true, bar, w)
	case t.running && len(steps) == 0:
		out = append(out, bar+st.Muted.Render("working…"))
	}
	return out
}

// stepLine is one step: a mark, the tool and what it works on.
func (s *state) stepLine(step subStep, w int) string {
	st := &s.styles
	var mark string
	switch step.state {
	case stepRunning:
		mark = st.Warning.Render("◐")
	case stepDone:
		mark = st.OK.Render("✓")
	case stepFailed:
		mark = st.Error.Render("✗")
	default:
		mark = st.Muted.Render("○")
	}
	arg := ""
	if step.summary != "" {
		arg = strings.TrimPrefix(step.summary, step.tool+" ")
	} else if _, v, ok := keyArgument(step.args); ok {
		arg = v
	}
	arg = sanitizeLine(arg)
	name := sanitizeLine(step.tool)
	room := max(w-2, 1)
	text := ansi.Truncate(name, room, "…")
	line := st.ToolName.Render(text)
	if left := room - ansi.StringWidth(text) - 1; arg != "" && left > 0 {
		line += " " + st.ToolArg.Render(ansi.Truncate(arg, left, "…"))
	}
	return mark + " " + line
}
