package sessiontools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"pincer/internal/human"
	"pincer/session"
	"pincer/tools"
)

// Scheduler is a call that schedules a task: the agent asks about it as a
// question of its own kind, since the task runs later with nobody
// watching, so a front end must not answer it with a blanket yes.
type Scheduler interface {
	tools.Call
	SchedulesTask()
}

// scheduleArgs are the arguments of the schedule_task tool.
type scheduleArgs struct {
	Prompt string `json:"prompt" jsonschema_description:"What to do when the task runs, written as a request to yourself with everything needed (it runs later, in this session)."`
	In     string `json:"in,omitempty" jsonschema_description:"Run after this long, e.g. 10m, 2h, 1h30m."`
	At     string `json:"at,omitempty" jsonschema_description:"Run at this time, RFC 3339 (2026-12-01T09:00:00+01:00)."`
	Every  string `json:"every,omitempty" jsonschema_description:"Repeat at this interval (at least 1m), e.g. 1h or 24h; leave out for a single run."`
}

// TaskPlace is where the tasks the schedule_task tool makes belong: the
// project they run in, and the Telegram chat whose turn made them (0
// elsewhere), the only chat their output and questions go to.
type TaskPlace struct {
	Dir  string
	Chat int64
}

// ScheduleTool is the schedule_task tool: the model schedules a follow-up
// prompt in this session, when the person asks for one. Scheduling asks the
// person first, as an approval of its own kind (Approval.Schedule): a task
// runs later without anyone watching, so a front end must not answer it
// with a blanket yes. The task is marked as the model's.
func ScheduleTool(st *session.Store, place TaskPlace, current func() string, now func() time.Time) (tools.Tool, error) {
	if now == nil {
		now = time.Now
	}
	return tools.New(tools.Spec[scheduleArgs]{
		Name: "schedule_task",
		Description: "Schedule a prompt to run later in this session, once (in or at) or repeatedly (every), e.g. to check on a long build or to re-run tests every morning. " +
			"Only use it when the user asks for something to happen later or regularly. The prompt runs through the normal loop, with the usual approvals.",
		Mutates: true,
		Example: scheduleArgs{Prompt: "Check whether the CI run for the release branch passed and report.", In: "30m"},
		Check: func(a *scheduleArgs) error {
			_, _, err := a.when(now())
			return err
		},
		Bind: func(a scheduleArgs) tools.Call {
			return &scheduleCall{st: st, place: place, current: current, now: now, args: a}
		},
	})
}

// when turns the arguments into the first run and the repeat interval.
func (a scheduleArgs) when(now time.Time) (time.Time, time.Duration, error) {
	if strings.TrimSpace(a.Prompt) == "" {
		return time.Time{}, 0, errors.New(`"prompt" is empty; say what the task should do`)
	}
	var every time.Duration
	if a.Every != "" {
		d, err := time.ParseDuration(a.Every)
		if err != nil || d < session.MinTaskInterval {
			return time.Time{}, 0, fmt.Errorf(`"every" must be a duration of at least %s like 1h or 30m, not %q`, session.MinTaskInterval, a.Every)
		}
		every = d
	}
	switch {
	case a.In != "" && a.At != "":
		return time.Time{}, 0, errors.New(`give "in" or "at", not both`)
	case a.In != "":
		d, err := time.ParseDuration(a.In)
		if err != nil || d < 0 {
			return time.Time{}, 0, fmt.Errorf(`"in" must be a duration like 10m or 2h, not %q`, a.In)
		}
		return now.Add(d), every, nil
	case a.At != "":
		t, err := time.Parse(time.RFC3339, a.At)
		if err != nil {
			return time.Time{}, 0, fmt.Errorf(`"at" must be an RFC 3339 time like 2026-12-01T09:00:00Z, not %q`, a.At)
		}
		if t.Before(now) {
			return time.Time{}, 0, fmt.Errorf(`"at" %s is in the past (it is now %s); give a time to come, or "in" a duration`, a.At, now.Format(time.RFC3339))
		}
		return t, every, nil
	case every > 0:
		return now.Add(every), every, nil
	}
	return time.Time{}, 0, errors.New(`say when: "in" (a duration), "at" (a time), or "every" (a repeat interval)`)
}

type scheduleCall struct {
	st      *session.Store
	place   TaskPlace
	current func() string
	now     func() time.Time
	args    scheduleArgs
}

func (c *scheduleCall) Summary() string {
	when := c.args.In
	if c.args.At != "" {
		when = c.args.At
	}
	s := "schedule_task"
	if when != "" {
		s += " in " + when
	}
	if c.args.Every != "" {
		s += " every " + c.args.Every
	}
	return s + ": " + c.args.Prompt
}

func (c *scheduleCall) Access() tools.Access { return tools.Access{} }

// SchedulesTask marks the call as one that schedules a task (Scheduler).
func (c *scheduleCall) SchedulesTask() {}

func (c *scheduleCall) Run(context.Context) (tools.Result, error) {
	next, every, err := c.args.when(c.now())
	if err != nil {
		return tools.Result{Content: err.Error(), IsError: true}, nil
	}
	t, err := c.st.AddTask(session.Task{Session: c.current(), Dir: c.place.Dir, Chat: c.place.Chat, Prompt: c.args.Prompt, Next: next, Every: every, ByModel: true})
	if err != nil {
		return tools.Result{Content: "could not schedule the task: " + err.Error(), IsError: true}, nil
	}
	return tools.Result{Content: DescribeTask(t, c.now()) + " The user can list and cancel tasks with /tasks."}, nil
}

// DescribeTask says when a task runs, for people and the model.
func DescribeTask(t session.Task, now time.Time) string {
	id := session.ShortTaskID(t.ID)
	s := fmt.Sprintf("Task %s: %q runs at %s (in %s)", id, human.OneLine(t.Prompt, 80), t.Next.Local().Format("2006-01-02 15:04"), roundDuration(t.Next.Sub(now)))
	if t.Every > 0 {
		s += ", then every " + roundDuration(t.Every)
	}
	if t.ByModel {
		s += "; scheduled by the model"
	}
	if t.LastError != "" {
		s += fmt.Sprintf("; the last run failed (%s)", t.LastError)
	}
	return s + "."
}

func roundDuration(d time.Duration) string {
	if d < 0 {
		return "now"
	}
	switch {
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		return d.Round(time.Minute).String()
	}
	return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
}

// ParseSchedule reads the spec of /schedule and pincer tasks add:
// "in 10m …", "every 1h …" or "at 2026-12-01T09:00:00Z …", then the
// prompt.
func ParseSchedule(spec string, now time.Time) (prompt string, next time.Time, every time.Duration, err error) {
	words := strings.Fields(spec)
	if len(words) < 3 {
		return "", time.Time{}, 0, errors.New("write: in DURATION PROMPT, every DURATION PROMPT, or at TIME PROMPT (e.g. in 10m run the tests)")
	}
	a := scheduleArgs{Prompt: strings.Join(words[2:], " ")}
	switch words[0] {
	case "in":
		a.In = words[1]
	case "every":
		a.Every = words[1]
	case "at":
		a.At = words[1]
	default:
		return "", time.Time{}, 0, fmt.Errorf("%q is not in, every or at; write: in DURATION PROMPT, every DURATION PROMPT, or at TIME PROMPT (e.g. in 10m run the tests)", words[0])
	}
	next, every, err = a.when(now)
	return a.Prompt, next, every, err
}
