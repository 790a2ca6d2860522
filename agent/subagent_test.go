package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/safety"
	"pincer/tools"
)

// subHarness is an agent with the task tool, wired to a scripted server
// that answers the main agent and its sub-agents from separate scripts:
// a request whose system prompt is a sub-agent's gets the next sub reply.
type subHarness struct {
	*harness
	mu        sync.Mutex
	main, sub []agenttest.Reply
	mainReqs  []agenttest.Request
	subReqs   []agenttest.Request
	sawSub    chan struct{}
}

func newSubHarness(t *testing.T, so SubAgents, approvals safety.ApprovalMode) *subHarness {
	t.Helper()
	h := &subHarness{harness: &harness{t: t, root: t.TempDir()}, sawSub: make(chan struct{}, 16)}
	h.srv = agenttest.New()
	t.Cleanup(h.srv.Close)
	h.srv.SetResponder(func(r agenttest.Request) (agenttest.Reply, bool) {
		h.mu.Lock()
		defer h.mu.Unlock()
		queue := &h.main
		if isSubRequest(r) {
			queue = &h.sub
			h.subReqs = append(h.subReqs, r)
			h.sawSub <- struct{}{}
		} else {
			h.mainReqs = append(h.mainReqs, r)
		}
		if len(*queue) == 0 {
			return agenttest.Error(500, "no scripted reply left"), true
		}
		reply := (*queue)[0]
		*queue = (*queue)[1:]
		return reply, true
	})
	reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: h.root, CommandTimeout: 10 * time.Second})...)
	if err != nil {
		t.Fatal(err)
	}
	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	h.answer = func(Approval) Decision { return Decision{Allow: true} }
	a, err := New(Options{
		Model:     newTestClient(t, h.srv.BaseURL(), ""),
		Tools:     reg,
		Safety:    cls,
		Approver:  ApproverFunc(h.approve),
		System:    "You are the main agent.",
		Root:      h.root,
		Home:      t.TempDir(),
		Recorder:  h,
		Approvals: approvals,
		SubAgents: &so,
	})
	if err != nil {
		t.Fatal(err)
	}
	h.agent = a
	return h
}

func isSubRequest(r agenttest.Request) bool {
	msgs, _ := r.Body["messages"].([]any)
	if len(msgs) == 0 {
		return false
	}
	first, _ := msgs[0].(map[string]any)
	content, _ := first["content"].(string)
	return strings.HasPrefix(content, "You are a sub-agent of pincer")
}

func (h *subHarness) script(main []agenttest.Reply, sub []agenttest.Reply) {
	h.mu.Lock()
	h.main, h.sub = main, sub
	h.mu.Unlock()
}

// toolNames lists the tools a request offered.
func toolNames(r agenttest.Request) []string {
	var out []string
	ts, _ := r.Body["tools"].([]any)
	for _, t := range ts {
		fn := t.(map[string]any)["function"].(map[string]any)
		out = append(out, withDeferred(fn)...)
	}
	slices.Sort(out)
	return out
}

func messagesOf(r agenttest.Request) []map[string]any {
	var out []map[string]any
	for _, m := range r.Body["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

// TestTaskRunsSubAgent: a task call runs a sub-agent with its own system
// prompt, its own read-only tools and the job as its only user message;
// its requests are valid; its report is the task's result in the main
// agent's next request; its steps are kept with the result, its
// messages are not in the main history, and its events come wrapped.
func TestTaskRunsSubAgent(t *testing.T) {
	h := newSubHarness(t, SubAgents{Context: "## Environment\n\n- Project root: here"}, safety.ApprovalsAsk)
	h.write("notes.txt", "the answer is 42\n")
	h.script(
		[]agenttest.Reply{
			agenttest.Tools("Delegating.", agenttest.Call{ID: "call_1", Name: "task", Arguments: args(map[string]any{
				"description": "find the answer", "prompt": "Read @notes.txt and report the answer."})}),
			agenttest.Text("The answer is 42.", 5),
		},
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "read_file", Arguments: `{"path":"notes.txt"}`}),
			agenttest.Text("REPORT: notes.txt line 1 says the answer is 42.", 7),
		},
	)
	res, err := h.run("What is the answer?")
	if err != nil || res.Text != "The answer is 42." {
		t.Fatalf("run: %+v, %v", res, err)
	}
	h.checkStrict()
	if len(h.subReqs) != 2 || len(h.mainReqs) != 2 {
		t.Fatalf("%d sub requests and %d main requests, want 2 and 2", len(h.subReqs), len(h.mainReqs))
	}
	want := []string{"glob", "grep", "read_file", "run_command", "tree_view"}
	for i, r := range h.subReqs {
		if got := toolNames(r); !slices.Equal(got, want) {
			t.Errorf("sub request %d offers %v, want %v", i, got, want)
		}
	}
	if got := toolNames(h.mainReqs[0]); !slices.Contains(got, "task") || !slices.Contains(got, "write_file") {
		t.Errorf("the main agent is offered %v, want the task tool with the others", got)
	}
	first := messagesOf(h.subReqs[0])
	// The job's @notes.txt attaches nothing: the model wrote it.
	if len(first) != 2 || first[1]["role"] != "user" || first[1]["content"] != "Read @notes.txt and report the answer." {
		t.Errorf("the sub-agent's first request is %v, want its system prompt and the job alone", first)
	}
	sys := first[0]["content"].(string)
	for _, want := range []string{"final report", "You may only read", "Project root: here"} {
		if !strings.Contains(sys, want) {
			t.Errorf("the sub-agent's system prompt lacks %q:\n%s", want, sys)
		}
	}
	if strings.Contains(sys, "You are the main agent.") {
		t.Error("the sub-agent got the main agent's system prompt")
	}
	// The report is the task's result in the main agent's next request.
	var taskResult string
	for _, m := range messagesOf(h.mainReqs[1]) {
		if m["role"] == "tool" && m["tool_call_id"] == "call_1" {
			taskResult = m["content"].(string)
		}
		if c, _ := m["content"].(string); strings.Contains(c, "the answer is 42\n") {
			t.Errorf("the sub-agent's file read reached the main conversation: %v", m)
		}
	}
	if taskResult != "REPORT: notes.txt line 1 says the answer is 42." {
		t.Errorf("task result %q, want the sub-agent's report", taskResult)
	}
	// Recorded: the main conversation only, the steps with the result.
	var roles []string
	var steps []SubStep
	var subUsage *Usage
	for _, m := range h.records {
		roles = append(roles, string(m.Role))
		if m.Role == RoleTool {
			steps, subUsage = m.Steps, m.Usage
		}
	}
	// The sub-agent's two requests: 100+20 and 10+5 tokens.
	if subUsage == nil || subUsage.PromptTokens != 110 || subUsage.CompletionTokens != 25 {
		t.Errorf("the task's result is stored with usage %+v, want the sub-agent's 110/25", subUsage)
	}
	if got := strings.Join(roles, " "); got != "user assistant tool assistant" {
		t.Errorf("recorded %q, want the main conversation only", got)
	}
	if len(steps) != 1 || steps[0].Tool != "read_file" || steps[0].Summary != "read_file notes.txt" || steps[0].IsError {
		t.Errorf("steps kept with the result: %+v", steps)
	}
	// Events: the task starts as a tool, its inner events come wrapped and
	// stamped with the task call's key, the main agent's usage excludes
	// the sub-agent's.
	var taskKey string
	var sub []SubEvent
	for _, ev := range h.events {
		switch e := ev.(type) {
		case ToolStarted:
			if e.Name == "task" {
				taskKey = e.Call
				if e.Summary != "task find the answer" {
					t.Errorf("task summary %q", e.Summary)
				}
			}
		case SubEvent:
			sub = append(sub, e)
		case ToolResult:
			if e.Name == "read_file" {
				t.Error("a sub-agent's tool result came unwrapped")
			}
		}
	}
	if taskKey == "" || len(sub) == 0 {
		t.Fatalf("no task start (%q) or no sub-agent events (%d)", taskKey, len(sub))
	}
	sawRead := false
	for _, e := range sub {
		if e.Call != taskKey || e.ID != "call_1" {
			t.Errorf("sub event %T stamped %q/%q, want %q/call_1", e.Event, e.Call, e.ID, taskKey)
		}
		if r, ok := e.Event.(ToolResult); ok && r.Name == "read_file" {
			sawRead = true
		}
	}
	if !sawRead {
		t.Error("the sub-agent's read_file result was not passed on")
	}
	if res.Usage.PromptTokens != 110 {
		t.Errorf("main usage %+v counts the sub-agent's tokens", res.Usage)
	}
}

// TestTaskCancelledWithItsParent: cancelling the turn while the sub-agent
// waits for the model stops it, and the turn ends cancelled.
func TestTaskCancelledWithItsParent(t *testing.T) {
	h := newSubHarness(t, SubAgents{}, safety.ApprovalsAsk)
	h.script(
		[]agenttest.Reply{agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "task", Arguments: `{"description":"wait","prompt":"Wait."}`})},
		[]agenttest.Reply{{Body: agenttest.TextBody("never", 5, 1, 1)[:40], Hang: true}},
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := h.agent.Run(ctx, "go", h.sink)
		done <- err
	}()
	select {
	case <-h.sawSub:
	case <-time.After(10 * time.Second):
		t.Fatal("the sub-agent never sent a request")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("run ended with %v, want cancelled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelling the turn did not stop the sub-agent")
	}
	h.checkStrict()
	last := h.records[len(h.records)-1]
	if last.Role != RoleTool || !strings.HasPrefix(last.Content, Cancelled) {
		t.Errorf("the task's result is %+v, want it cancelled", last)
	}
}

// TestTaskUserDefinedAgent: a named agent gets its own prompt, exactly its
// tools and its model; its write still goes to the person for review,
// labelled with the sub-agent, and a refusal keeps the file unwritten.
func TestTaskUserDefinedAgent(t *testing.T) {
	def := AgentDef{Name: "scribe", Description: "writes notes", Tools: []string{"read_file", "write_file"}, Model: "big-model", Prompt: "You write tidy notes."}
	h := newSubHarness(t, SubAgents{Agents: []AgentDef{def}}, safety.ApprovalsAuto)
	h.answer = func(q Approval) Decision { return Decision{Allow: false, Comment: "not now"} }
	h.script(
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "task", Arguments: `{"description":"write a note","prompt":"Write NOTE.md.","agent":"scribe"}`}),
			agenttest.Text("ok", 5),
		},
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "w1", Name: "write_file", Arguments: `{"path":"NOTE.md","content":"hi\n"}`}),
			agenttest.Text("The person refused the note.", 5),
		},
	)
	if _, err := h.run("note it"); err != nil {
		t.Fatal(err)
	}
	h.checkStrict()
	if len(h.subReqs) != 2 {
		t.Fatalf("%d sub requests, want 2", len(h.subReqs))
	}
	r := h.subReqs[0]
	if got := toolNames(r); !slices.Equal(got, []string{"read_file", "write_file"}) {
		t.Errorf("the agent is offered %v, want its own tools", got)
	}
	if m := r.Body["model"]; m != "big-model" {
		t.Errorf("model %v, want the agent's big-model", m)
	}
	if sys := messagesOf(r)[0]["content"].(string); !strings.Contains(sys, "You write tidy notes.") || strings.Contains(sys, "You may only read") {
		t.Errorf("system prompt lacks the agent's own or says read-only:\n%s", sys)
	}
	if m := h.mainReqs[0].Body["model"]; m != "test-model" {
		t.Errorf("the main agent asked for %v", m)
	}
	if len(h.asked) != 1 || h.asked[0].Kind != ApproveEdit || !strings.Contains(h.asked[0].Agent, "scribe") || !strings.Contains(h.asked[0].Agent, "write a note") {
		t.Fatalf("approvals %+v, want the edit reviewed and labelled with the sub-agent", h.asked)
	}
	if _, err := os.Stat(filepath.Join(h.root, "NOTE.md")); !os.IsNotExist(err) {
		t.Errorf("NOTE.md was written without approval (%v)", err)
	}
	var refused string
	for _, m := range messagesOf(h.subReqs[1]) {
		if m["role"] == "tool" {
			refused = m["content"].(string)
		}
	}
	if !strings.HasPrefix(refused, Cancelled) || !strings.Contains(refused, "not now") {
		t.Errorf("the sub-agent read %q, want the refusal with the comment", refused)
	}
}

// TestReadOnlySubAgentRunsOnlySafeCommands: the default sub-agent's
// commands that are not rated safe are refused without asking, even with
// auto approvals; safe ones run.
func TestReadOnlySubAgentRunsOnlySafeCommands(t *testing.T) {
	h := newSubHarness(t, SubAgents{}, safety.ApprovalsAuto)
	h.write("a.txt", "x")
	h.script(
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "task", Arguments: `{"description":"poke","prompt":"Poke around."}`}),
			agenttest.Text("ok", 5),
		},
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: `{"command":"touch made.txt"}`},
				agenttest.Call{ID: "c2", Name: "run_command", Arguments: `{"command":"ls"}`}),
			agenttest.Text("done", 5),
		},
	)
	if _, err := h.run("poke"); err != nil {
		t.Fatal(err)
	}
	h.checkStrict()
	if len(h.asked) != 0 {
		t.Errorf("asked %+v; a read-only sub-agent's command is refused unasked", h.asked)
	}
	if _, err := os.Stat(filepath.Join(h.root, "made.txt")); !os.IsNotExist(err) {
		t.Error("the read-only sub-agent ran touch")
	}
	results := map[string]string{}
	for _, m := range messagesOf(h.subReqs[1]) {
		if m["role"] == "tool" {
			results[m["tool_call_id"].(string)] = m["content"].(string)
		}
	}
	if !strings.Contains(results["c1"], "may only read") || !strings.Contains(results["c2"], "a.txt") {
		t.Errorf("results %q: want touch refused, ls run", results)
	}
}

// TestAgentDefsChecked: a definition naming an unknown tool, or the task
// tool, is left out with a note; the others are listed in the task tool's
// description, their descriptions on one line and capped.
func TestAgentDefsChecked(t *testing.T) {
	defs := []AgentDef{
		{Name: "good", Description: "finds\nthings \x1b[31mfast\u202e", Tools: []string{"grep"}},
		{Name: "typo", Path: "/p/typo.md", Tools: []string{"grpe"}},
		{Name: "nest", Path: "/p/nest.md", Tools: []string{"task"}},
		{Name: "wordy", Description: strings.Repeat("word ", 100)},
	}
	h := newSubHarness(t, SubAgents{Agents: defs, Warnings: []string{"left out the agent file x"}}, safety.ApprovalsAsk)
	var names []string
	for _, d := range h.agent.SubAgentDefs() {
		names = append(names, d.Name)
	}
	if got := strings.Join(names, " "); got != "good wordy" {
		t.Errorf("agents %q, want good wordy", got)
	}
	notes := strings.Join(h.agent.SubAgentNotes(), "\n")
	for _, want := range []string{"left out the agent file x", `typo (/p/typo.md): it names the unknown tool "grpe"`, "cannot start sub-agents"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	tool, _ := h.agent.lookup("task")
	desc := tool.Description()
	if !strings.Contains(desc, "\n- good: finds things [31mfast\n") {
		t.Errorf("the description does not list good on one clean line:\n%s", desc)
	}
	if strings.ContainsAny(desc, "\x1b\u202e") {
		t.Error("control characters reached the tool description")
	}
	for _, line := range strings.Split(desc, "\n") {
		if strings.HasPrefix(line, "- wordy: ") && len([]rune(line)) > maxAgentDescRunes+12 {
			t.Errorf("wordy's line is %d runes long", len([]rune(line)))
		}
	}
	if _, err := tool.Decode(`{"description":"x","prompt":"y","agent":"typo"}`); err == nil || !strings.Contains(err.Error(), "good, wordy") {
		t.Errorf("a left-out agent is accepted (%v)", err)
	}
}

// TestSubAgentCannotStartSubAgents: the task tool is not among a
// sub-agent's tools, and a call of it is refused as unknown.
func TestSubAgentCannotStartSubAgents(t *testing.T) {
	h := newSubHarness(t, SubAgents{}, safety.ApprovalsAsk)
	h.script(
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "task", Arguments: `{"description":"a","prompt":"b"}`}),
			agenttest.Text("ok", 5),
		},
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "t2", Name: "task", Arguments: `{"description":"deeper","prompt":"c"}`}),
			agenttest.Text("report", 5),
		},
	)
	if _, err := h.run("go"); err != nil {
		t.Fatal(err)
	}
	h.checkStrict()
	if len(h.subReqs) != 2 {
		t.Fatalf("%d sub requests; a nested sub-agent started?", len(h.subReqs))
	}
	for _, m := range messagesOf(h.subReqs[1]) {
		if m["role"] == "tool" && !strings.Contains(m["content"].(string), `no tool named "task"`) {
			t.Errorf("the nested task call got %q", m["content"])
		}
	}
}

// TestSubAgentFollowsTheApprovalMode: a sub-agent with its own tools
// follows the main agent's approval mode as it changes (the person turns
// /auto off while it runs); the read-only default always asks.
func TestSubAgentFollowsTheApprovalMode(t *testing.T) {
	h := newSubHarness(t, SubAgents{}, safety.ApprovalsAuto)
	a := h.agent
	named, _, err := a.newSubAgent(AgentDef{Name: "doer", Tools: []string{"run_command"}}, "do")
	if err != nil {
		t.Fatal(err)
	}
	readOnly, _, err := a.newSubAgent(AgentDef{}, "look")
	if err != nil {
		t.Fatal(err)
	}
	if named.Approvals() != safety.ApprovalsAuto || readOnly.Approvals() != safety.ApprovalsAsk {
		t.Errorf("with auto on: named %v, read-only %v", named.Approvals(), readOnly.Approvals())
	}
	a.SetApprovals(safety.ApprovalsAsk)
	if named.Approvals() != safety.ApprovalsAsk {
		t.Error("a running sub-agent kept auto approvals after the person turned them off")
	}
}

// TestTaskResultWhenTheSubAgentFallsShort: a failing server, an empty
// answer and the iteration limit each give the main agent a result that
// says so.
func TestTaskResultWhenTheSubAgentFallsShort(t *testing.T) {
	for _, tc := range []struct {
		name    string
		maxIter int
		sub     []agenttest.Reply
		want    string
		isError bool
	}{
		{"server error", 0, []agenttest.Reply{agenttest.Error(400, "bad request: context too long")}, "The sub-agent failed: ", true},
		{"empty answer", 0, []agenttest.Reply{agenttest.Text("", 5)}, "The sub-agent finished without a report.", true},
		{"iteration limit", 1, []agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "c1", Name: "glob", Arguments: `{"pattern":"*"}`}),
			agenttest.Text("Partial: found nothing yet.", 5),
		}, "Partial: found nothing yet.\n\n(The sub-agent used all 1 of its model requests; this report may be incomplete.)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newSubHarness(t, SubAgents{MaxIterations: tc.maxIter}, safety.ApprovalsAsk)
			h.script([]agenttest.Reply{
				agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "task", Arguments: `{"description":"d","prompt":"p"}`}),
				agenttest.Text("ok", 5),
			}, tc.sub)
			if _, err := h.run("go"); err != nil {
				t.Fatal(err)
			}
			h.checkStrict()
			var got Message
			for _, m := range h.records {
				if m.Role == RoleTool {
					got = m
				}
			}
			if !strings.HasPrefix(got.Content, tc.want) || got.IsError != tc.isError {
				t.Errorf("result %q (error %v), want %q (error %v)", got.Content, got.IsError, tc.want, tc.isError)
			}
		})
	}
}
