package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// epoch is the reference time of the task tests.
func epoch() time.Time { return time.Date(2025, 7, 1, 12, 0, 0, 0, time.UTC) }

// mustAddTask schedules a task or fails the test.
func mustAddTask(tb testing.TB, s *Store, task Task) Task {
	tb.Helper()
	got, err := s.AddTask(task)
	if err != nil {
		tb.Fatalf("AddTask(%+v): %v", task, err)
	}
	return got
}

func TestAddTaskValidates(t *testing.T) {
	t0 := epoch()
	s := newTestStore(t)
	tests := []struct {
		name string
		task Task
		kind error  // nil: accepted
		says string // part of the error
	}{
		{"a one-shot task", Task{Prompt: "run the tests", Next: t0}, nil, ""},
		{"a repeating task", Task{Prompt: "check CI", Next: t0, Every: time.Hour}, nil, ""},
		{"the shortest interval", Task{Prompt: "poll", Next: t0, Every: MinTaskInterval}, nil, ""},
		{"no prompt", Task{Next: t0}, ErrInvalidTask, "needs a prompt"},
		{"a blank prompt", Task{Prompt: " \n\t", Next: t0}, ErrInvalidTask, "needs a prompt"},
		{"no time", Task{Prompt: "run the tests"}, ErrInvalidTask, "time of its first run"},
		{"a negative interval", Task{Prompt: "poll", Next: t0, Every: -time.Hour}, ErrInvalidTask, "negative"},
		{"too often", Task{Prompt: "poll", Next: t0, Every: 30 * time.Second}, ErrInvalidTask, "1m0s or longer"},
		{"an unknown session", Task{Prompt: "poll", Next: t0, Session: "no-such-session"}, ErrNotFound, "no-such-session"},
	}
	accepted := 0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.AddTask(tt.task)
			if tt.kind == nil {
				if err != nil {
					t.Fatalf("AddTask = %v, want it accepted", err)
				}
				accepted++
				return
			}
			if !errors.Is(err, tt.kind) {
				t.Fatalf("AddTask = %v, want %v", err, tt.kind)
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %q should say %q", err, tt.says)
			}
		})
	}
	if tasks, err := s.Tasks(); err != nil || len(tasks) != accepted {
		t.Errorf("stored %d tasks (%v), want only the %d accepted", len(tasks), err, accepted)
	}
}

func TestAddTaskFillsInAndPersists(t *testing.T) {
	t0 := epoch()
	path := filepath.Join(t.TempDir(), fileName)
	now := time.Date(2025, 6, 30, 8, 0, 0, 0, time.FixedZone("CEST", 2*3600))
	s, err := Open(path, Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	sess := mustCreate(t, s, "nightly", "/work/app")
	got := mustAddTask(t, s, Task{ID: "IGNORED", Session: "nightly", Prompt: "run the e2e suite", Next: t0, Every: 24 * time.Hour,
		Created: t0, LastRun: t0, LastError: "old", Failures: 3, Runs: 9})
	if len(got.ID) != 26 || !looksLikeID(got.ID) {
		t.Errorf("ID = %q, want a ULID", got.ID)
	}
	want := Task{ID: got.ID, Session: sess.ID, Dir: "/work/app", Prompt: "run the e2e suite", Next: t0, Every: 24 * time.Hour, Created: now.UTC()}
	if !sameTask(got, want) {
		t.Errorf("AddTask returned %+v\nwant %+v", got, want)
	}
	reopened, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if stored, err := reopened.Task(got.ID); err != nil || !sameTask(stored, want) {
		t.Errorf("after reopening, Task = %+v, %v\nwant %+v", stored, err, want)
	}
	own := mustAddTask(t, s, Task{Session: sess.ID, Dir: "/elsewhere/./x", Prompt: "p", Next: t0})
	if own.Dir != "/elsewhere/x" {
		t.Errorf("a task's own Dir became %q, want it kept and cleaned", own.Dir)
	}
}

func sameTask(a, b Task) bool {
	return a.ID == b.ID && a.Session == b.Session && a.Dir == b.Dir && a.Prompt == b.Prompt &&
		a.Next.Equal(b.Next) && a.Every == b.Every && a.Created.Equal(b.Created) && a.LastRun.Equal(b.LastRun) &&
		a.LastError == b.LastError && a.Failures == b.Failures && a.Runs == b.Runs
}

func TestTasksAndDueTasks(t *testing.T) {
	t0 := epoch()
	s := newTestStore(t)
	late := mustAddTask(t, s, Task{Prompt: "late", Next: t0.Add(2 * time.Hour)})
	first := mustAddTask(t, s, Task{Prompt: "first", Next: t0})
	middle := mustAddTask(t, s, Task{Prompt: "middle", Next: t0.Add(time.Hour), Every: time.Hour})

	all, err := s.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	if got := taskIDs(all); !slices.Equal(got, []string{first.ID, middle.ID, late.ID}) {
		t.Errorf("Tasks = %v, want them by Next", got)
	}
	tests := []struct {
		name string
		now  time.Time
		want []string
	}{
		{"before any", t0.Add(-time.Second), nil},
		{"exactly at the first", t0, []string{first.ID}},
		{"between", t0.Add(90 * time.Minute), []string{first.ID, middle.ID}},
		{"after all", t0.Add(48 * time.Hour), []string{first.ID, middle.ID, late.ID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			due, err := s.DueTasks(tt.now)
			if err != nil {
				t.Fatal(err)
			}
			if got := taskIDs(due); !slices.Equal(got, tt.want) {
				t.Errorf("DueTasks(%v) = %v, want %v", tt.now, got, tt.want)
			}
		})
	}
}

func taskIDs(tasks []Task) []string {
	var out []string
	for _, t := range tasks {
		out = append(out, t.ID)
	}
	return out
}

func TestTaskLookup(t *testing.T) {
	t0 := epoch()
	s := newTestStore(t) // one second between ids: they share their first characters
	a := mustAddTask(t, s, Task{Prompt: "a", Next: t0})
	b := mustAddTask(t, s, Task{Prompt: "b", Next: t0})
	if a.ID[:4] != b.ID[:4] || a.ID[:10] == b.ID[:10] {
		t.Fatalf("ids %s and %s do not share a 4-character prefix only", a.ID, b.ID)
	}
	tests := []struct {
		name string
		ref  string
		want string // id; "" for an error
		kind error
	}{
		{"the id", a.ID, a.ID, nil},
		{"the id in lower case", strings.ToLower(b.ID), b.ID, nil},
		{"a unique prefix", a.ID[:10], a.ID, nil},
		{"a shared prefix", a.ID[:4], "", ErrAmbiguous},
		{"the short id shown", ShortTaskID(a.ID), a.ID, nil},
		{"the short id in lower case", strings.ToLower(ShortTaskID(b.ID)), b.ID, nil},
		{"a unique end of four", b.ID[len(b.ID)-4:], b.ID, nil},
		{"too short an end", b.ID[len(b.ID)-3:], "", ErrTaskNotFound},
		{"too short a prefix", a.ID[:3], "", ErrTaskNotFound},
		{"no such id", "01ZZZZZZZZZZZZZZZZZZZZZZZZ", "", ErrTaskNotFound},
		{"nothing", "", "", ErrTaskNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Task(tt.ref)
			if tt.kind != nil {
				if !errors.Is(err, tt.kind) {
					t.Errorf("Task(%q) = %+v, %v; want %v", tt.ref, got, err, tt.kind)
				}
				return
			}
			if err != nil || got.ID != tt.want {
				t.Errorf("Task(%q) = %s, %v; want %s", tt.ref, got.ID, err, tt.want)
			}
		})
	}
}

func TestRemoveTask(t *testing.T) {
	t0 := epoch()
	s := newTestStore(t)
	gone := mustAddTask(t, s, Task{Prompt: "gone", Next: t0})
	kept := mustAddTask(t, s, Task{Prompt: "kept", Next: t0})
	if err := s.RemoveTask(strings.ToLower(gone.ID[:12])); err != nil {
		t.Fatalf("RemoveTask by prefix: %v", err)
	}
	if _, err := s.Task(gone.ID); !errors.Is(err, ErrTaskNotFound) {
		t.Errorf("Task after RemoveTask = %v, want ErrTaskNotFound", err)
	}
	if err := s.RemoveTask(gone.ID); !errors.Is(err, ErrTaskNotFound) {
		t.Errorf("removing it again = %v, want ErrTaskNotFound", err)
	}
	if all, _ := s.Tasks(); !slices.Equal(taskIDs(all), []string{kept.ID}) {
		t.Errorf("Tasks = %v, want only %s", taskIDs(all), kept.ID)
	}
}

func TestFinishTask(t *testing.T) {
	t0 := epoch()
	boom := errors.New("the model endpoint returned 502")
	tests := []struct {
		name      string
		task      Task
		ran       time.Time
		err       error
		retry     time.Duration
		scheduled bool
		want      Task // Next, LastRun, LastError, Failures, Runs
	}{
		{"a one-shot success removes it",
			Task{Next: t0}, t0.Add(time.Minute), nil, 0,
			false, Task{Next: t0, LastRun: t0.Add(time.Minute), Runs: 1}},
		{"a repeating success moves to the next slot",
			Task{Next: t0, Every: time.Hour}, t0.Add(5 * time.Minute), nil, 0,
			true, Task{Next: t0.Add(time.Hour), LastRun: t0.Add(5 * time.Minute), Runs: 1}},
		{"missed intervals are run once, then the next future slot",
			Task{Next: t0, Every: time.Hour}, t0.Add(5*time.Hour + 30*time.Minute), nil, 0,
			true, Task{Next: t0.Add(6 * time.Hour), LastRun: t0.Add(5*time.Hour + 30*time.Minute), Runs: 1}},
		{"a run ending on a slot moves past it",
			Task{Next: t0, Every: time.Hour}, t0.Add(3 * time.Hour), nil, 0,
			true, Task{Next: t0.Add(4 * time.Hour), LastRun: t0.Add(3 * time.Hour), Runs: 1}},
		{"a run before its time uses up its slot",
			Task{Next: t0, Every: time.Hour}, t0.Add(-10 * time.Minute), nil, 0,
			true, Task{Next: t0.Add(time.Hour), LastRun: t0.Add(-10 * time.Minute), Runs: 1}},
		{"a repeating failure retries an interval after the run",
			Task{Next: t0, Every: time.Hour}, t0.Add(10 * time.Minute), boom, 0,
			true, Task{Next: t0.Add(70 * time.Minute), LastRun: t0.Add(10 * time.Minute), LastError: boom.Error(), Failures: 1}},
		{"a one-shot failure retries after the retry interval",
			Task{Next: t0}, t0.Add(time.Minute), boom, 15 * time.Minute,
			true, Task{Next: t0.Add(16 * time.Minute), LastRun: t0.Add(time.Minute), LastError: boom.Error(), Failures: 1}},
		{"a one-shot failure without a retry interval uses the default",
			Task{Next: t0}, t0, boom, 0,
			true, Task{Next: t0.Add(DefaultRetry), LastRun: t0, LastError: boom.Error(), Failures: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			tt.task.Prompt = "do it"
			added := mustAddTask(t, s, tt.task)
			got, scheduled, err := s.FinishTask(added.ID, tt.ran, tt.err, tt.retry)
			if err != nil {
				t.Fatal(err)
			}
			if scheduled != tt.scheduled {
				t.Errorf("still scheduled = %v, want %v", scheduled, tt.scheduled)
			}
			want := added
			want.Next, want.LastRun, want.LastError, want.Failures, want.Runs = tt.want.Next, tt.want.LastRun, tt.want.LastError, tt.want.Failures, tt.want.Runs
			if !sameTask(got, want) {
				t.Errorf("FinishTask = %+v\nwant        %+v", got, want)
			}
			stored, err := s.Task(added.ID)
			switch {
			case !scheduled && !errors.Is(err, ErrTaskNotFound):
				t.Errorf("a finished one-shot task is still stored: %+v, %v", stored, err)
			case scheduled && (err != nil || !sameTask(stored, want)):
				t.Errorf("stored task = %+v, %v\nwant %+v", stored, err, want)
			}
		})
	}
}

func TestMissedRunsRunOnce(t *testing.T) {
	t0 := epoch()
	s := newTestStore(t)
	task := mustAddTask(t, s, Task{Prompt: "hourly report", Next: t0, Every: time.Hour})
	// pincer was closed for five and a half hours.
	back := t0.Add(5*time.Hour + 30*time.Minute)
	due, err := s.DueTasks(back)
	if err != nil || !slices.Equal(taskIDs(due), []string{task.ID}) {
		t.Fatalf("DueTasks = %v, %v; want the task once", taskIDs(due), err)
	}
	if _, _, err := s.FinishTask(task.ID, back.Add(time.Minute), nil, 0); err != nil {
		t.Fatal(err)
	}
	for _, now := range []time.Time{back.Add(2 * time.Minute), t0.Add(6*time.Hour - time.Nanosecond)} {
		if due, _ := s.DueTasks(now); len(due) != 0 {
			t.Errorf("DueTasks(%v) after the catch-up run = %v, want none", now, taskIDs(due))
		}
	}
	if due, _ := s.DueTasks(t0.Add(6 * time.Hour)); len(due) != 1 {
		t.Errorf("the task is not due at its next slot")
	}
}

func TestFailureStaysVisibleUntilASuccess(t *testing.T) {
	t0 := epoch()
	s := newTestStore(t)
	task := mustAddTask(t, s, Task{Prompt: "deploy", Next: t0, Every: time.Hour})
	for i := 1; i <= 3; i++ {
		got, _, err := s.FinishTask(task.ID, t0.Add(time.Duration(i)*time.Hour), fmt.Errorf("attempt %d failed", i), 0)
		if err != nil {
			t.Fatal(err)
		}
		if got.Failures != i || got.LastError != fmt.Sprintf("attempt %d failed", i) || got.Runs != 0 {
			t.Errorf("after failure %d: %+v", i, got)
		}
	}
	got, _, err := s.FinishTask(task.ID, t0.Add(4*time.Hour), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got.Failures != 0 || got.LastError != "" || got.Runs != 1 {
		t.Errorf("after a success: %+v; want the failures cleared and one run", got)
	}
}

func TestFinishTaskRefusesBadInput(t *testing.T) {
	t0 := epoch()
	now := t0.Add(42 * time.Minute)
	s, err := Open(filepath.Join(t.TempDir(), fileName), Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	task := mustAddTask(t, s, Task{Prompt: "p", Next: t0})
	if _, _, err := s.FinishTask(task.ID, t0, errors.New("x"), -time.Minute); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("a negative retry = %v, want an error saying so", err)
	}
	if stored, _ := s.Task(task.ID); !sameTask(stored, task) {
		t.Errorf("a refused FinishTask changed the task: %+v", stored)
	}
	if _, _, err := s.FinishTask("01ZZZZZZZZZZZZZZZZZZZZZZZZ", t0, nil, 0); !errors.Is(err, ErrTaskNotFound) {
		t.Errorf("finishing an unknown task = %v, want ErrTaskNotFound", err)
	}
	got, _, err := s.FinishTask(task.ID, time.Time{}, errors.New("x"), time.Minute)
	if err != nil || !got.LastRun.Equal(now) || !got.Next.Equal(now.Add(time.Minute)) {
		t.Errorf("a zero run time = %+v, %v; want the store's clock (%v)", got, err, now)
	}
}

func TestDeletingASessionRemovesItsTasks(t *testing.T) {
	t0 := epoch()
	s := newTestStore(t)
	doomed := mustCreate(t, s, "doomed", "/w")
	mustCreate(t, s, "kept", "/w")
	mustAddTask(t, s, Task{Session: "doomed", Prompt: "p", Next: t0})
	keep := mustAddTask(t, s, Task{Session: "kept", Prompt: "p", Next: t0})
	free := mustAddTask(t, s, Task{Prompt: "p", Next: t0})
	if err := s.Delete(doomed.ID); err != nil {
		t.Fatal(err)
	}
	all, err := s.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	if got := taskIDs(all); !slices.Equal(got, []string{keep.ID, free.ID}) {
		t.Errorf("tasks after deleting the session = %v, want %v", got, []string{keep.ID, free.ID})
	}
}

func TestClaimTask(t *testing.T) {
	st := newTestStore(t)
	now := epoch()
	task, err := st.AddTask(Task{Prompt: "p", Dir: "/p", Next: now})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := st.ClaimTask(task.ID, now.Add(-time.Minute), time.Hour); err != nil || ok {
		t.Fatalf("claimed a task that is not due yet: %v %v", ok, err)
	}
	if ok, err := st.ClaimTask(task.ID, now, time.Hour); err != nil || !ok {
		t.Fatalf("first claim: %v %v", ok, err)
	}
	if ok, _ := st.ClaimTask(task.ID, now.Add(time.Minute), time.Hour); ok {
		t.Error("a second scheduler claimed a claimed task")
	}
	if due, _ := st.DueTasks(now.Add(time.Minute)); len(due) != 0 {
		t.Errorf("a claimed task is listed as due: %v", due)
	}
	// The claim runs out: the task is due again (its scheduler died).
	if due, _ := st.DueTasks(now.Add(2 * time.Hour)); len(due) != 1 {
		t.Errorf("after the lease the task is not due: %v", due)
	}
	// Release gives it back at once; finishing clears the claim.
	if err := st.ReleaseTask(task.ID); err != nil {
		t.Fatal(err)
	}
	if ok, _ := st.ClaimTask(task.ID, now.Add(time.Minute), time.Hour); !ok {
		t.Error("could not claim a released task")
	}
	if _, _, err := st.FinishTask(task.ID, now.Add(2*time.Minute), errors.New("x"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if due, _ := st.DueTasks(now.Add(10 * time.Minute)); len(due) != 1 {
		t.Errorf("a failed, finished task is not due for its retry: %v", due)
	}
	if _, err := st.ClaimTask(task.ID, now, 0); err == nil {
		t.Error("a zero lease was accepted")
	}
}

// TestTaskOriginIsKept: who scheduled a task (the model, a Telegram chat)
// survives its runs and a reopened store, since where its output goes and
// how lists mark it depend on it.
func TestTaskOriginIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	s, err := Open(path, Options{Now: epoch})
	if err != nil {
		t.Fatal(err)
	}
	sess := mustCreate(t, s, "tg-42", "/p")
	task := mustAddTask(t, s, Task{Session: sess.ID, Prompt: "check the build", Next: epoch(), Every: time.Hour, ByModel: true, Chat: 42})
	if _, _, err := s.FinishTask(task.ID, epoch(), errors.New("boom"), time.Minute); err != nil {
		t.Fatal(err)
	}
	reopened, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := reopened.Task(task.ID)
	if err != nil || !got.ByModel || got.Chat != 42 {
		t.Fatalf("after a run and a reopen: %+v, %v; want by_model and chat 42 kept", got, err)
	}
}

// TestTaskJSON: tasks in JSON have lower-case keys, the interval as a
// duration, and leave out what is unset (no "0001-01-01" last run).
func TestTaskJSON(t *testing.T) {
	once := Task{ID: "01J", Dir: "/p", Prompt: "p", Next: epoch(), Created: epoch()}
	every := Task{ID: "01K", Session: "S", Dir: "/p", Prompt: "q", Next: epoch(), Every: time.Hour, LastRun: epoch(), Runs: 2, ByModel: true, Chat: -5}
	for _, tc := range []struct {
		task      Task
		want, not []string
	}{
		{once, []string{`"id":"01J"`, `"prompt":"p"`, `"dir":"/p"`, `"next":"2025-07-01T12:00:00Z"`}, []string{"ID", "Every", "every", "last_run", "0001-01-01", "session", "runs", "by_model", "chat"}},
		{every, []string{`"every":"1h0m0s"`, `"last_run":"2025-07-01T12:00:00Z"`, `"runs":2`, `"by_model":true`, `"chat":-5`, `"session":"S"`}, []string{"LastRun", "failures"}},
	} {
		raw, err := json.Marshal(tc.task)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(raw), w) {
				t.Errorf("%s lacks %s", raw, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(string(raw), n) {
				t.Errorf("%s holds %s", raw, n)
			}
		}
	}
}
