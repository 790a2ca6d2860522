package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Scheduling limits.
const (
	// MinTaskInterval is the shortest repeat interval a task may have, so
	// that a mistyped interval cannot keep the model busy without pause.
	MinTaskInterval = time.Minute
	// DefaultRetry is how long FinishTask waits before a failed one-shot
	// task runs again when it is given no retry interval.
	DefaultRetry = 5 * time.Minute
	// minTaskPrefix is the shortest part of a task id (its start or its
	// end) that Task accepts.
	minTaskPrefix = 4
	// shortTaskID is how many characters of a task id ShortTaskID keeps.
	shortTaskID = 6
)

// ShortTaskID is the form of a task id shown to people: its last
// characters. A ULID starts with its creation time, so tasks added close
// together share their first characters; the end is random. Every command
// that takes a task id accepts this form (see Task).
func ShortTaskID(id string) string {
	if len(id) <= shortTaskID {
		return id
	}
	return id[len(id)-shortTaskID:]
}

// Task is a prompt scheduled to be sent on its own, once or repeatedly, so
// that the assistant can follow up on work without being asked again.
type Task struct {
	// ID is a ULID assigned by AddTask.
	ID string
	// Session is the id of the session the task runs in; empty lets the
	// scheduler choose (a new session, say).
	Session string
	// Dir is the working directory the task runs in.
	Dir    string
	Prompt string
	// Next is when the task is due.
	Next time.Time
	// Every is the repeat interval; 0 makes a one-shot task.
	Every   time.Duration
	Created time.Time
	// LastRun is when the task last finished, successfully or not.
	LastRun time.Time
	// LastError is the error of the last run; empty after a success.
	LastError string
	// Failures counts the runs that failed since the last success.
	Failures int
	// Runs counts the successful runs.
	Runs int
	// ByModel marks a task the model scheduled (with the person's yes),
	// so lists can tell it from one the person typed.
	ByModel bool
	// Chat is the Telegram chat that scheduled the task; its output and
	// its questions go to that chat only. 0 for a task scheduled
	// elsewhere.
	Chat int64
	// By names who scheduled the task in a Telegram chat ("@name"), so a
	// group's owner, asked its approvals, knows whose prompt it is; ""
	// for a task scheduled elsewhere.
	By string
}

// MarshalJSON writes the task as every --json of pincer writes things:
// lower-case keys, the repeat interval as a duration ("1h0m0s"), and
// what is unset left out.
func (t Task) MarshalJSON() ([]byte, error) {
	type view struct {
		ID        string    `json:"id"`
		Session   string    `json:"session,omitempty"`
		Dir       string    `json:"dir,omitempty"`
		Prompt    string    `json:"prompt"`
		Next      time.Time `json:"next"`
		Every     string    `json:"every,omitempty"`
		Created   time.Time `json:"created,omitzero"`
		LastRun   time.Time `json:"last_run,omitzero"`
		LastError string    `json:"last_error,omitempty"`
		Failures  int       `json:"failures,omitempty"`
		Runs      int       `json:"runs,omitempty"`
		ByModel   bool      `json:"by_model,omitempty"`
		Chat      int64     `json:"chat,omitempty"`
		By        string    `json:"by,omitempty"`
	}
	v := view{ID: t.ID, Session: t.Session, Dir: t.Dir, Prompt: t.Prompt, Next: t.Next, Created: t.Created,
		LastRun: t.LastRun, LastError: t.LastError, Failures: t.Failures, Runs: t.Runs, ByModel: t.ByModel, Chat: t.Chat, By: t.By}
	if t.Every > 0 {
		v.Every = t.Every.String()
	}
	return json.Marshal(v)
}

// AddTask schedules t and returns it as stored, with its ID and Created
// time filled in (any run history in t is ignored). The prompt must not be
// blank, Next must be set, and Every must be 0 or at least MinTaskInterval;
// otherwise the error is ErrInvalidTask. Session, when set, may be a
// session's name, id or id prefix and is stored as its id; a task without a
// Dir takes its session's.
func (s *Store) AddTask(t Task) (Task, error) {
	if err := validateTask(t); err != nil {
		return Task{}, err
	}
	if t.Dir != "" {
		dir, err := cleanDir(t.Dir)
		if err != nil {
			return Task{}, fmt.Errorf("schedule task: %w", err)
		}
		t.Dir = dir
	}
	now := s.now()
	id, err := newID(now)
	if err != nil {
		return Task{}, err
	}
	rec := toTaskRecord(Task{ID: id, Session: t.Session, Dir: t.Dir, Prompt: t.Prompt, Next: t.Next, Every: t.Every, Created: now, ByModel: t.ByModel, Chat: t.Chat, By: t.By})
	err = s.update(func(tx *bolt.Tx) error {
		if rec.Session != "" {
			sess, err := resolve(tx, rec.Session)
			if err != nil {
				return err
			}
			rec.Session = sess.ID
			if rec.Dir == "" {
				rec.Dir = sess.Dir
			}
		}
		b, err := taskBucket(tx)
		if err != nil {
			return err
		}
		if b.Get([]byte(rec.ID)) != nil {
			return fmt.Errorf("schedule task: the id %s is already in use", rec.ID)
		}
		return putTask(b, rec)
	})
	if err != nil {
		return Task{}, err
	}
	return rec.task(), nil
}

// validateTask checks what AddTask needs of a task.
func validateTask(t Task) error {
	switch {
	case strings.TrimSpace(t.Prompt) == "":
		return newError(ErrInvalidTask, nil, "a scheduled task needs a prompt to send; give it one")
	case t.Next.IsZero():
		return newError(ErrInvalidTask, nil, "a scheduled task needs the time of its first run; give one")
	case t.Every < 0:
		return newError(ErrInvalidTask, nil, "the repeat interval %s is negative; give a positive interval, or none for a one-shot task", t.Every)
	case t.Every > 0 && t.Every < MinTaskInterval:
		return newError(ErrInvalidTask, nil, "a task cannot repeat every %s; choose an interval of %s or longer", t.Every, MinTaskInterval)
	}
	return nil
}

// Tasks returns every scheduled task, the one due first first.
func (s *Store) Tasks() ([]Task, error) {
	return s.tasksWhere(func(taskRecord) bool { return true })
}

// DueTasks returns the tasks whose Next is at or before now, the one due
// first first.
//
// A task another scheduler has claimed (ClaimTask) is not due until the
// claim runs out.
func (s *Store) DueTasks(now time.Time) ([]Task, error) {
	return s.tasksWhere(func(r taskRecord) bool { return !r.Next.After(now) && !r.ClaimedUntil.After(now) })
}

// ClaimTask marks a due task as being run by the caller until now+lease,
// so another scheduler (a screen and 'pincer tasks run' at once) does not
// run it too. It reports false, changing nothing, when the task is not due
// or someone else holds a claim that has not run out. FinishTask ends the
// claim; a scheduler that dies leaves the task to run again once the lease
// is over.
func (s *Store) ClaimTask(ref string, now time.Time, lease time.Duration) (bool, error) {
	if lease <= 0 {
		return false, fmt.Errorf("claim task %s: the lease %s must be positive", ref, lease)
	}
	claimed := false
	err := s.update(func(tx *bolt.Tx) error {
		rec, err := findTask(tx, ref)
		if err != nil {
			return err
		}
		if rec.Next.After(now) || rec.ClaimedUntil.After(now) {
			return nil
		}
		b, err := taskBucket(tx)
		if err != nil {
			return err
		}
		rec.ClaimedUntil = now.Add(lease).UTC()
		claimed = true
		return putTask(b, rec)
	})
	return claimed, err
}

// ReleaseTask gives up a claim without running the task, so it is due
// again at once.
func (s *Store) ReleaseTask(ref string) error {
	return s.update(func(tx *bolt.Tx) error {
		rec, err := findTask(tx, ref)
		if err != nil {
			return err
		}
		if rec.ClaimedUntil.IsZero() {
			return nil
		}
		b, err := taskBucket(tx)
		if err != nil {
			return err
		}
		rec.ClaimedUntil = time.Time{}
		return putTask(b, rec)
	})
}

// tasksWhere returns the tasks keep accepts, ordered by Next, then by id.
func (s *Store) tasksWhere(keep func(taskRecord) bool) ([]Task, error) {
	var out []Task
	err := s.view(func(tx *bolt.Tx) error {
		b, err := taskBucket(tx)
		if err != nil {
			return err
		}
		return b.ForEach(func(_, raw []byte) error {
			rec, err := decodeTask(raw)
			if err != nil {
				return err
			}
			if keep(rec) {
				out = append(out, rec.task())
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Task) int {
		if c := a.Next.Compare(b.Next); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// Task finds a scheduled task by its id or a unique prefix of it of at
// least four characters.
func (s *Store) Task(ref string) (Task, error) {
	var out Task
	err := s.view(func(tx *bolt.Tx) error {
		rec, err := findTask(tx, ref)
		out = rec.task()
		return err
	})
	if err != nil {
		return Task{}, err
	}
	return out, nil
}

// RemoveTask cancels the task found by its id or a unique id prefix.
func (s *Store) RemoveTask(ref string) error {
	return s.update(func(tx *bolt.Tx) error {
		rec, err := findTask(tx, ref)
		if err != nil {
			return err
		}
		b, err := taskBucket(tx)
		if err != nil {
			return err
		}
		if err := b.Delete([]byte(rec.ID)); err != nil {
			return fmt.Errorf("remove task %s: %w", rec.ID, err)
		}
		return nil
	})
}

// FinishTask records a run of the task found by ref that ended at ran (the
// zero time means now) with runErr, and reschedules it. It returns the task
// as it now is and whether it is still scheduled.
//
// After a success a one-shot task is removed, and a repeating one moves to
// the first of Next+Every, Next+2·Every, … that is after ran: runs missed
// while no scheduler was running are made up by this one run, not one per
// missed interval. After a failure the error is kept in LastError, Failures
// grows, and the task runs again at ran+Every, or for a one-shot task at
// ran+retry (0 means DefaultRetry). A negative retry is refused and changes
// nothing.
func (s *Store) FinishTask(ref string, ran time.Time, runErr error, retry time.Duration) (Task, bool, error) {
	switch {
	case retry < 0:
		return Task{}, false, fmt.Errorf("finish task %s: the retry interval %s is negative; give a positive one, or 0 for %s", ref, retry, DefaultRetry)
	case retry == 0:
		retry = DefaultRetry
	}
	if ran.IsZero() {
		ran = s.now()
	}
	var out Task
	scheduled := true
	err := s.update(func(tx *bolt.Tx) error {
		rec, err := findTask(tx, ref)
		if err != nil {
			return err
		}
		b, err := taskBucket(tx)
		if err != nil {
			return err
		}
		t := rec.task()
		t.LastRun = ran
		switch {
		case runErr != nil:
			t.LastError = runErr.Error()
			t.Failures++
			if t.Every > 0 {
				t.Next = ran.Add(t.Every)
			} else {
				t.Next = ran.Add(retry)
			}
		case t.Every == 0:
			t.LastError, t.Failures = "", 0
			t.Runs++
			scheduled = false
		default:
			t.LastError, t.Failures = "", 0
			t.Runs++
			t.Next = nextSlot(t.Next, t.Every, ran)
		}
		out = toTaskRecord(t).task()
		if !scheduled {
			if err := b.Delete([]byte(t.ID)); err != nil {
				return fmt.Errorf("remove finished task %s: %w", t.ID, err)
			}
			return nil
		}
		return putTask(b, toTaskRecord(t))
	})
	if err != nil {
		return Task{}, false, err
	}
	return out, scheduled, nil
}

// nextSlot returns the first of next+every, next+2·every, … after ran.
func nextSlot(next time.Time, every time.Duration, ran time.Time) time.Time {
	k := int64(1)
	if late := ran.Sub(next); late >= 0 {
		k = int64(late/every) + 1
	}
	return next.Add(time.Duration(k) * every)
}

// findTask finds a task by id, or by a unique start or end of the id of at
// least minTaskPrefix characters (the end is what ShortTaskID shows).
func findTask(tx *bolt.Tx, ref string) (taskRecord, error) {
	b, err := taskBucket(tx)
	if err != nil {
		return taskRecord{}, err
	}
	key := []byte(strings.ToUpper(ref))
	if ref == "" {
		return taskRecord{}, newError(ErrTaskNotFound, nil, "no task given; give a task id from the task list")
	}
	if raw := b.Get(key); raw != nil {
		return decodeTask(raw)
	}
	if len(ref) < minTaskPrefix {
		return taskRecord{}, newError(ErrTaskNotFound, nil,
			"no task has the id %q; give the id shown by the task list, or at least %d characters of it", ref, minTaskPrefix)
	}
	var found [][]byte
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if bytes.HasPrefix(k, key) || bytes.HasSuffix(k, key) {
			found = append(found, v)
		}
	}
	switch len(found) {
	case 0:
		return taskRecord{}, newError(ErrTaskNotFound, nil, "no task has an id starting or ending with %q; list the tasks to see their ids", ref)
	case 1:
		return decodeTask(found[0])
	}
	return taskRecord{}, newError(ErrAmbiguous, nil, "%d tasks have ids starting or ending with %q; type more of the id", len(found), ref)
}

// dropSessionTasks removes the tasks that run in session id.
func dropSessionTasks(tx *bolt.Tx, id string) error {
	b, err := taskBucket(tx)
	if err != nil {
		return err
	}
	var doomed [][]byte
	err = b.ForEach(func(k, raw []byte) error {
		rec, err := decodeTask(raw)
		if err != nil {
			return err
		}
		if rec.Session == id {
			doomed = append(doomed, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("remove tasks of session %s: %w", id, err)
	}
	for _, k := range doomed {
		if err := b.Delete(k); err != nil {
			return fmt.Errorf("remove task %s of session %s: %w", k, id, err)
		}
	}
	return nil
}

// taskBucket returns the bucket of scheduled tasks.
func taskBucket(tx *bolt.Tx) (*bolt.Bucket, error) {
	b := tx.Bucket([]byte(bucketTasks))
	if b == nil {
		return nil, fmt.Errorf("the store has no %s bucket; it is inconsistent", bucketTasks)
	}
	return b, nil
}

// putTask writes a task record.
func putTask(b *bolt.Bucket, rec taskRecord) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode task %s: %w", rec.ID, err)
	}
	if err := b.Put([]byte(rec.ID), raw); err != nil {
		return fmt.Errorf("store task %s: %w", rec.ID, err)
	}
	return nil
}
