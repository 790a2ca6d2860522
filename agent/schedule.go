package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"pincer/session"
)

// TaskPrefix starts the prompt the scheduler sends, so the model knows no
// person typed it.
const TaskPrefix = "[SYSTEM: AUTOMATED BACKGROUND TASK TRIGGERED]: "

// TaskMessage is the user message a scheduled task sends.
func TaskMessage(t session.Task) Message {
	return Message{Role: RoleUser, Kind: KindTask, Content: TaskPrefix + t.Prompt}
}

// TaskLease is how long a scheduler's claim on a task lasts: long enough
// for any run, short enough that a task whose scheduler died runs again
// the same day.
const TaskLease = time.Hour

// TaskRunner is the one claim → run → finish sequence of scheduled tasks,
// for every front end: `pincer tasks run` uses RunDue; the screen, which
// runs a task as a turn of its own, uses Claim, Release and Finish. Its
// interval is both how often due tasks are looked for and how soon a
// failed one-shot task runs again, so a task is retried at the next check
// wherever it runs.
type TaskRunner struct {
	store    *session.Store
	interval time.Duration
	now      func() time.Time
}

// NewTaskRunner returns a runner over st. interval is the configured
// scheduler_interval and must be positive; now is the clock (nil:
// time.Now).
func NewTaskRunner(st *session.Store, interval time.Duration, now func() time.Time) (*TaskRunner, error) {
	if st == nil {
		return nil, errors.New("the task runner needs the session store")
	}
	if interval <= 0 {
		return nil, fmt.Errorf("the task check interval is %s; it must be positive (scheduler_interval)", interval)
	}
	if now == nil {
		now = time.Now
	}
	return &TaskRunner{store: st, interval: interval, now: now}, nil
}

// Interval is how often due tasks are looked for.
func (r *TaskRunner) Interval() time.Duration { return r.interval }

// Claim claims the first due task that accept takes (nil takes all) and
// that no other scheduler holds, and returns it; ok is false when there is
// none. The claim lasts TaskLease, until Finish or Release.
func (r *TaskRunner) Claim(accept func(session.Task) bool) (t session.Task, ok bool, err error) {
	return r.claim(accept, nil)
}

func (r *TaskRunner) claim(accept func(session.Task) bool, skip map[string]bool) (session.Task, bool, error) {
	now := r.now()
	due, err := r.store.DueTasks(now)
	if err != nil {
		return session.Task{}, false, err
	}
	for _, t := range due {
		if skip[t.ID] || accept != nil && !accept(t) {
			continue
		}
		ok, err := r.store.ClaimTask(t.ID, now, TaskLease)
		if err != nil {
			return session.Task{}, false, err
		}
		if ok {
			return t, true, nil
		}
	}
	return session.Task{}, false, nil
}

// Release gives a claimed task back without running it, so it runs at the
// next check (here or elsewhere).
func (r *TaskRunner) Release(t session.Task) error { return r.store.ReleaseTask(t.ID) }

// Finish records how a claimed task's run went and returns the task as
// stored (a one-shot task that is done is returned as it was); scheduled
// says it runs again. A failure runs again one interval later.
func (r *TaskRunner) Finish(t session.Task, runErr error) (after session.Task, scheduled bool, err error) {
	after, scheduled, err = r.store.FinishTask(t.ID, r.now(), runErr, r.interval)
	if after.ID == "" {
		after = t
	}
	return after, scheduled, err
}

// RunDue claims, runs and finishes every due task accept takes, one after
// another, each at most once, and returns them as stored after their
// runs. A run interrupted by ctx is released, not recorded: the task stays
// due.
func (r *TaskRunner) RunDue(ctx context.Context, accept func(session.Task) bool, run func(context.Context, session.Task) error) ([]session.Task, error) {
	var ran []session.Task
	seen := map[string]bool{}
	for {
		if err := ctx.Err(); err != nil {
			return ran, err
		}
		t, ok, err := r.claim(accept, seen)
		if err != nil || !ok {
			return ran, err
		}
		seen[t.ID] = true
		runErr := run(ctx, t)
		if ctx.Err() != nil {
			if err := r.Release(t); err != nil {
				return ran, err
			}
			return ran, ctx.Err()
		}
		after, _, err := r.Finish(t, runErr)
		if err != nil {
			return ran, err
		}
		ran = append(ran, after)
	}
}
