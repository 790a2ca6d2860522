package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	tea "charm.land/bubbletea/v2"
	udiff "github.com/aymanbagabas/go-udiff"

	"pincer/agent"
	"pincer/internal/safetext"
)

// defaultPlanFile is where /plan save writes, in the project.
const defaultPlanFile = "PLAN.md"

// mode is the agent's mode: ask, accept edits or plan.
func (a *App) mode() agent.Mode {
	if a.agent == nil {
		return agent.ModeAsk
	}
	return a.agent.Mode()
}

// setMode switches the agent's mode; the status line shows it. With say,
// the transcript says what the mode does.
func (a *App) setMode(m agent.Mode, say bool) {
	if a.agent != nil {
		a.agent.SetMode(m)
	}
	if !say {
		return
	}
	switch m {
	case agent.ModeAcceptEdits:
		a.transcript.AddNotice("Mode: accept edits. Edits are applied without the review dialog (each shows as a diff here, and /undo takes a turn back); commands still ask, dangerous ones twice. Shift+Tab changes the mode.")
	case agent.ModePlan:
		a.transcript.AddNotice("Mode: plan. The model gets read-only tools and answers with a plan; nothing is changed. /plan go carries the plan out, /plan save writes it to " + defaultPlanFile + "; Shift+Tab changes the mode.")
	default:
		a.transcript.AddNotice("Mode: ask. Every edit is shown for review, and commands that change things ask first.")
	}
}

// cycleMode moves to the next mode: ask → accept edits → plan → ask.
func (a *App) cycleMode() { a.setMode(a.mode().Next(), false) }

// planFinished keeps the answer of a turn made in plan mode as the plan,
// and says what can be done with it.
func (a *App) planFinished(res agent.Result) {
	if !res.Planned || res.StopReason != "answer" || strings.TrimSpace(res.Text) == "" {
		return
	}
	a.plan = res.Text
	a.transcript.AddNotice("Plan ready. /plan go leaves plan mode and carries it out; /plan save writes it to " + defaultPlanFile + ".")
}

// planCommand is /plan: with no arguments it turns plan mode on; "off"
// goes back to ask; "save [-f] [PATH]" writes the last plan; "go" leaves
// plan mode and sends the plan back to be carried out.
func (a *App) planCommand(args string) tea.Cmd {
	sub, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	rest = strings.TrimSpace(rest)
	switch sub {
	case "":
		if a.mode() == agent.ModePlan {
			a.transcript.AddNotice("Already in plan mode. /plan go carries the plan out, /plan save writes it, /plan off (or Shift+Tab) leaves plan mode.")
			return nil
		}
		a.setMode(agent.ModePlan, true)
		return nil
	case "off":
		a.setMode(agent.ModeAsk, true)
		return nil
	case "save":
		return a.savePlan(rest)
	case "go":
		return a.planGo(rest)
	}
	a.transcript.AddError(fmt.Sprintf("/plan does not know %q. Use /plan, /plan off, /plan save [-f] [PATH] or /plan go.", sub))
	return nil
}

// planGo leaves plan mode for ask and sends the plan back as the next
// prompt, with what the person added after "go".
func (a *App) planGo(extra string) tea.Cmd {
	switch {
	case a.plan == "":
		a.transcript.AddError("There is no plan to carry out yet: switch to plan mode (Shift+Tab or /plan), ask for a plan, then /plan go.")
		return nil
	case a.busy:
		a.transcript.AddError("The agent is still working: wait for the plan to finish, or press Esc, then /plan go.")
		return nil
	}
	a.setMode(agent.ModeAsk, false)
	a.transcript.AddNotice("Mode: ask. Carrying out the plan; edits and commands are approved as usual.")
	shown := strings.TrimSpace("/plan go " + extra)
	return a.sendOrQueue(goPrompt(a.plan, extra), shown)
}

// goPrompt is the message that carries a plan back to be carried out.
func goPrompt(plan, extra string) string {
	prompt := "Plan mode is over: carry out this plan now, step by step. Edits and commands are approved as usual.\n\n<plan>\n" +
		strings.TrimSpace(plan) + "\n</plan>"
	if extra != "" {
		prompt += "\n\n" + extra
	}
	return prompt
}

// savePlan writes the last plan to a file in the project: PLAN.md unless a
// path is given. It never overwrites a file unless -f is given.
func (a *App) savePlan(args string) tea.Cmd {
	force, name, err := projectFileArgs(args, "/plan save")
	if err != nil {
		a.transcript.AddError(err.Error())
		return nil
	}
	if a.busy {
		// A turn's commands could change the project's folders between
		// the check of the path and the write.
		a.transcript.AddError("/plan save waits until the agent is done; wait for it or press Esc first.")
		return nil
	}
	if a.plan == "" {
		a.transcript.AddError("There is no plan to save yet: switch to plan mode (Shift+Tab or /plan) and ask for one.")
		return nil
	}
	if name == "" {
		name = defaultPlanFile
	}
	f, err := projectFilePath(a.opts.Root, name, "/plan save")
	if err != nil {
		a.transcript.AddError(sentence(err.Error()))
		return nil
	}
	text := strings.TrimRight(a.plan, "\n") + "\n"
	rw := a.rewinder()
	return func() tea.Msg {
		rel := safetext.LineOf(f.rel)
		switch err := f.write([]byte(text), force); {
		case errors.Is(err, fs.ErrExist):
			return noticeMsg{err: errors.New(sentence(fmt.Sprintf("%s already exists, so the plan was not saved; /plan save -f %s replaces it, or give another path", rel, rel)))}
		case err != nil:
			return noticeMsg{err: errors.New(sentence(fmt.Sprintf("could not save the plan: %v", err)))}
		}
		return noticeMsg{text: "Saved the plan to " + rel + "." + recordWrite(rw, f)}
	}
}

// rememberDiff keeps the unified diff of an edit applied without review,
// so its card shows what changed.
func (a *App) rememberDiff(q agent.Approval) {
	ch := q.Change
	if ch == nil || q.CallID == "" {
		return
	}
	if a.editDiffs == nil {
		a.editDiffs = map[string]string{}
	}
	before, after := string(ch.Before), string(ch.After)
	diff, err := udiff.ToUnified("a/"+ch.Rel, "b/"+ch.Rel, before, udiff.Lines(before, after), 0)
	if err != nil {
		return
	}
	// The card names the file: the hunks are what it needs.
	if i := strings.Index(diff, "@@ "); i >= 0 {
		diff = diff[i:]
	}
	a.editDiffs[q.CallID] = diff
}

// shownResult is a tool result as its card shows it: for an edit applied
// without review, the diff and then the result's first line.
func (a *App) shownResult(e agent.ToolResult) string {
	diff, ok := a.editDiffs[e.ID]
	if !ok {
		return e.Content
	}
	delete(a.editDiffs, e.ID)
	if e.IsError || diff == "" {
		return e.Content
	}
	first, _, _ := strings.Cut(e.Content, "\n")
	return strings.TrimRight(diff, "\n") + "\n" + first
}
