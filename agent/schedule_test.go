package agent

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/session"
	"pincer/tools/sessiontools"
)

// clock is a settable time for the store and the scheduler.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newTaskStore(t *testing.T, c *clock) *session.Store {
	t.Helper()
	st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{Now: c.now, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSchedulerTiming(t *testing.T) {
	start := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		name     string
		task     session.Task // Next relative to start via Next field
		advance  []time.Duration
		failAt   map[int]bool // run number (from 1) that fails
		wantRuns int
		wantLeft bool          // still scheduled at the end
		wantNext time.Duration // from start, when still scheduled
		wantErr  string        // LastError at the end
	}{
		{name: "one-shot not yet due", task: session.Task{Prompt: "p", Next: start.Add(time.Hour)}, advance: []time.Duration{30 * time.Minute},
			wantRuns: 0, wantLeft: true, wantNext: time.Hour},
		{name: "one-shot due runs once and is removed", task: session.Task{Prompt: "p", Next: start.Add(10 * time.Minute)}, advance: []time.Duration{10 * time.Minute, time.Hour},
			wantRuns: 1, wantLeft: false},
		{name: "repeat reschedules", task: session.Task{Prompt: "p", Next: start.Add(time.Hour), Every: time.Hour}, advance: []time.Duration{time.Hour, time.Hour},
			wantRuns: 2, wantLeft: true, wantNext: 3 * time.Hour},
		{name: "missed runs run once", task: session.Task{Prompt: "p", Next: start.Add(time.Hour), Every: time.Hour}, advance: []time.Duration{5*time.Hour + 30*time.Minute},
			wantRuns: 1, wantLeft: true, wantNext: 6 * time.Hour},
		{name: "failure is retried at the next interval and visible", task: session.Task{Prompt: "p", Next: start.Add(time.Hour), Every: time.Hour}, advance: []time.Duration{time.Hour},
			failAt: map[int]bool{1: true}, wantRuns: 1, wantLeft: true, wantNext: 2 * time.Hour, wantErr: "boom"},
		{name: "failed one-shot is retried after the retry interval", task: session.Task{Prompt: "p", Next: start.Add(time.Minute)}, advance: []time.Duration{time.Minute, 10 * time.Minute},
			failAt: map[int]bool{1: true}, wantRuns: 2, wantLeft: false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &clock{t: start}
			st := newTaskStore(t, c)
			tc.task.Dir = "/p"
			task, err := st.AddTask(tc.task)
			if err != nil {
				t.Fatal(err)
			}
			runs := 0
			r, err := NewTaskRunner(st, 10*time.Minute, c.now)
			if err != nil {
				t.Fatal(err)
			}
			run := func(ctx context.Context, got session.Task) error {
				runs++
				if got.ID != task.ID {
					t.Errorf("ran task %s, want %s", got.ID, task.ID)
				}
				if tc.failAt[runs] {
					return errors.New("boom")
				}
				return nil
			}
			for _, d := range tc.advance {
				c.t = c.t.Add(d)
				if _, err := r.RunDue(context.Background(), nil, run); err != nil {
					t.Fatal(err)
				}
			}
			if runs != tc.wantRuns {
				t.Errorf("%d runs, want %d", runs, tc.wantRuns)
			}
			after, err := st.Task(task.ID)
			if left := err == nil; left != tc.wantLeft {
				t.Fatalf("task still scheduled = %v, want %v (err %v)", left, tc.wantLeft, err)
			}
			if tc.wantLeft {
				if !after.Next.Equal(start.Add(tc.wantNext)) {
					t.Errorf("next run at %s, want %s", after.Next, start.Add(tc.wantNext))
				}
				if after.LastError != tc.wantErr {
					t.Errorf("last error %q, want %q", after.LastError, tc.wantErr)
				}
			}
		})
	}
}

// TestScheduleToolAsksAndStores runs the schedule_task tool through the
// loop: it needs one approval, and once given the task is stored in this
// session.
func TestScheduleToolAsksAndStores(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	st := newTaskStore(t, c)
	sess, err := st.Create(session.Session{Dir: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 30,
		agenttest.Tools("", agenttest.Call{ID: "s1", Name: "schedule_task", Arguments: `{"prompt":"check CI","in":"30m"}`}),
		agenttest.Text("scheduled", 10))
	tool, err := sessiontools.ScheduleTool(st, sessiontools.TaskPlace{Dir: "/p"}, func() string { return sess.ID }, c.now)
	if err != nil {
		t.Fatal(err)
	}
	reg := h.agent.opts.Tools.List()
	all, err := newRegistryWith(reg, tool)
	if err != nil {
		t.Fatal(err)
	}
	h.agent.opts.Tools = all
	if _, err := h.run("remind me"); err != nil {
		t.Fatal(err)
	}
	if len(h.asked) != 1 || h.asked[0].Kind != ApproveAction || !strings.Contains(h.asked[0].Summary, "check CI") {
		t.Fatalf("asked %+v, want one action approval", h.asked)
	}
	ts, err := st.Tasks()
	if err != nil || len(ts) != 1 || ts[0].Session != sess.ID || ts[0].Prompt != "check CI" || !ts[0].Next.Equal(c.t.Add(30*time.Minute)) {
		t.Fatalf("stored tasks %+v, %v", ts, err)
	}
	if got := h.toolMessages(1)[0]["content"].(string); !strings.Contains(got, "check CI") || !strings.Contains(got, "/tasks") {
		t.Errorf("tool result %q", got)
	}
}

func TestRecallTool(t *testing.T) {
	st := newTaskStore(t, &clock{t: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)})
	add := func(name, dir string, texts ...string) string {
		s, err := st.Create(session.Session{Name: name, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range texts {
			if _, err := st.Append(s.ID, Message{Role: RoleUser, Content: x}); err != nil {
				t.Fatal(err)
			}
		}
		return s.ID
	}
	add("parser-fix", "/p", "the tokenizer panics on unterminated strings", "we decided to return an error instead")
	add("elsewhere", "/q", "unterminated strings in another project")
	current := add("now", "/p", "unterminated strings again")
	tool, err := sessiontools.RecallTool(st, sessiontools.RecallScope{Dir: "/p", AllProjects: true}, func() string { return current })
	if err != nil {
		t.Fatal(err)
	}
	run := func(args string) string {
		call, err := tool.Decode(args)
		if err != nil {
			t.Fatal(err)
		}
		r, err := call.Run(context.Background())
		if err != nil || r.IsError {
			t.Fatalf("recall %s: %v %q", args, err, r.Content)
		}
		return r.Content
	}
	got := run(`{"query":"unterminated strings"}`)
	if !strings.Contains(got, `"parser-fix"`) || strings.Contains(got, `"elsewhere"`) || strings.Contains(got, `"now"`) {
		t.Errorf("project recall:\n%s\nwant only parser-fix (not the other project, not this session)", got)
	}
	if !strings.Contains(got, "**unterminated**") {
		t.Errorf("the snippet does not mark the match:\n%s", got)
	}
	if all := run(`{"query":"unterminated strings","scope":"all"}`); !strings.Contains(all, `"elsewhere"`) {
		t.Errorf("scope all misses the other project:\n%s", all)
	}
	if none := run(`{"query":"kubernetes"}`); !strings.Contains(none, "Nothing found") {
		t.Errorf("no-match text: %s", none)
	}
	if _, err := tool.Decode(`{"query":"  "}`); err == nil {
		t.Error("an empty query was accepted")
	}
	r := StoreRecall{Store: st, Mode: RecallAlways, Scope: sessiontools.RecallScope{Dir: "/p"}, Current: func() string { return current }}
	if notes := r.Recall("tokenizer panics", nil); len(notes) == 0 || notes[0].SessionName != "parser-fix" {
		t.Errorf("StoreRecall.Recall = %+v, want parser-fix first", notes)
	}
}

func TestSchedulerSkipsTasksClaimedElsewhere(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	st := newTaskStore(t, c)
	task, err := st.AddTask(session.Task{Prompt: "p", Dir: "/p", Next: c.t})
	if err != nil {
		t.Fatal(err)
	}
	// Another scheduler (a screen, say) has claimed it.
	if ok, err := st.ClaimTask(task.ID, c.t, TaskLease); !ok || err != nil {
		t.Fatal(ok, err)
	}
	runs := 0
	r, err := NewTaskRunner(st, time.Minute, c.now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.RunDue(context.Background(), nil, func(context.Context, session.Task) error { runs++; return nil }); err != nil {
		t.Fatal(err)
	}
	if runs != 0 {
		t.Errorf("ran a task claimed by another scheduler")
	}
}

func TestNewTaskRunnerNeedsAnInterval(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	st := newTaskStore(t, c)
	for _, d := range []time.Duration{0, -time.Second} {
		if _, err := NewTaskRunner(st, d, c.now); err == nil || !strings.Contains(err.Error(), "scheduler_interval") {
			t.Errorf("NewTaskRunner(%s) error %v, want one naming scheduler_interval", d, err)
		}
	}
	if _, err := NewTaskRunner(nil, time.Minute, c.now); err == nil {
		t.Error("NewTaskRunner without a store: no error")
	}
}

// TestTaskRunnerStepsAsTheScreenUsesThem: Claim takes only what accept
// takes and what nobody holds; Release makes it claimable again; Finish of
// a failed run reschedules it one interval later, the same retry RunDue
// gives.
func TestTaskRunnerStepsAsTheScreenUsesThem(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	st := newTaskStore(t, c)
	mine, err := st.AddTask(session.Task{Prompt: "mine", Dir: "/p", Next: c.t})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddTask(session.Task{Prompt: "other", Dir: "/q", Next: c.t}); err != nil {
		t.Fatal(err)
	}
	const interval = 7 * time.Minute
	r, err := NewTaskRunner(st, interval, c.now)
	if err != nil {
		t.Fatal(err)
	}
	here := func(t session.Task) bool { return t.Dir == "/p" }
	got, ok, err := r.Claim(here)
	if err != nil || !ok || got.ID != mine.ID {
		t.Fatalf("Claim = %s, %v, %v; want %s", got.ID, ok, err, mine.ID)
	}
	if _, ok, _ := r.Claim(here); ok {
		t.Fatal("a claimed task was claimed again")
	}
	if err := r.Release(got); err != nil {
		t.Fatal(err)
	}
	if got, ok, _ = r.Claim(here); !ok {
		t.Fatal("a released task could not be claimed")
	}
	after, scheduled, err := r.Finish(got, errors.New("boom"))
	if err != nil || !scheduled {
		t.Fatalf("Finish = %+v, %v, %v", after, scheduled, err)
	}
	if want := c.t.Add(interval); !after.Next.Equal(want) || after.LastError != "boom" {
		t.Errorf("after a failure: next %s, error %q; want %s, boom", after.Next, after.LastError, want)
	}
}

// TestRunDueReleasesAnInterruptedRun: a run cut by ctx leaves the task due
// and unclaimed, not held for the lease and not recorded as run.
func TestRunDueReleasesAnInterruptedRun(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	st := newTaskStore(t, c)
	task, err := st.AddTask(session.Task{Prompt: "p", Dir: "/p", Next: c.t})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewTaskRunner(st, time.Minute, c.now)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = r.RunDue(ctx, nil, func(context.Context, session.Task) error { cancel(); return context.Canceled })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("RunDue error %v, want context.Canceled", err)
	}
	after, err := st.Task(task.ID)
	if err != nil || after.Failures != 0 || after.LastError != "" || !after.LastRun.IsZero() {
		t.Fatalf("task after an interrupted run: %+v, %v; want it untouched", after, err)
	}
	if ok, err := st.ClaimTask(task.ID, c.t, TaskLease); !ok || err != nil {
		t.Errorf("the interrupted task is still claimed (%v, %v)", ok, err)
	}
}
