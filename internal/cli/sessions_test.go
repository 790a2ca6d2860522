package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/session"
)

// exported reads a session back through the CLI as a person would.
func exported(t *testing.T, s *sandbox, name string) session.Document {
	t.Helper()
	r := s.run("", "sessions", "show", name, "--json")
	if r.code != 0 {
		t.Fatalf("sessions show %s: exit %d: %s", name, r.code, r.stderr)
	}
	var doc session.Document
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("sessions show --json: %v\n%s", err, r.stdout)
	}
	return doc
}

func userContents(req agenttest.Request) []string {
	var out []string
	for _, m := range req.Body["messages"].([]any) {
		mm := m.(map[string]any)
		if mm["role"] == "user" {
			out = append(out, mm["content"].(string))
		}
	}
	return out
}

func TestSessionPersistsAcrossRuns(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "glob", Arguments: `{"pattern":"*"}`}),
		agenttest.Text("first answer", 5),
		agenttest.Text("second answer", 5),
	)
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	if r := s.run("", "run", "-s", "work", "first question"); r.code != 0 {
		t.Fatalf("first run: %d %s", r.code, r.stderr)
	}
	// A new process, a different model flag absent: the session's model is used.
	s.env = append(s.env, "PINCER_MODEL=other-model")
	if r := s.run("", "run", "--session", "work", "second question"); r.code != 0 {
		t.Fatalf("second run: %d %s", r.code, r.stderr)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if got := strings.Join(userContents(last), "|"); got != "first question|second question" {
		t.Errorf("resumed request has user messages %q", got)
	}
	if last.Body["model"] != "test-model" {
		t.Errorf("resumed with model %v, want the session's test-model", last.Body["model"])
	}
	if last.Strict != nil {
		t.Errorf("resumed request breaks strict rules: %v", last.Strict)
	}
	doc := exported(t, s, "work")
	if len(doc.Messages) != 6 || doc.Session.Name != "work" || doc.Session.MessageCount != 6 {
		t.Errorf("stored %d messages (count %d), want 6", len(doc.Messages), doc.Session.MessageCount)
	}
	// -c picks the latest session of this directory.
	srv.Add(agenttest.Text("third", 5))
	if r := s.run("", "run", "-c", "third question"); r.code != 0 {
		t.Fatalf("-c run: %d %s", r.code, r.stderr)
	}
	if n := len(exported(t, s, "work").Messages); n != 8 {
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
	s := newSandbox(t, srv.BaseURL())
	cmd := exec.Command(binary(t), "run", "-s", "crash", "look around")
	cmd.Dir, cmd.Env = s.dir, s.env
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

	doc := exported(t, s, "crash")
	roles := []string{}
	for _, m := range doc.Messages {
		roles = append(roles, string(m.Role))
	}
	if got := strings.Join(roles, " "); got != "user assistant tool" {
		t.Fatalf("stored roles %q, want the three finished messages", got)
	}
	srv.Add(agenttest.Text("recovered", 5))
	if r := s.run("", "run", "-s", "crash", "go on"); r.code != 0 {
		t.Fatalf("resume after kill: %d %s", r.code, r.stderr)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if last.Strict != nil {
		t.Errorf("the request after a crash breaks strict rules: %v", last.Strict)
	}
	if got := strings.Join(userContents(last), "|"); got != "look around|go on" {
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
	s := newSandbox(t, srv.BaseURL())
	var wg sync.WaitGroup
	results := make([]runResult, 2)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = s.run("", "run", "-s", []string{"left", "right"}[i], "talk")
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Errorf("process %d: exit %d: %s", i, r.code, r.stderr)
		}
	}
	for _, name := range []string{"left", "right"} {
		if doc := exported(t, s, name); len(doc.Messages) != 2 {
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
	s := newSandbox(t, srv.BaseURL())
	for i := 0; i < 8; i++ {
		if r := s.run("", "run", "-s", "long", "--context-window", "8000", "question "+strings.Repeat("x", 1600)); r.code != 0 {
			t.Fatalf("run %d: %d %s", i, r.code, r.stderr)
		}
	}
	doc := exported(t, s, "long")
	if !strings.Contains(doc.Session.Summary, "SUMMARY: the user wants short answers.") || doc.Session.SummaryThrough == 0 {
		t.Fatalf("no summary stored: %+v", doc.Session)
	}
	// The next run sends the summary and not the summarised messages.
	if r := s.run("", "run", "-s", "long", "--context-window", "8000", "last"); r.code != 0 {
		t.Fatalf("resume: %d %s", r.code, r.stderr)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	msgs := last.Body["messages"].([]any)
	if c := msgs[1].(map[string]any)["content"].(string); !strings.Contains(c, "SUMMARY: the user wants short answers.") {
		t.Errorf("second message of the resumed request is %q, want the summary", c)
	}
	if n := len(userContents(last)); n >= 9 {
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
	s := newSandbox(t, srv.BaseURL())
	if r := s.run("", "run", "-s", "alpha", "fix the parser"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	// list
	r := s.run("", "sessions")
	if r.code != 0 || !strings.Contains(r.stdout, "alpha") || !strings.Contains(r.stdout, "fix the parser") {
		t.Errorf("sessions: %d %q", r.code, r.stdout)
	}
	var list []session.Session
	if r := s.run("", "sessions", "--json"); json.Unmarshal([]byte(r.stdout), &list) != nil || len(list) != 1 || list[0].Name != "alpha" {
		t.Errorf("sessions --json: %q", r.stdout)
	}
	// rename; the old name is gone, the new one works
	if r := s.run("", "sessions", "rename", "alpha", "beta"); r.code != 0 {
		t.Errorf("rename: %s", r.stderr)
	}
	if r := s.run("", "sessions", "show", "alpha"); r.code == 0 || !strings.Contains(r.stderr, "alpha") {
		t.Errorf("show of the old name: exit %d %q", r.code, r.stderr)
	}
	// fork: independent copy
	if r := s.run("", "sessions", "fork", "beta", "gamma"); r.code != 0 || !strings.Contains(r.stdout, "pincer -s gamma") {
		t.Errorf("fork: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := s.run("", "run", "-s", "gamma", "only in the fork"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if b, g := len(exported(t, s, "beta").Messages), len(exported(t, s, "gamma").Messages); b != 2 || g != 4 {
		t.Errorf("beta %d, gamma %d messages; want 2 and 4", b, g)
	}
	// name taken
	if r := s.run("", "sessions", "rename", "gamma", "beta"); r.code == 0 || !strings.Contains(r.stderr, "beta") {
		t.Errorf("renaming onto a taken name: exit %d %q", r.code, r.stderr)
	}
	// export
	r = s.run("", "sessions", "export", "beta", "--format", "markdown")
	if r.code != 0 || !strings.Contains(r.stdout, "fix the parser") || !strings.Contains(r.stdout, "answer") {
		t.Errorf("export markdown: %d %q", r.code, r.stdout)
	}
	out := filepath.Join(s.dir, "beta.json")
	if r := s.run("", "sessions", "export", "beta", "--format", "json", "-o", out); r.code != 0 {
		t.Errorf("export json: %s", r.stderr)
	}
	if data, err := os.ReadFile(out); err != nil || !json.Valid(data) {
		t.Errorf("exported file: %v", err)
	}
	if r := s.run("", "sessions", "export", "beta", "--format", "pdf"); r.code != 2 || !strings.Contains(r.stderr, "markdown or json") {
		t.Errorf("bad format: %d %q", r.code, r.stderr)
	}
	// rm asks; "n" keeps it, --yes deletes
	if r := s.run("n\n", "sessions", "rm", "beta"); r.code == 0 {
		t.Error("rm without yes deleted or succeeded")
	}
	if len(exported(t, s, "beta").Messages) != 2 {
		t.Error("the session was deleted although the answer was no")
	}
	if r := s.run("", "sessions", "rm", "beta", "--yes"); r.code != 0 {
		t.Errorf("rm --yes: %s", r.stderr)
	}
	if r := s.run("", "sessions", "show", "beta"); r.code == 0 {
		t.Error("deleted session still shows")
	}
}

func TestDamagedStoreIsNotOverwritten(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(agenttest.Text("hi", 5))
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	dbPath := filepath.Join(s.home, "data", "pincer.db")
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o700); err != nil {
		t.Fatal(err)
	}
	garbage := []byte(strings.Repeat("not a database ", 1000))
	if err := os.WriteFile(dbPath, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.run("", "run", "-s", "x", "hi")
	if r.code == 0 || !strings.Contains(r.stderr, dbPath) {
		t.Errorf("exit %d, stderr %q; want an error naming %s", r.code, r.stderr, dbPath)
	}
	if data, _ := os.ReadFile(dbPath); string(data) != string(garbage) {
		t.Error("the damaged file was changed")
	}
	// Without -s, the run still works, unsaved, and says so.
	r = s.run("", "run", "hi")
	if r.code != 0 || !strings.Contains(r.stderr, "will not be saved") {
		t.Errorf("unsaved run: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestScheduledTaskRunsHeadless schedules a one-shot task in a session and
// runs the scheduler once: the task's prompt and the answer are stored in
// the session, and the task is gone.
func TestScheduledTaskRunsHeadless(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(agenttest.Text("first answer", 5), agenttest.Text("The nightly check passed.", 5))
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	if r := s.run("", "run", "-s", "night", "hello"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := s.run("", "tasks", "add", "-s", "night", "--in", "0s", "check", "the", "nightly", "build")
	if r.code != 0 || !strings.Contains(r.stdout, "check the nightly build") {
		t.Fatalf("tasks add: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := s.run("", "tasks", "list"); !strings.Contains(r.stdout, "check the nightly build") || !strings.Contains(r.stdout, "night") {
		t.Errorf("tasks list: %q", r.stdout)
	}
	r = s.run("", "tasks", "run", "--once")
	if r.code != 0 || !strings.Contains(r.stdout, "The nightly check passed.") || !strings.Contains(r.stderr, "ran 1 task") {
		t.Fatalf("tasks run --once: %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	doc := exported(t, s, "night")
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
	if r := s.run("", "tasks", "list"); !strings.Contains(r.stdout, "No scheduled tasks") {
		t.Errorf("the one-shot task is still listed: %q", r.stdout)
	}
	// The model saw the earlier conversation and the task prompt.
	last := srv.Requests()[len(srv.Requests())-1]
	if got := strings.Join(userContents(last), "|"); got != "hello|[SYSTEM: AUTOMATED BACKGROUND TASK TRIGGERED]: check the nightly build" {
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
	s := newSandbox(t, srv.BaseURL())
	for _, name := range []string{"rw2", "other"} {
		if r := s.run("", "run", "-s", name, "hello from "+name); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	other := exported(t, s, "other").Session.ID
	for _, id := range []string{other[:12], strings.ToLower(other[:8])} {
		r := s.run("", "sessions", "rename", "rw2", id)
		if r.code != 2 || !strings.Contains(r.stderr, "looks like a session id") {
			t.Errorf("rename rw2 %s: exit %d %q; want 2 and the reason", id, r.code, r.stderr)
		}
	}
	if r := s.run("", "sessions", "show", other[:12]); r.code != 0 || !strings.Contains(r.stdout, "hello from other") {
		t.Errorf("the short id no longer opens its session: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := s.run("", "sessions", "show", "rw2"); r.code != 0 || !strings.Contains(r.stdout, "hello from rw2") {
		t.Errorf("rw2 lost its name: exit %d %q", r.code, r.stderr)
	}
	r := s.run("", "run", "-s", "01ZZZZZZ", "hi")
	if r.code != 2 || !strings.Contains(r.stderr, `no session is named "01ZZZZZZ" or has an id starting with it`) {
		t.Errorf("run -s with an id that is not there: exit %d %q", r.code, r.stderr)
	}
}
