package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/agent/llm"
	"pincer/safety"
	"pincer/tools"
)

// harness is an agent wired to a scripted server, the real tools in a
// temporary project, the real classifier and a recording approver.
type harness struct {
	t         *testing.T
	root      string
	srv       *agenttest.Server
	agent     *Agent
	mu        sync.Mutex
	asked     []Approval
	answer    func(Approval) Decision
	events    []Event
	records   []Message
	summaries []recordedSummary
}

func (h *harness) Record(m Message) (uint64, error) {
	h.records = append(h.records, m)
	return uint64(len(h.records)), nil
}

func (h *harness) RecordSummary(summary string, through uint64) error {
	h.summaries = append(h.summaries, recordedSummary{summary, through})
	return nil
}

type recordedSummary struct {
	text    string
	through uint64
}

func newHarness(t *testing.T, maxIter int, replies ...agenttest.Reply) *harness {
	t.Helper()
	h := &harness{t: t, root: t.TempDir()}
	h.srv = agenttest.New(replies...)
	t.Cleanup(h.srv.Close)
	reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: h.root, CommandTimeout: 10 * time.Second})...)
	if err != nil {
		t.Fatal(err)
	}
	cls, err := safety.NewClassifier(safety.Rules{Deny: []string{"shutdown *"}})
	if err != nil {
		t.Fatal(err)
	}
	h.answer = func(Approval) Decision { return Decision{Allow: true} }
	a, err := New(Options{
		Model:         newTestClient(t, h.srv.BaseURL(), ""),
		Tools:         reg,
		Safety:        cls,
		Approver:      ApproverFunc(h.approve),
		System:        "You are a test.",
		Root:          h.root,
		Home:          t.TempDir(),
		MaxIterations: maxIter,
		Recorder:      h,
	})
	if err != nil {
		t.Fatal(err)
	}
	h.agent = a
	return h
}

// newTestClient is the real model client pointed at a test server, with
// short waits between retries.
func newTestClient(t testing.TB, base, key string) *llm.Client {
	t.Helper()
	c, err := llm.NewClient(llm.ClientOptions{BaseURL: base, APIKey: key, Model: "test-model", Backoff: func(int) time.Duration { return time.Millisecond }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (h *harness) approve(_ context.Context, a Approval) (Decision, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked = append(h.asked, a)
	return h.answer(a), nil
}

func (h *harness) sink(ev Event) {
	h.mu.Lock()
	h.events = append(h.events, ev)
	h.mu.Unlock()
}

func (h *harness) run(prompt string) (Result, error) {
	return h.agent.Run(context.Background(), prompt, h.sink)
}

func (h *harness) write(name, content string) {
	h.t.Helper()
	p := filepath.Join(h.root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// toolMessages returns the tool messages of request i.
func (h *harness) toolMessages(i int) []map[string]any {
	h.t.Helper()
	reqs := h.srv.Requests()
	if i >= len(reqs) {
		h.t.Fatalf("request %d was not sent (%d sent)", i, len(reqs))
	}
	var out []map[string]any
	for _, m := range reqs[i].Body["messages"].([]any) {
		mm := m.(map[string]any)
		if mm["role"] == "tool" {
			out = append(out, mm)
		}
	}
	return out
}

func (h *harness) checkStrict() {
	h.t.Helper()
	for i, r := range h.srv.Requests() {
		if r.Strict != nil {
			h.t.Errorf("request %d breaks strict provider rules: %v", i, r.Strict)
		}
	}
}

func args(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestFullScenario is the whole loop against a real HTTP server: the model
// looks at the tree, reads a file, edits it, runs a command, and answers;
// the file is really edited on disk.
func TestFullScenario(t *testing.T) {
	h := newHarness(t, 30,
		agenttest.Tools("Let me look around.", agenttest.Call{ID: "call_1", Name: "tree_view", Arguments: `{}`}),
		agenttest.Tools("", agenttest.Call{ID: "call_2", Name: "read_file", Arguments: args(map[string]any{"path": "greet.txt"})}),
		agenttest.Tools("", agenttest.Call{ID: "call_3", Name: "edit_file", Arguments: args(map[string]any{"path": "greet.txt", "old_text": "Hello", "new_text": "Goodbye"})}),
		agenttest.Tools("", agenttest.Call{ID: "call_4", Name: "run_command", Arguments: args(map[string]any{"command": "cat greet.txt"})}),
		agenttest.Text("Changed Hello to Goodbye in greet.txt.", 6),
	)
	h.write("greet.txt", "Hello, world\n")
	h.write("sub/other.go", "package sub\n")
	res, err := h.run("Change the greeting")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Changed Hello to Goodbye in greet.txt." || res.StopReason != "answer" || res.Iterations != 5 {
		t.Fatalf("result %+v", res)
	}
	data, err := os.ReadFile(filepath.Join(h.root, "greet.txt"))
	if err != nil || string(data) != "Goodbye, world\n" {
		t.Fatalf("greet.txt = %q, %v; want it edited", data, err)
	}
	h.checkStrict()
	if n := len(h.srv.Requests()); n != 5 {
		t.Fatalf("%d requests, want 5", n)
	}
	tree := h.toolMessages(1)[0]["content"].(string)
	if !strings.Contains(tree, "greet.txt") || !strings.Contains(tree, "sub/") {
		t.Errorf("tree_view result %q lacks the files", tree)
	}
	read := h.toolMessages(2)[1]["content"].(string)
	if !strings.Contains(read, "Hello, world") {
		t.Errorf("read_file result %q lacks the text", read)
	}
	cmd := h.toolMessages(4)[3]["content"].(string)
	if !strings.Contains(cmd, "Goodbye, world") {
		t.Errorf("run_command result %q lacks the edited text", cmd)
	}
	// The edit was reviewed; the safe command and reads were not asked.
	if len(h.asked) != 1 || h.asked[0].Kind != ApproveEdit || h.asked[0].Change == nil ||
		!strings.Contains(string(h.asked[0].Change.After), "Goodbye") {
		t.Errorf("approvals %+v, want exactly the edit review", h.asked)
	}
	// Every finished message was recorded, in order.
	roles := []Role{}
	for _, m := range h.records {
		roles = append(roles, m.Role)
	}
	want := "user assistant tool assistant tool assistant tool assistant tool assistant"
	if got := strings.Join(toStrings(roles), " "); got != want {
		t.Errorf("recorded roles %q, want %q", got, want)
	}
}

func toStrings(rs []Role) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}

func TestBadCallsBecomeErrorResults(t *testing.T) {
	cases := []struct {
		name string
		call agenttest.Call
		want string
	}{
		{"unknown tool", agenttest.Call{ID: "c", Name: "delete_everything", Arguments: `{}`}, `no tool named "delete_everything"`},
		{"arguments not JSON", agenttest.Call{ID: "c", Name: "read_file", Arguments: `{"path": "a.txt"`}, "not valid"},
		{"missing required argument", agenttest.Call{ID: "c", Name: "read_file", Arguments: `{}`}, "path"},
		{"wrong type", agenttest.Call{ID: "c", Name: "read_file", Arguments: `{"path": 7}`}, "path"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 30, agenttest.Tools("", tc.call), agenttest.Text("sorry", 10))
			res, err := h.run("go")
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != "sorry" {
				t.Errorf("final text %q", res.Text)
			}
			h.checkStrict()
			msg := h.toolMessages(1)[0]["content"].(string)
			if !strings.Contains(msg, tc.want) {
				t.Errorf("tool result %q, want it to mention %q", msg, tc.want)
			}
		})
	}
}

func TestRefusalReachesTheModel(t *testing.T) {
	for _, comment := range []string{"", "use make test instead"} {
		h := newHarness(t, 30,
			agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "touch made.txt"})}),
			agenttest.Text("ok", 10))
		h.answer = func(Approval) Decision { return Decision{Allow: false, Comment: comment} }
		if _, err := h.run("go"); err != nil {
			t.Fatal(err)
		}
		got := h.toolMessages(1)[0]["content"].(string)
		want := Cancelled
		if comment != "" {
			want = Cancelled + "\n\nThe user said: " + comment
		}
		if got != want {
			t.Errorf("tool result %q, want %q", got, want)
		}
		if _, err := os.Stat(filepath.Join(h.root, "made.txt")); err == nil {
			t.Error("the refused command ran")
		}
		if len(h.asked) != 1 || h.asked[0].Kind != ApproveCommand || h.asked[0].Tier != safety.Confirm {
			t.Errorf("asked %+v, want one confirm-tier command question", h.asked)
		}
	}
}

func TestDangerousNeedsTwoSeparateYeses(t *testing.T) {
	cases := []struct {
		name     string
		answers  []bool // answer per step
		wantRuns bool
		wantAsks int
	}{
		{"both yes", []bool{true, true}, true, 2},
		{"second no", []bool{true, false}, false, 2},
		{"first no", []bool{false}, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 30,
				agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "rm -rf build"})}),
				agenttest.Text("ok", 10))
			h.write("build/x.o", "obj")
			h.answer = func(a Approval) Decision { return Decision{Allow: tc.answers[a.Step-1]} }
			if _, err := h.run("clean"); err != nil {
				t.Fatal(err)
			}
			if len(h.asked) != tc.wantAsks {
				t.Fatalf("asked %d times, want %d", len(h.asked), tc.wantAsks)
			}
			for i, a := range h.asked {
				if a.Step != i+1 || a.Tier != safety.Dangerous || len(a.Reasons) == 0 {
					t.Errorf("question %d: step %d tier %v reasons %v", i, a.Step, a.Tier, a.Reasons)
				}
			}
			_, err := os.Stat(filepath.Join(h.root, "build"))
			if ran := errors.Is(err, os.ErrNotExist); ran != tc.wantRuns {
				t.Errorf("command ran = %v, want %v", ran, tc.wantRuns)
			}
			if !tc.wantRuns && h.toolMessages(1)[0]["content"] != Cancelled {
				t.Errorf("tool result %q, want %q", h.toolMessages(1)[0]["content"], Cancelled)
			}
		})
	}
}

func TestDenyRuleBlocksWithoutAsking(t *testing.T) {
	h := newHarness(t, 30,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "shutdown -h now"})}),
		agenttest.Text("ok", 10))
	if _, err := h.run("go"); err != nil {
		t.Fatal(err)
	}
	if len(h.asked) != 0 {
		t.Errorf("asked %d times for a denied command", len(h.asked))
	}
	if got := h.toolMessages(1)[0]["content"].(string); !strings.Contains(got, "deny rule") {
		t.Errorf("tool result %q, want it to name the deny rule", got)
	}
}

func TestIterationLimitAsksForSummary(t *testing.T) {
	call := func(id string) agenttest.Reply {
		return agenttest.Tools("", agenttest.Call{ID: id, Name: "glob", Arguments: `{"pattern":"*"}`})
	}
	h := newHarness(t, 2, call("a"), call("b"), agenttest.Text("I listed files twice; nothing left.", 10))
	res, err := h.run("loop")
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != "max_iterations" || res.Iterations != 3 || res.Text != "I listed files twice; nothing left." {
		t.Fatalf("result %+v", res)
	}
	last := h.srv.Requests()[2]
	if last.Body["tool_choice"] != "none" {
		t.Errorf("final request tool_choice = %v, want none", last.Body["tool_choice"])
	}
	msgs := last.Body["messages"].([]any)
	lastMsg := msgs[len(msgs)-1].(map[string]any)
	if lastMsg["role"] != "user" || !strings.Contains(lastMsg["content"].(string), "summary") {
		t.Errorf("final request ends with %v, want the wrap-up prompt", lastMsg)
	}
	h.checkStrict()
}

func TestIterationLimitAnswersCallsTheModelMakesAnyway(t *testing.T) {
	call := func(id string) agenttest.Reply {
		return agenttest.Tools("", agenttest.Call{ID: id, Name: "glob", Arguments: `{"pattern":"*"}`})
	}
	h := newHarness(t, 1, call("a"), call("b"), agenttest.Text("unused", 10))
	res, err := h.run("loop")
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != "max_iterations" || len(h.srv.Requests()) != 2 {
		t.Fatalf("result %+v after %d requests", res, len(h.srv.Requests()))
	}
	hist := h.agent.History()
	if last := hist[len(hist)-1]; last.Role != RoleTool || !last.IsError {
		t.Errorf("the call made at the limit was not answered: %+v", last)
	}
}

func TestReusedToolCallIDsAreMadeUnique(t *testing.T) {
	same := agenttest.Call{ID: "call_0", Name: "glob", Arguments: `{"pattern":"*"}`}
	h := newHarness(t, 30, agenttest.Tools("", same), agenttest.Tools("", same, same), agenttest.Text("done", 10))
	if _, err := h.run("go"); err != nil {
		t.Fatal(err)
	}
	h.checkStrict()
	ids := map[string]bool{}
	for _, m := range h.agent.History() {
		for _, c := range m.ToolCalls {
			if ids[c.ID] {
				t.Errorf("id %q used twice", c.ID)
			}
			ids[c.ID] = true
		}
	}
	if len(ids) != 3 {
		t.Errorf("%d distinct ids, want 3", len(ids))
	}
}

func TestPartialEditFromReview(t *testing.T) {
	h := newHarness(t, 30,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "write_file", Arguments: args(map[string]any{"path": "f.txt", "content": "new text\n"})}),
		agenttest.Text("ok", 10))
	h.write("f.txt", "old text\n")
	h.answer = func(a Approval) Decision {
		return Decision{Allow: true, Content: []byte("reviewed text\n"), Note: "The user rejected hunk 1 of 1."}
	}
	if _, err := h.run("go"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(h.root, "f.txt"))
	if string(data) != "reviewed text\n" {
		t.Errorf("file %q, want the reviewed content", data)
	}
	if got := h.toolMessages(1)[0]["content"].(string); !strings.Contains(got, "rejected hunk 1") {
		t.Errorf("tool result %q lacks the review note", got)
	}
}

func TestCancelDuringToolKeepsHistoryWellFormed(t *testing.T) {
	h := newHarness(t, 30,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "sleep 30"})},
			agenttest.Call{ID: "c2", Name: "glob", Arguments: `{"pattern":"*"}`}),
		agenttest.Text("after", 10))
	h.agent.opts.Safety, _ = safety.NewClassifier(safety.Rules{Allow: []string{"sleep *"}})
	h.agent.classifier = h.agent.opts.Safety
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.agent.Run(ctx, "go", func(ev Event) {
			if s, ok := ev.(ToolStarted); ok && s.Name == "run_command" {
				time.AfterFunc(100*time.Millisecond, cancel)
			}
		})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return promptly after cancel")
	}
	hist := h.agent.History()
	var tools []Message
	for _, m := range hist {
		if m.Role == RoleTool {
			tools = append(tools, m)
		}
	}
	if len(tools) != 2 || !strings.Contains(tools[1].Content, Cancelled) {
		t.Fatalf("tool messages %+v, want both calls answered, the second as cancelled", tools)
	}
	// The next prompt goes out well-formed.
	h.srv.Add(agenttest.Text("next", 10))
	if _, err := h.run("again"); err != nil {
		t.Fatal(err)
	}
	h.checkStrict()
}

func TestWellFormedRepairsHistory(t *testing.T) {
	call := func(id string) ToolCall { return ToolCall{ID: id, Name: "glob", Arguments: "{}"} }
	in := []Message{
		{Role: RoleUser, Content: "a"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{call("x"), call("y")}},
		{Role: RoleTool, ToolCallID: "y", Content: "Y"}, // x never answered (crash), y answered out of order
		{Role: RoleTool, ToolCallID: "zzz", Content: "orphan"},
		{Role: RoleAssistant, Content: ""}, // empty
		{Role: RoleUser, Content: "b"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{call("w")}}, // crash before any result
	}
	got := wellFormed(in)
	var shape []string
	for _, m := range got {
		s := string(m.Role)
		if m.ToolCallID != "" {
			s += ":" + m.ToolCallID
		}
		shape = append(shape, s)
	}
	want := "user assistant tool:x tool:y user assistant tool:w"
	if strings.Join(shape, " ") != want {
		t.Fatalf("shape %q, want %q", strings.Join(shape, " "), want)
	}
}

// newRegistryWith is a registry of ts plus more tools.
func newRegistryWith(ts []tools.Tool, more ...tools.Tool) (*tools.Registry, error) {
	return tools.NewRegistry(append(append([]tools.Tool(nil), ts...), more...)...)
}

func TestAutoRecallAddsAHiddenNote(t *testing.T) {
	h := newHarness(t, 30, agenttest.Text("ok", 10), agenttest.Text("ok", 10))
	asked := []string{}
	note := RecalledNote{SessionName: "before", Role: "user", Text: "NOTES FROM BEFORE", Relevance: 1}
	h.agent.opts.Recall = recallFunc(func(prompt string, _ func(string) bool) []RecalledNote {
		asked = append(asked, prompt)
		if prompt == "first" {
			return []RecalledNote{note}
		}
		return nil
	})
	sent := RecallText([]RecalledNote{note})
	for _, p := range []string{"first", "second"} {
		if _, err := h.run(p); err != nil {
			t.Fatal(err)
		}
	}
	has := func(i int) bool {
		for _, m := range h.srv.Requests()[i].Body["messages"].([]any) {
			if c, _ := m.(map[string]any)["content"].(string); c == sent {
				return m.(map[string]any)["role"] == "system"
			}
		}
		return false
	}
	if !has(0) {
		t.Error("the first request lacks the recall note as a system message")
	}
	if has(1) {
		t.Error("the note of the first turn was sent again in the second")
	}
	var events []Recalled
	for _, ev := range h.events {
		if r, ok := ev.(Recalled); ok {
			events = append(events, r)
		}
	}
	if len(events) != 1 || events[0].Text != sent || len(events[0].Notes) != 1 || events[0].Notes[0].Text != "NOTES FROM BEFORE" {
		t.Errorf("Recalled events %+v, want one with exactly the note sent", events)
	}
	for _, m := range h.agent.History() {
		if strings.Contains(m.Content, "NOTES FROM BEFORE") {
			t.Error("the recall note was stored in the history")
		}
	}
	if strings.Join(asked, ",") != "first,second" {
		t.Errorf("recall asked about %v", asked)
	}
	h.checkStrict()
}

// recallFunc is a Recaller from a function.
type recallFunc func(string, func(string) bool) []RecalledNote

func (f recallFunc) Recall(prompt string, inContext func(string) bool) []RecalledNote {
	return f(prompt, inContext)
}
