package sessions

import (
	"os"
	"path/filepath"
	"pincer/e2e/e2etest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// twoScripts answers the main agent and its sub-agents from separate
// scripts: a request whose system prompt is a sub-agent's gets the next
// sub reply. Every request is checked against strict providers' rules.
type twoScripts struct {
	t         *testing.T
	mu        sync.Mutex
	main, sub []agenttest.Reply
	mainReqs  []agenttest.Request
	subReqs   []agenttest.Request
}

func newTwoScripts(t *testing.T, srv *agenttest.Server) *twoScripts {
	ts := &twoScripts{t: t}
	srv.SetResponder(func(r agenttest.Request) (agenttest.Reply, bool) {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if err := agenttest.CheckStrict(r.Raw); err != nil {
			t.Errorf("a request breaks strict provider rules: %v", err)
		}
		queue := &ts.main
		if subRequest(r) {
			queue = &ts.sub
			ts.subReqs = append(ts.subReqs, r)
		} else {
			ts.mainReqs = append(ts.mainReqs, r)
		}
		if len(*queue) == 0 {
			return agenttest.Error(500, "no scripted reply left"), true
		}
		reply := (*queue)[0]
		*queue = (*queue)[1:]
		return reply, true
	})
	return ts
}

func (ts *twoScripts) add(main, sub []agenttest.Reply) {
	ts.mu.Lock()
	ts.main = append(ts.main, main...)
	ts.sub = append(ts.sub, sub...)
	ts.mu.Unlock()
}

func (ts *twoScripts) requests() (main, sub []agenttest.Request) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]agenttest.Request(nil), ts.mainReqs...), append([]agenttest.Request(nil), ts.subReqs...)
}

func subRequest(r agenttest.Request) bool {
	return strings.HasPrefix(systemOf(r), "You are a sub-agent of pincer")
}

func systemOf(r agenttest.Request) string {
	msgs, _ := r.Body["messages"].([]any)
	if len(msgs) == 0 {
		return ""
	}
	c, _ := msgs[0].(map[string]any)["content"].(string)
	return c
}

func offered(r agenttest.Request) []string {
	var out []string
	ts, _ := r.Body["tools"].([]any)
	for _, t := range ts {
		fn := t.(map[string]any)["function"].(map[string]any)
		if fn["name"] != "load_tools" {
			out = append(out, fn["name"].(string))
			continue
		}
		// The deferred tools load_tools lists are offered too, by name.
		for _, line := range strings.Split(fn["description"].(string), "\n")[1:] {
			if name, _, ok := strings.Cut(strings.TrimPrefix(line, "- "), ":"); ok {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// toolResult is the content of the tool message answering call id.
func toolResult(r agenttest.Request, id string) (string, bool) {
	for _, m := range r.Body["messages"].([]any) {
		mm := m.(map[string]any)
		if mm["role"] == "tool" && mm["tool_call_id"] == id {
			s, _ := mm["content"].(string)
			return s, true
		}
	}
	return "", false
}

// TestTaskHeadless: with the real binary, a task call runs a sub-agent
// whose requests are valid, carry its own system prompt and offer only
// its read-only tools; its report is the task's result in the main
// agent's next request; `run --json` prints its events as "sub" lines
// marked with the task call's id, and its tokens apart.
func TestTaskHeadless(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	scripts := newTwoScripts(t, srv)
	scripts.add(
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "task", Arguments: `{"description":"find the answer","prompt":"Read notes.txt and report the answer."}`}),
			agenttest.Text("It is 42.", 5),
		},
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "read_file", Arguments: `{"path":"notes.txt"}`}),
			agenttest.Text("REPORT: notes.txt says 42.", 5),
		},
	)
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "the answer is 42\n")
	s.Write("AGENTS.md", "Project rule: be brief.\n")
	r := s.Run("", "run", "--json", "what is the answer?")
	if r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	main, sub := scripts.requests()
	if len(main) != 2 || len(sub) != 2 {
		t.Fatalf("%d main and %d sub requests, want 2 and 2", len(main), len(sub))
	}
	if got := offered(main[0]); !slices.Contains(got, "task") {
		t.Errorf("the main agent is not offered the task tool: %v", got)
	}
	want := []string{"glob", "grep", "read_file", "recall", "run_command", "tree_view"}
	for i, req := range sub {
		if got := offered(req); !slices.Equal(got, want) {
			t.Errorf("sub request %d offers %v, want %v", i, got, want)
		}
	}
	sys := systemOf(sub[0])
	for _, want := range []string{"final report", "Project rule: be brief.", s.Dir} {
		if !strings.Contains(sys, want) {
			t.Errorf("the sub-agent's system prompt lacks %q:\n%s", want, sys)
		}
	}
	if msgs := sub[0].Body["messages"].([]any); len(msgs) != 2 || msgs[1].(map[string]any)["content"] != "Read notes.txt and report the answer." {
		t.Errorf("the sub-agent's first request holds %v, want its prompt and the job only", msgs)
	}
	if got, ok := toolResult(main[1], "call_1"); !ok || got != "REPORT: notes.txt says 42." {
		t.Errorf("the task's result in the next main request is %q, want the report", got)
	}
	if strings.Contains(e2etest.RequestText(main[1]), "the answer is 42") {
		t.Error("the sub-agent's file read reached the main conversation")
	}
	lines := e2etest.JSONLines(t, r.Stdout)
	subs := e2etest.OfType(lines, "sub")
	if len(subs) == 0 {
		t.Fatalf("no sub lines:\n%s", r.Stdout)
	}
	sawRead := false
	for _, l := range subs {
		if l["parent"] != "call_1" {
			t.Errorf("sub line %v is not marked with the task call", l)
		}
		if ev := l["event"].(map[string]any); ev["type"] == "tool_result" && ev["name"] == "read_file" {
			sawRead = true
		}
	}
	if !sawRead {
		t.Error("the sub-agent's read_file is not among the sub lines")
	}
	for _, l := range e2etest.OfType(lines, "tool_result") {
		if l["name"] == "read_file" {
			t.Error("the sub-agent's read shows as the main agent's")
		}
	}
	res := e2etest.OfType(lines, "result")
	if len(res) != 1 || res[0]["sub_usage"] == nil {
		t.Fatalf("result line %v lacks sub_usage", res)
	}
}

// TestTaskUserAgentHeadless: an agent file's prompt, tools and model are
// used; its write still needs approval (refused without --yes, the
// refusal naming the sub-agent); a file naming an unknown tool is
// reported once and left out. The agent files are the project's, so the
// project is trusted first (until then they are not offered).
func TestTaskUserAgentHeadless(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	scripts := newTwoScripts(t, srv)
	scripts.add(
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "task", Arguments: `{"description":"write the note","prompt":"Write NOTE.md saying hi.","agent":"scribe"}`}),
			agenttest.Text("The note was refused.", 5),
		},
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "w1", Name: "write_file", Arguments: `{"path":"NOTE.md","content":"hi\n"}`}),
			agenttest.Text("REPORT: the write was refused.", 5),
		},
	)
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write(".pincer/agents/scribe.md", "---\nname: scribe\ndescription: writes notes\ntools:\n  - read_file\n  - write_file\nmodel: scribe-model\n---\nYou are Scribe, who writes tidy notes.\n")
	s.Write(".claude/agents/typo.md", "---\nname: typo\ndescription: broken\ntools: Read, Frobnicate\n---\nx\n")
	if r := s.Run("", "trust", "--yes"); r.Code != 0 {
		t.Fatalf("pincer trust: exit %d\n%s", r.Code, r.Stderr)
	}
	r := s.Run("", "run", "write a note")
	if r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	main, sub := scripts.requests()
	if len(sub) != 2 {
		t.Fatalf("%d sub requests, want 2", len(sub))
	}
	if got := offered(sub[0]); !slices.Equal(got, []string{"read_file", "write_file"}) {
		t.Errorf("the agent is offered %v, want its own tools", got)
	}
	if !strings.Contains(systemOf(sub[0]), "You are Scribe, who writes tidy notes.") {
		t.Errorf("the agent's prompt is not used:\n%s", systemOf(sub[0]))
	}
	if m := sub[0].Body["model"]; m != "scribe-model" {
		t.Errorf("the agent asked for %v, want scribe-model", m)
	}
	if m := main[0].Body["model"]; m != "test-model" {
		t.Errorf("the main agent asked for %v", m)
	}
	desc := ""
	for _, tl := range main[0].Body["tools"].([]any) {
		if fn := tl.(map[string]any)["function"].(map[string]any); fn["name"] == "task" {
			desc = fn["description"].(string)
		}
	}
	if !strings.Contains(desc, "- scribe: writes notes") || strings.Contains(desc, "typo") {
		t.Errorf("the task tool's description lists:\n%s", desc)
	}
	if _, err := readFile(s, "NOTE.md"); err == nil {
		t.Error("the sub-agent's write landed without approval")
	}
	if got, _ := toolResult(sub[1], "w1"); !strings.HasPrefix(got, "User cancelled the operation") {
		t.Errorf("the sub-agent read %q for its write", got)
	}
	if !strings.Contains(r.Stderr, "refused edit of NOTE.md asked by sub-agent scribe (write the note)") {
		t.Errorf("stderr does not name the sub-agent with the refusal:\n%s", r.Stderr)
	}
	if n := strings.Count(r.Stderr, `unknown tool "Frobnicate"`); n != 1 {
		t.Errorf("the bad agent file is reported %d times, want once:\n%s", n, r.Stderr)
	}
}

// TestTUITask drives the screen: a task's card nests its sub-agent's
// steps and collapses when done, the status line counts the sub-agent's
// tokens apart, a sub-agent's write opens the review dialog naming it,
// Esc stops a sub-agent waiting for the model, and a resumed session
// shows the steps again.
func TestTUITask(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	scripts := newTwoScripts(t, srv)
	scripts.add(
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "task", Arguments: `{"description":"survey the notes","prompt":"Read notes.txt."}`}),
			agenttest.Text("Surveyed.", 5),
			agenttest.Tools("", agenttest.Call{ID: "call_2", Name: "task", Arguments: `{"description":"write the note","prompt":"Write NOTE.md.","agent":"scribe"}`}),
			agenttest.Text("Left it.", 5),
			agenttest.Tools("", agenttest.Call{ID: "call_3", Name: "task", Arguments: `{"description":"wait forever","prompt":"Wait."}`}),
		},
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "s1", Name: "read_file", Arguments: `{"path":"notes.txt"}`}),
			{Body: agenttest.TextBody("REPORT: the notes say milk.", 5, 12000, 345)},
			agenttest.Tools("", agenttest.Call{ID: "s2", Name: "write_file", Arguments: `{"path":"NOTE.md","content":"hi\n"}`}),
			agenttest.Text("REPORT: refused.", 5),
			{Body: agenttest.TextBody("never", 5, 1, 1)[:60], Hang: true, HangFor: time.Minute},
		},
	)
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "remember the milk\n")
	s.Write(".pincer/agents/scribe.md", "---\nname: scribe\ndescription: writes notes\ntools: read_file, write_file\n---\nYou write notes.\n")
	if r := s.Run("", "trust", "--yes"); r.Code != 0 { // the agent file is the project's
		t.Fatalf("pincer trust: exit %d\n%s", r.Code, r.Stderr)
	}
	ts := e2etest.NewTmuxScreen(t, s, 110, 32, "-s", "subs")
	ts.WaitFor("the screen", "Ask pincer")
	settle := func() { time.Sleep(400 * time.Millisecond) }

	ts.Keys("survey", "Enter")
	screen := ts.WaitFor("the task to finish", "task · survey the notes", "1 step · REPORT: the notes say milk.", "Surveyed.", "idle")
	if !strings.Contains(screen, "sub 12.") {
		t.Errorf("the status line does not count the sub-agent's tokens apart:\n%s", screen)
	}

	ts.Keys("note", "Enter")
	ts.WaitFor("the sub-agent's review", "Review the edit · asked by sub-agent scribe", "NOTE.md")
	settle()
	ts.Keys("n")
	ts.WaitFor("the answer", "Left it.", "idle", "task · write the note (scribe)")
	if _, err := readFile(s, "NOTE.md"); err == nil {
		t.Error("the refused write landed")
	}

	ts.Keys("wait", "Enter")
	ts.WaitFor("the waiting sub-agent", "task · wait forever", "working…")
	ts.Keys("Escape")
	ts.WaitFor("the turn to stop", "idle")

	ts.Keys("C-c", "C-c")
	ts.WaitFor("pincer to exit", "[pincer exited]")
	again := e2etest.NewTmuxScreen(t, s, 110, 32, "-s", "subs")
	again.WaitFor("the resumed session", "Resumed session subs", "task · survey the notes", "1 step · REPORT: the notes say milk.", "sub 12.")
}

// readFile reads a file of the sandbox's project.
func readFile(s *e2etest.Sandbox, name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(s.Dir, name))
}
