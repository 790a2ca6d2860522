package memory

import (
	"encoding/json"
	"pincer/e2e/e2etest"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// recallNoteOf returns the recall note of a request (the system message
// auto recall adds), or "".
func recallNoteOf(t *testing.T, r agenttest.Request) string {
	t.Helper()
	if err := agenttest.CheckStrict(r.Raw); err != nil {
		t.Errorf("request breaks a strict server's rules: %v", err)
	}
	msgs, _ := r.Body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		c, _ := mm["content"].(string)
		if mm["role"] == "system" && strings.HasPrefix(c, "Notes recalled automatically") {
			return c
		}
	}
	return ""
}

// memoryWorld is a project with a scripted model that answers "ok".
type memoryWorld struct {
	t   *testing.T
	srv *agenttest.Server
	s   *e2etest.Sandbox
}

func newMemoryWorld(t *testing.T) *memoryWorld {
	srv := agenttest.New()
	t.Cleanup(srv.Close)
	srv.SetFallback(agenttest.Text("ok", 2))
	return &memoryWorld{t: t, srv: srv, s: e2etest.NewSandbox(t, srv.BaseURL())}
}

// ask runs one prompt in a new session (extra flags first) and returns
// the recall note of its request and the run's JSON lines.
func (w *memoryWorld) ask(prompt string, flags ...string) (string, []map[string]any) {
	w.t.Helper()
	before := len(w.srv.Requests())
	args := append(append([]string{"run", "--json"}, flags...), prompt)
	r := w.s.Run("", args...)
	if r.Code != 0 {
		w.t.Fatalf("pincer %v: exit %d\n%s", args, r.Code, r.Stderr)
	}
	reqs := w.srv.Requests()
	if len(reqs) != before+1 {
		w.t.Fatalf("%d requests for one prompt", len(reqs)-before)
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			w.t.Fatalf("not a JSON line: %q", l)
		}
		lines = append(lines, v)
	}
	return recallNoteOf(w.t, reqs[before]), lines
}

func (w *memoryWorld) cli(args ...string) string {
	w.t.Helper()
	r := w.s.Run("", args...)
	if r.Code != 0 {
		w.t.Fatalf("pincer %v: exit %d\n%s", args, r.Code, r.Stderr)
	}
	return r.Stdout
}

const stagingFact = "Remember: the staging database runs on port 5433 because the old cluster still holds 5432."

// TestRecallWithTheBinary: with no configuration at all, a fact stated in
// one session is in the recall note of a related question in a new
// session, and the JSON output has a recall event with exactly that note;
// a greeting gets no note; a forgotten session is not recalled (and is
// again after unforget).
func TestRecallWithTheBinary(t *testing.T) {
	t.Parallel()
	w := newMemoryWorld(t)
	w.ask(stagingFact, "-s", "db-migration")

	note, lines := w.ask("which port does the staging database listen on?")
	if !strings.Contains(note, "5433") || !strings.Contains(note, `"db-migration"`) {
		t.Fatalf("the related question's request has no note of the fact:\n%q", note)
	}
	var recall map[string]any
	for _, l := range lines {
		if l["type"] == "recall" {
			recall = l
		}
	}
	if recall == nil || recall["text"] != note {
		t.Errorf("run --json printed recall event %v, want one whose text is the note sent", recall)
	} else if notes, _ := recall["notes"].([]any); len(notes) != 1 || notes[0].(map[string]any)["session"] != "db-migration" {
		t.Errorf("recall event notes = %v, want one from db-migration", recall["notes"])
	}

	for _, hi := range []string{"hi", "thanks!", "what can you do?"} {
		if note, lines := w.ask(hi); note != "" {
			t.Errorf("%q got a recall note:\n%s", hi, note)
		} else {
			for _, l := range lines {
				if l["type"] == "recall" {
					t.Errorf("%q printed a recall event", hi)
				}
			}
		}
	}

	w.cli("memory", "forget", "db-migration")
	if list := w.cli("sessions"); !strings.Contains(list, "(forgotten) Remember: the staging") {
		t.Errorf("pincer sessions does not mark the forgotten session:\n%s", list)
	}
	if note, _ := w.ask("which port does the staging database listen on?"); strings.Contains(note, "5433") {
		t.Errorf("a forgotten session was recalled:\n%s", note)
	}
	w.cli("memory", "unforget", "db-migration")
	if note, _ := w.ask("which port does the staging database listen on?"); !strings.Contains(note, "5433") {
		t.Errorf("after unforget the session is still not recalled:\n%q", note)
	}
}

// TestRecallIgnoresEverydayWordsWithTheBinary: prompts that recalled
// unrelated notes in the field share only an everyday word with what was
// said or saved before; through the binary they get no note and no recall
// event, while a question that names its subject still gets one.
func TestRecallIgnoresEverydayWordsWithTheBinary(t *testing.T) {
	t.Parallel()
	w := newMemoryWorld(t)
	w.ask(stagingFact+" Postgres listens there for one more quarter.", "-s", "db-migration")
	w.cli("memory", "add", "Never touch the generated files in internal/gen; make generate rewrites them.")
	for _, prompt := range []string{"listen to me", "one more thing", "touch a file", "run go vet"} {
		note, lines := w.ask(prompt)
		if note != "" {
			t.Errorf("%q got a recall note:\n%s", prompt, note)
		}
		for _, l := range lines {
			if l["type"] == "recall" {
				t.Errorf("%q printed a recall event", prompt)
			}
		}
	}
	if note, _ := w.ask("can I edit the generated files in internal/gen?"); !strings.Contains(note, "make generate") {
		t.Errorf("a question about internal/gen got no note of it:\n%q", note)
	}
}

// TestRecallKeepsPrivateSessionsAndSecretsOut: a session started with
// --private, or marked private afterwards, is never recalled; a secret in
// an old tool output never reaches another session's request.
func TestRecallKeepsPrivateSessionsAndSecretsOut(t *testing.T) {
	t.Parallel()
	w := newMemoryWorld(t)
	w.ask("The pelican queue worker restarts every 90 minutes because of the leak in libfoo.", "--private", "-s", "secret-project")
	w.ask("The heron cache warms up with the nightly cron at 03:15.", "-s", "later-private")
	w.cli("sessions", "private", "later-private")
	if note, _ := w.ask("how often does the pelican queue worker restart?"); note != "" {
		t.Errorf("a session started with --private was recalled:\n%s", note)
	}
	if note, _ := w.ask("when does the heron cache warm up with cron?"); note != "" {
		t.Errorf("a session marked private was recalled:\n%s", note)
	}
	if list := w.cli("sessions"); !strings.Contains(list, "(private) The heron cache") || !strings.Contains(list, "(private) The pelican") {
		t.Errorf("pincer sessions does not mark the private sessions:\n%s", list)
	}

	const token = "ghp_Zx8KqP2mW9vT4nR7sL1cY6bH3jD5fG0aE2uQ"
	w.s.Write("deploy.env", "DEPLOY_TOKEN="+token+"\nDEPLOY_HOST=ibis.internal.example\n")
	w.srv.Add(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "read_file", Arguments: `{"path":"deploy.env"}`}),
		agenttest.Text("The deploy settings are in deploy.env.", 4),
	)
	r := w.s.Run("", "run", "--yes", "-s", "ibis-deploy", "show me the ibis deploy settings")
	if r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	before := len(w.srv.Requests())
	note, _ := w.ask("what is the DEPLOY_TOKEN for the ibis deploy host?")
	if !strings.Contains(note, "ibis") {
		t.Errorf("the tool output was not recalled at all (the test proves nothing):\n%q", note)
	}
	for _, req := range w.srv.Requests()[before:] {
		if strings.Contains(string(req.Raw), token) || strings.Contains(string(req.Raw), "Zx8KqP2mW9vT4nR7sL1cY6bH3jD5fG0aE2uQ") {
			t.Errorf("the secret of an old tool output reached a new session's request:\n%s", req.Raw)
		}
	}
}

// TestRememberedNotesWithTheBinary: a note saved with 'pincer memory add'
// is recalled in a new session's related question, listed, edited and
// removed.
func TestRememberedNotesWithTheBinary(t *testing.T) {
	t.Parallel()
	w := newMemoryWorld(t)
	if out := w.cli("memory", "add", "The release branch is cut every second Tuesday by the release script."); !strings.Contains(out, "note 1") {
		t.Fatalf("memory add said %q", out)
	}
	note, _ := w.ask("when is the release branch cut?")
	if !strings.Contains(note, "second Tuesday") || !strings.Contains(note, "Saved note #1") {
		t.Errorf("the saved note was not recalled:\n%q", note)
	}
	if out := w.cli("memory", "list"); !strings.Contains(out, "second Tuesday") || !strings.HasPrefix(out, "ID") {
		t.Errorf("memory list:\n%s", out)
	}
	w.cli("memory", "edit", "1", "--text", "The release branch is cut every first Monday.")
	if note, _ := w.ask("when is the release branch cut?"); !strings.Contains(note, "first Monday") {
		t.Errorf("the edited note was not recalled:\n%q", note)
	}
	w.cli("memory", "rm", "1")
	if note, _ := w.ask("when is the release branch cut?"); strings.Contains(note, "Monday") {
		t.Errorf("a removed note was recalled:\n%q", note)
	}
	if out := w.cli("memory", "list"); !strings.Contains(out, "No notes") {
		t.Errorf("memory list after rm:\n%s", out)
	}
}

// TestTUIRememberAndRecall: /remember on the screen saves a note; a
// question about it shows the recall line, which expands (Tab, [, enter)
// to exactly what the model was given; /memory lists the recall and the
// note; and a new session's related question gets the note too.
func TestTUIRememberAndRecall(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("Noted.", 4))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	ts := e2etest.NewTmuxScreen(t, s, 110, 40, "-s", "mem-e2e")
	ts.WaitFor("the screen to open", "Ask pincer", "mem-e2e")

	ts.Keys("/remember The release branch is cut every second Tuesday.", "Enter")
	ts.WaitFor("the note to be saved", "Remembered as note #1")
	ts.Keys("when is the release branch cut?", "Enter")
	ts.WaitFor("the recall line and the answer", "recalled 1 note from saved memory", "Noted.", "idle")
	ts.Keys("Tab", "[", "[", "Enter")
	ts.WaitFor("the expanded recall", "Notes recalled automatically", "Saved note #1")
	// Esc drops the entry's focus, Esc again goes back to the input; each
	// alone, so the terminal does not read Esc and the next key as one
	// Alt chord.
	for range 2 {
		time.Sleep(300 * time.Millisecond)
		ts.Keys("Escape")
	}
	time.Sleep(300 * time.Millisecond)
	ts.Keys("/memory", "Enter")
	ts.WaitFor("the memory listing", "Recalled in this session", "Saved notes for this project")
	reqs := srv.Requests()
	if len(reqs) == 0 || !strings.Contains(recallNoteOf(t, reqs[len(reqs)-1]), "second Tuesday") {
		t.Fatalf("the screen's request has no recall note of the saved note")
	}
	ts.Keys("C-c")
	ts.Keys("C-c")
	ts.WaitFor("pincer to exit", "[pincer exited]")

	before := len(srv.Requests())
	if r := s.Run("", "run", "which day is the release branch cut on?"); r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	if note := recallNoteOf(t, srv.Requests()[before]); !strings.Contains(note, "second Tuesday") {
		t.Errorf("a new session's related question lacks the remembered note:\n%q", note)
	}
}
