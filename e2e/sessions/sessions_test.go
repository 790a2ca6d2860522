package sessions

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/session"
)

func TestSessionPersistsAcrossRuns(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "glob", Arguments: `{"pattern":"*"}`}),
		agenttest.Text("first answer", 5),
		agenttest.Text("second answer", 5),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	if r := s.Run("", "run", "-s", "work", "first question"); r.Code != 0 {
		t.Fatalf("first run: %d %s", r.Code, r.Stderr)
	}
	// A new process, a different model flag absent: the session's model is used.
	s.Env = append(s.Env, "PINCER_MODEL=other-model")
	if r := s.Run("", "run", "--session", "work", "second question"); r.Code != 0 {
		t.Fatalf("second run: %d %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if got := strings.Join(e2etest.UserContents(last), "|"); got != "first question|second question" {
		t.Errorf("resumed request has user messages %q", got)
	}
	if last.Body["model"] != "test-model" {
		t.Errorf("resumed with model %v, want the session's test-model", last.Body["model"])
	}
	if last.Strict != nil {
		t.Errorf("resumed request breaks strict rules: %v", last.Strict)
	}
	doc := s.Exported("work")
	if len(doc.Messages) != 6 || doc.Session.Name != "work" || doc.Session.MessageCount != 6 {
		t.Errorf("stored %d messages (count %d), want 6", len(doc.Messages), doc.Session.MessageCount)
	}
	// -c picks the latest session of this directory.
	srv.Add(agenttest.Text("third", 5))
	if r := s.Run("", "run", "-c", "third question"); r.Code != 0 {
		t.Fatalf("-c run: %d %s", r.Code, r.Stderr)
	}
	if n := len(s.Exported("work").Messages); n != 8 {
		t.Errorf("after -c the session has %d messages, want 8", n)
	}
}

// TestKilledMidStreamSessionIntact kills pincer with SIGKILL while an
// answer streams, then reopens the session: every finished message is
// there, the file is intact, and the conversation goes on.
func TestKilledMidStreamSessionIntact(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL needs a Unix system")
	}
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "glob", Arguments: `{"pattern":"*"}`}),
		agenttest.Reply{Body: `data: {"choices":[{"index":0,"delta":{"content":"streaming…"}}]}` + "\n\n", Hang: true},
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	cmd := exec.Command(e2etest.Binary(t), "run", "-s", "crash", "look around")
	cmd.Dir, cmd.Env = s.Dir, s.Env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(srv.Requests()) < 2 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("pincer never sent the second request")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // mid-stream
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	doc := s.Exported("crash")
	roles := []string{}
	for _, m := range doc.Messages {
		roles = append(roles, string(m.Role))
	}
	if got := strings.Join(roles, " "); got != "user assistant tool" {
		t.Fatalf("stored roles %q, want the three finished messages", got)
	}
	srv.Add(agenttest.Text("recovered", 5))
	if r := s.Run("", "run", "-s", "crash", "go on"); r.Code != 0 {
		t.Fatalf("resume after kill: %d %s", r.Code, r.Stderr)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if last.Strict != nil {
		t.Errorf("the request after a crash breaks strict rules: %v", last.Strict)
	}
	if got := strings.Join(e2etest.UserContents(last), "|"); got != "look around|go on" {
		t.Errorf("user messages after the crash %q", got)
	}
}

func TestTwoProcessesShareTheStore(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	slow := agenttest.Text(strings.Repeat("word ", 60), 5)
	slow.Delay = 5 * time.Millisecond
	srv.SetFallback(slow)
	s := e2etest.NewSandbox(t, srv.BaseURL())
	var wg sync.WaitGroup
	results := make([]e2etest.Result, 2)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = s.Run("", "run", "-s", []string{"left", "right"}[i], "talk")
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.Code != 0 {
			t.Errorf("process %d: exit %d: %s", i, r.Code, r.Stderr)
		}
	}
	for _, name := range []string{"left", "right"} {
		if doc := s.Exported(name); len(doc.Messages) != 2 {
			t.Errorf("session %s has %d messages, want 2", name, len(doc.Messages))
		}
	}
}

func TestSummaryPersistedAndUsedOnResume(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetResponder(func(r agenttest.Request) (agenttest.Reply, bool) {
		msgs := r.Body["messages"].([]any)
		if c, _ := msgs[0].(map[string]any)["content"].(string); strings.Contains(c, "You are compressing") {
			return agenttest.Text("SUMMARY: the user wants short answers.", 50), true
		}
		return agenttest.Text(strings.Repeat("a long answer ", 80), 200), true
	})
	s := e2etest.NewSandbox(t, srv.BaseURL())
	for i := 0; i < 8; i++ {
		if r := s.Run("", "run", "-s", "long", "--context-window", "8000", "question "+strings.Repeat("x", 1600)); r.Code != 0 {
			t.Fatalf("run %d: %d %s", i, r.Code, r.Stderr)
		}
	}
	doc := s.Exported("long")
	if !strings.Contains(doc.Session.Summary, "SUMMARY: the user wants short answers.") || doc.Session.SummaryThrough == 0 {
		t.Fatalf("no summary stored: %+v", doc.Session)
	}
	// The next run sends the summary and not the summarised messages.
	if r := s.Run("", "run", "-s", "long", "--context-window", "8000", "last"); r.Code != 0 {
		t.Fatalf("resume: %d %s", r.Code, r.Stderr)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	msgs := last.Body["messages"].([]any)
	if c := msgs[1].(map[string]any)["content"].(string); !strings.Contains(c, "SUMMARY: the user wants short answers.") {
		t.Errorf("second message of the resumed request is %q, want the summary", c)
	}
	if n := len(e2etest.UserContents(last)); n >= 9 {
		t.Errorf("resumed request carries %d user messages; the summarised ones should be left out", n)
	}
	if last.Strict != nil {
		t.Errorf("request after compression breaks strict rules: %v", last.Strict)
	}
	// The full history is still in the store.
	if len(doc.Messages) < 16 {
		t.Errorf("store has %d messages; compression must not delete history", len(doc.Messages))
	}
}

func TestSessionsCommands(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("answer", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	if r := s.Run("", "run", "-s", "alpha", "fix the parser"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	// list
	r := s.Run("", "sessions")
	if r.Code != 0 || !strings.Contains(r.Stdout, "alpha") || !strings.Contains(r.Stdout, "fix the parser") {
		t.Errorf("sessions: %d %q", r.Code, r.Stdout)
	}
	var list []session.Session
	if r := s.Run("", "sessions", "--json"); json.Unmarshal([]byte(r.Stdout), &list) != nil || len(list) != 1 || list[0].Name != "alpha" {
		t.Errorf("sessions --json: %q", r.Stdout)
	}
	// rename; the old name is gone, the new one works
	if r := s.Run("", "sessions", "rename", "alpha", "beta"); r.Code != 0 {
		t.Errorf("rename: %s", r.Stderr)
	}
	if r := s.Run("", "sessions", "show", "alpha"); r.Code == 0 || !strings.Contains(r.Stderr, "alpha") {
		t.Errorf("show of the old name: exit %d %q", r.Code, r.Stderr)
	}
	// fork: independent copy
	if r := s.Run("", "sessions", "fork", "beta", "gamma"); r.Code != 0 || !strings.Contains(r.Stdout, "pincer -s gamma") {
		t.Errorf("fork: %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	if r := s.Run("", "run", "-s", "gamma", "only in the fork"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	if b, g := len(s.Exported("beta").Messages), len(s.Exported("gamma").Messages); b != 2 || g != 4 {
		t.Errorf("beta %d, gamma %d messages; want 2 and 4", b, g)
	}
	// name taken
	if r := s.Run("", "sessions", "rename", "gamma", "beta"); r.Code == 0 || !strings.Contains(r.Stderr, "beta") {
		t.Errorf("renaming onto a taken name: exit %d %q", r.Code, r.Stderr)
	}
	// export
	r = s.Run("", "sessions", "export", "beta", "--format", "markdown")
	if r.Code != 0 || !strings.Contains(r.Stdout, "fix the parser") || !strings.Contains(r.Stdout, "answer") {
		t.Errorf("export markdown: %d %q", r.Code, r.Stdout)
	}
	out := filepath.Join(s.Dir, "beta.json")
	if r := s.Run("", "sessions", "export", "beta", "--format", "json", "-o", out); r.Code != 0 {
		t.Errorf("export json: %s", r.Stderr)
	}
	if data, err := os.ReadFile(out); err != nil || !json.Valid(data) {
		t.Errorf("exported file: %v", err)
	}
	if r := s.Run("", "sessions", "export", "beta", "--format", "pdf"); r.Code != 2 || !strings.Contains(r.Stderr, "markdown or json") {
		t.Errorf("bad format: %d %q", r.Code, r.Stderr)
	}
	// rm asks; "n" keeps it, --yes deletes
	if r := s.Run("n\n", "sessions", "rm", "beta"); r.Code == 0 {
		t.Error("rm without yes deleted or succeeded")
	}
	if len(s.Exported("beta").Messages) != 2 {
		t.Error("the session was deleted although the answer was no")
	}
	if r := s.Run("", "sessions", "rm", "beta", "--yes"); r.Code != 0 {
		t.Errorf("rm --yes: %s", r.Stderr)
	}
	if r := s.Run("", "sessions", "show", "beta"); r.Code == 0 {
		t.Error("deleted session still shows")
	}
}

func TestDamagedStoreIsNotOverwritten(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(agenttest.Text("hi", 5))
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	dbPath := filepath.Join(s.Home, "data", "pincer.db")
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o700); err != nil {
		t.Fatal(err)
	}
	garbage := []byte(strings.Repeat("not a database ", 1000))
	if err := os.WriteFile(dbPath, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.Run("", "run", "-s", "x", "hi")
	if r.Code == 0 || !strings.Contains(r.Stderr, dbPath) {
		t.Errorf("exit %d, stderr %q; want an error naming %s", r.Code, r.Stderr, dbPath)
	}
	if data, _ := os.ReadFile(dbPath); string(data) != string(garbage) {
		t.Error("the damaged file was changed")
	}
	// Without -s, the run still works, unsaved, and says so.
	r = s.Run("", "run", "hi")
	if r.Code != 0 || !strings.Contains(r.Stderr, "will not be saved") {
		t.Errorf("unsaved run: exit %d, stderr %q", r.Code, r.Stderr)
	}
}

// TestScheduledTaskRunsHeadless schedules a one-shot task in a session and
// runs the scheduler once: the task's prompt and the answer are stored in
// the session, and the task is gone.
func TestScheduledTaskRunsHeadless(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(agenttest.Text("first answer", 5), agenttest.Text("The nightly check passed.", 5))
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	if r := s.Run("", "run", "-s", "night", "hello"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	r := s.Run("", "tasks", "add", "-s", "night", "--in", "0s", "check", "the", "nightly", "build")
	if r.Code != 0 || !strings.Contains(r.Stdout, "check the nightly build") {
		t.Fatalf("tasks add: %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	if r := s.Run("", "tasks", "list"); !strings.Contains(r.Stdout, "check the nightly build") || !strings.Contains(r.Stdout, "night") {
		t.Errorf("tasks list: %q", r.Stdout)
	}
	r = s.Run("", "tasks", "run", "--once")
	if r.Code != 0 || !strings.Contains(r.Stdout, "The nightly check passed.") || !strings.Contains(r.Stderr, "ran 1 task") {
		t.Fatalf("tasks run --once: %d\nstdout %q\nstderr %q", r.Code, r.Stdout, r.Stderr)
	}
	doc := s.Exported("night")
	n := len(doc.Messages)
	if n != 4 {
		t.Fatalf("session has %d messages, want 4", n)
	}
	task, answer := doc.Messages[2], doc.Messages[3]
	if task.Kind != "task" || task.Content != "[SYSTEM: AUTOMATED BACKGROUND TASK TRIGGERED]: check the nightly build" {
		t.Errorf("task message %+v", task)
	}
	if answer.Content != "The nightly check passed." {
		t.Errorf("answer %q", answer.Content)
	}
	if r := s.Run("", "tasks", "list"); !strings.Contains(r.Stdout, "No scheduled tasks") {
		t.Errorf("the one-shot task is still listed: %q", r.Stdout)
	}
	// The model saw the earlier conversation and the task prompt.
	last := srv.Requests()[len(srv.Requests())-1]
	if got := strings.Join(e2etest.UserContents(last), "|"); got != "hello|[SYSTEM: AUTOMATED BACKGROUND TASK TRIGGERED]: check the nightly build" {
		t.Errorf("user messages sent: %q", got)
	}
}

// TestRenameRefusesNamesThatLookLikeIDs: renaming a session to another
// session's short id, as lists show it, is refused with the reason and
// exit 2, and that id still opens the other session; creating a session
// under such a name with -s says no session has that id.
func TestRenameRefusesNamesThatLookLikeIDs(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("answer", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	for _, name := range []string{"rw2", "other"} {
		if r := s.Run("", "run", "-s", name, "hello from "+name); r.Code != 0 {
			t.Fatal(r.Stderr)
		}
	}
	other := s.Exported("other").Session.ID
	for _, id := range []string{other[:12], strings.ToLower(other[:8])} {
		r := s.Run("", "sessions", "rename", "rw2", id)
		if r.Code != 2 || !strings.Contains(r.Stderr, "looks like a session id") {
			t.Errorf("rename rw2 %s: exit %d %q; want 2 and the reason", id, r.Code, r.Stderr)
		}
	}
	if r := s.Run("", "sessions", "show", other[:12]); r.Code != 0 || !strings.Contains(r.Stdout, "hello from other") {
		t.Errorf("the short id no longer opens its session: exit %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	if r := s.Run("", "sessions", "show", "rw2"); r.Code != 0 || !strings.Contains(r.Stdout, "hello from rw2") {
		t.Errorf("rw2 lost its name: exit %d %q", r.Code, r.Stderr)
	}
	r := s.Run("", "run", "-s", "01ZZZZZZ", "hi")
	if r.Code != 2 || !strings.Contains(r.Stderr, `no session is named "01ZZZZZZ" or has an id starting with it`) {
		t.Errorf("run -s with an id that is not there: exit %d %q", r.Code, r.Stderr)
	}
}
