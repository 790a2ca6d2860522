package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"pincer/agent"
	"pincer/internal/human"
	"pincer/session"
	"pincer/tools/sessiontools"
	"pincer/ui/complete"
)

// tasksDueMsg carries the due tasks of this session.
type tasksDueMsg struct {
	tasks []session.Task
	err   error
}

// taskCheckMsg asks for a check of the due tasks.
type taskCheckMsg struct{}

// taskFinishedMsg reports how a task's run was recorded.
type taskFinishedMsg struct {
	task      session.Task
	scheduled bool
	runErr    error
	err       error
}

// taskListMsg carries every task for the /tasks picker.
type taskListMsg struct {
	tasks []session.Task
	err   error
}

// taskRunner is the runner the screen shares with `pincer tasks run`; nil
// without a store or a check interval (then the screen runs no tasks).
func (a *App) taskRunner() *agent.TaskRunner {
	if a.opts.Store == nil {
		return nil
	}
	r, err := agent.NewTaskRunner(a.opts.Store, a.opts.SchedulerInterval, nil)
	if err != nil {
		return nil
	}
	return r
}

// scheduleCheck waits one interval, then checks.
func (a *App) scheduleCheck() tea.Cmd {
	r := a.taskRunner()
	if r == nil {
		return nil
	}
	return tea.Tick(r.Interval(), func(time.Time) tea.Msg { return taskCheckMsg{} })
}

// checkTasks claims the first task that is due in this session (or in this
// directory with no session of its own), so a scheduler elsewhere does not
// run it too; the others wait for the next check.
func (a *App) checkTasks() tea.Cmd {
	r := a.taskRunner()
	if r == nil {
		return nil
	}
	id, root := a.opts.SessionID, a.opts.Root
	return func() tea.Msg {
		t, ok, err := r.Claim(func(t session.Task) bool {
			// Only this project's, and never one a Telegram chat
			// scheduled: its output and questions belong in that chat.
			return t.Dir == root && t.Chat == 0 && (t.Session == id || t.Session == "")
		})
		if err != nil || !ok {
			return tasksDueMsg{err: err}
		}
		return tasksDueMsg{tasks: []session.Task{t}}
	}
}

// runDueTask starts the first due task when the agent is idle; a busy
// agent runs it when its turn ends (turnDone checks again).
func (a *App) runDueTask(msg tasksDueMsg) tea.Cmd {
	if msg.err != nil {
		a.transcript.AddError("Could not read the scheduled tasks: " + msg.err.Error())
		return nil
	}
	if len(msg.tasks) == 0 {
		return nil
	}
	if a.busy || len(a.dialogs) > 0 || a.runningTask != nil {
		// Claimed but the agent is busy: give the task back so it runs
		// at the next check.
		r, t := a.taskRunner(), msg.tasks[0]
		return func() tea.Msg {
			if err := r.Release(t); err != nil {
				return noticeMsg{err: err}
			}
			return nil
		}
	}
	t := msg.tasks[0]
	a.runningTask = &t
	m := agent.TaskMessage(t)
	a.transcript.AddNotice(fmt.Sprintf("Scheduled task: %s", human.OneLine(t.Prompt, 200)))
	return a.startMessage(m, "⏲ "+t.Prompt)
}

// taskDone records a task's run and says how it went.
func (a *App) taskDone(t session.Task, runErr error) tea.Cmd {
	r := a.taskRunner()
	if r == nil {
		return nil
	}
	return func() tea.Msg {
		after, scheduled, err := r.Finish(t, runErr)
		return taskFinishedMsg{task: after, scheduled: scheduled, runErr: runErr, err: err}
	}
}

func (a *App) taskFinished(msg taskFinishedMsg) tea.Cmd {
	switch {
	case msg.err != nil:
		a.transcript.AddError("Could not record the task's run: " + msg.err.Error())
	case msg.runErr != nil:
		a.transcript.AddError(fmt.Sprintf("The scheduled task failed (%v); it runs again at %s.", msg.runErr, msg.task.Next.Local().Format("15:04")))
	case msg.scheduled:
		a.transcript.AddNotice("Scheduled task done; next run " + msg.task.Next.Local().Format("2006-01-02 15:04") + ".")
	default:
		a.transcript.AddNotice("Scheduled task done.")
	}
	return tea.Batch(a.notify("pincer: scheduled task finished"), a.checkTasks())
}

// scheduleCommand is /schedule in|every|at WHEN PROMPT.
func (a *App) scheduleCommand(spec string) tea.Cmd {
	if a.opts.Store == nil {
		a.transcript.AddError("/schedule needs the session store, which is not open.")
		return nil
	}
	prompt, next, every, err := sessiontools.ParseSchedule(spec, time.Now())
	if err != nil {
		a.transcript.AddError("/schedule: " + err.Error())
		return nil
	}
	st, id, root := a.opts.Store, a.opts.SessionID, a.opts.Root
	return func() tea.Msg {
		t, err := st.AddTask(session.Task{Session: id, Dir: root, Prompt: prompt, Next: next, Every: every})
		if err != nil {
			return noticeMsg{err: fmt.Errorf("/schedule: %w", err)}
		}
		return taskAddedMsg{text: sessiontools.DescribeTask(t, time.Now()) + " /tasks lists and cancels tasks."}
	}
}

// taskAddedMsg says a task was scheduled; one due at once runs at once.
type taskAddedMsg struct{ text string }

// openTasks lists every scheduled task; ctrl+d cancels one.
func (a *App) openTasks() tea.Cmd {
	if a.opts.Store == nil {
		a.transcript.AddError("/tasks needs the session store, which is not open.")
		return nil
	}
	st := a.opts.Store
	return func() tea.Msg {
		ts, err := st.Tasks()
		return taskListMsg{tasks: ts, err: err}
	}
}

func (a *App) showTasks(msg taskListMsg) tea.Cmd {
	if msg.err != nil {
		a.transcript.AddError("Could not list the tasks: " + msg.err.Error())
		return nil
	}
	if len(msg.tasks) == 0 {
		// No list to choose from: say so, and leave the keys to the input.
		a.transcript.AddNotice("No tasks are scheduled. Schedule one with /schedule in 10m PROMPT or /schedule every 1h PROMPT.")
		return nil
	}
	now := time.Now()
	byID := map[string]session.Task{}
	var items []complete.Item
	for _, t := range msg.tasks {
		byID[t.ID] = t
		where := "this session"
		if t.Session != a.opts.SessionID {
			where = "another session"
		}
		when := "due now"
		if t.Next.After(now) {
			when = "in " + strings.TrimSuffix(t.Next.Sub(now).Round(time.Minute).String(), "0s")
		}
		if t.Every > 0 {
			when += ", every " + strings.TrimSuffix(t.Every.String(), "0s")
		}
		if t.LastError != "" {
			when += " · last run failed"
		}
		if t.ByModel {
			where += " · scheduled by the model"
		}
		items = append(items, complete.Item{Value: t.ID, Label: human.OneLine(t.Prompt, 60), Detail: when + " · " + where})
	}
	p := newPicker("Scheduled tasks", items, a.styles)
	p.empty = "No tasks. Schedule one with /schedule in 10m PROMPT or /schedule every 1h PROMPT."
	st := a.opts.Store
	p.chooseHelp = "show the task"
	p.choose = func(it complete.Item) (bool, tea.Cmd) {
		t, ok := byID[it.Value]
		if !ok {
			return true, nil
		}
		a.transcript.AddNotice(a.describeTask(t, time.Now()))
		return true, nil
	}
	p.actions = []pickerAction{{key: "ctrl+d", help: "cancel the task", confirm: true, prompt: "Cancel this task? y/n",
		run: func(it complete.Item, _ string) tea.Cmd {
			for i, x := range p.items {
				if x.Value == it.Value {
					p.setItems(append(append([]complete.Item(nil), p.items[:i]...), p.items[i+1:]...))
					break
				}
			}
			return a.sessionOp(func() error { return st.RemoveTask(it.Value) }, "Cancelled the task.", false, "")
		}}}
	a.pushDialog(p)
	return nil
}

// describeTask is a task in full, as Enter in /tasks shows it: when it
// runs, where, how its last run went, and its whole prompt.
func (a *App) describeTask(t session.Task, now time.Time) string {
	var b strings.Builder
	b.WriteString(sessiontools.DescribeTask(t, now))
	where := "It runs in this session."
	if t.Session != a.opts.SessionID {
		where = "It runs in another session."
	}
	b.WriteString(" " + where)
	if !t.LastRun.IsZero() {
		b.WriteString(" Last run " + human.Ago(now, t.LastRun) + ".")
	}
	b.WriteString("\nPrompt: " + t.Prompt)
	b.WriteString("\n/tasks and Ctrl+D cancel it.")
	return b.String()
}

// showSkills lists the composite skills the prompt holds.
func (a *App) showSkills() tea.Cmd {
	if len(a.opts.Skills) == 0 {
		a.transcript.AddNotice("No composite skills are defined. Add them under a \"# Skills\" heading in ~/.config/pincer/SKILLS.md or the project's SKILLS.md.")
		return nil
	}
	var b strings.Builder
	b.WriteString("Composite skills the assistant knows:")
	for _, s := range a.opts.Skills {
		b.WriteString("\n• " + s.Name)
		if s.Summary != "" {
			b.WriteString(" — " + s.Summary)
		}
	}
	a.transcript.AddNotice(b.String())
	return nil
}
