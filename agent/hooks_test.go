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

	"pincer/agent/agenttest"
	"pincer/hooks"
	"pincer/safety"
)

// fakeHooks answers each event with a fixed outcome and records what it
// was told.
type fakeHooks struct {
	mu     sync.Mutex
	answer map[hooks.Event]hooks.Outcome
	seen   []hooks.Input
}

func (f *fakeHooks) Run(_ context.Context, in hooks.Input) hooks.Outcome {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen = append(f.seen, in)
	return f.answer[in.Event]
}

func (f *fakeHooks) inputs(e hooks.Event) []hooks.Input {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []hooks.Input
	for _, in := range f.seen {
		if in.Event == e {
			out = append(out, in)
		}
	}
	return out
}

func (h *harness) started() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if s, ok := e.(ToolStarted); ok {
			out = append(out, s.Summary)
		}
	}
	return out
}

// TestPreToolUseOnlyTightens: whatever a PreToolUse hook answers, pincer's
// own approvals still happen — "allow" skips none, "ask" adds one, "deny"
// blocks — and a changed input is what is judged, asked about and run.
func TestPreToolUseOnlyTightens(t *testing.T) {
	tests := []struct {
		name    string
		command string
		hook    hooks.Outcome
		// asked are the tiers of the approval questions, in order.
		asked    []safety.Tier
		command2 string // the command the questions show ("" = command)
		ran      bool
		result   string // in the tool result the model reads
	}{
		{name: "no answer: a safe command runs unasked", command: "ls", ran: true},
		{name: "allow does not skip the approval of a confirm command", command: "touch a.txt",
			hook: hooks.Outcome{Permission: hooks.PermissionAllow}, asked: []safety.Tier{safety.Confirm}, ran: true},
		{name: "allow does not skip either step of a dangerous command", command: "rm -rf build",
			hook: hooks.Outcome{Permission: hooks.PermissionAllow}, asked: []safety.Tier{safety.Dangerous, safety.Dangerous}, ran: true},
		{name: "ask makes a safe command ask", command: "ls",
			hook: hooks.Outcome{Permission: hooks.PermissionAsk, PermissionReason: "audit"}, asked: []safety.Tier{safety.Confirm}, ran: true,
		},
		{name: "ask does not lower a dangerous command to one step", command: "rm -rf build",
			hook: hooks.Outcome{Permission: hooks.PermissionAsk, PermissionReason: "audit"}, asked: []safety.Tier{safety.Dangerous, safety.Dangerous}, ran: true,
		},
		{name: "deny blocks without asking", command: "ls",
			hook: hooks.Outcome{Permission: hooks.PermissionDeny, Block: true, Reason: "not today"}, result: "Blocked by the user's PreToolUse hook; it was not run. The hook said: not today"},
		{name: "exit 2 blocks a dangerous command", command: "rm -rf build",
			hook: hooks.Outcome{Block: true, Reason: "no rm"}, result: "The hook said: no rm"},
		{name: "a changed input is judged as it is: ls becomes rm -rf", command: "ls",
			hook:  hooks.Outcome{UpdatedInput: json.RawMessage(`{"command":"rm -rf build"}`), UpdatedBy: `"fix.sh"`},
			asked: []safety.Tier{safety.Dangerous, safety.Dangerous}, command2: "rm -rf build", ran: true,
			result: `(The user's PreToolUse hook changed this call's input to: {"command":"rm -rf build"})`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 5,
				agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]string{"command": tt.command})}),
				agenttest.Text("done", 5))
			h.write("build/x", "x")
			fh := &fakeHooks{answer: map[hooks.Event]hooks.Outcome{hooks.PreToolUse: tt.hook}}
			h.agent.opts.Hooks = fh
			if _, err := h.run("go"); err != nil {
				t.Fatal(err)
			}
			if len(h.asked) != len(tt.asked) {
				t.Fatalf("asked %d times (%+v), want %d", len(h.asked), h.asked, len(tt.asked))
			}
			want := tt.command
			if tt.command2 != "" {
				want = tt.command2
			}
			for i, q := range h.asked {
				if q.Tier != tt.asked[i] || q.Command != want || q.Step != i+1 {
					t.Errorf("question %d: tier %v, step %d, command %q; want %v, %d, %q", i, q.Tier, q.Step, q.Command, tt.asked[i], i+1, want)
				}
				if q.HookAsked != (tt.hook.Permission == hooks.PermissionAsk) {
					t.Errorf("question %d: HookAsked %v", i, q.HookAsked)
				}
				if tt.command2 != "" && !strings.Contains(strings.Join(q.Reasons, "\n"), `the hook "fix.sh" changed this call's input; what is shown is what will run`) {
					t.Errorf("question %d does not say a hook changed the input: %q", i, q.Reasons)
				}
				if tt.hook.Permission == hooks.PermissionAsk && !strings.Contains(strings.Join(q.Reasons, "\n"), "a PreToolUse hook asks for your approval: audit") {
					t.Errorf("question %d does not say the hook asked: %q", i, q.Reasons)
				}
			}
			if ran := len(h.started()) > 0; ran != tt.ran {
				t.Errorf("ran = %v, want %v", ran, tt.ran)
			}
			if tt.ran && tt.command2 != "" {
				if _, err := os.Stat(filepath.Join(h.root, "build")); !os.IsNotExist(err) {
					t.Errorf("the changed command did not run: %v", err)
				}
			}
			tm := h.toolMessages(1)
			if len(tm) != 1 || !strings.Contains(tm[0]["content"].(string), tt.result) {
				t.Errorf("tool result %v, want it to hold %q", tm, tt.result)
			}
			if in := fh.inputs(hooks.PreToolUse); len(in) != 1 || in[0].ToolName != "run_command" || !strings.Contains(string(in[0].ToolInput), tt.command) {
				t.Errorf("the hook was told %+v", in)
			}
			h.checkStrict()
		})
	}
}

// TestAskOnAnEditIsMarked: an edit a hook wants asked carries HookAsked, so
// accept-edits cannot answer it unseen.
func TestAskOnAnEditIsMarked(t *testing.T) {
	h := newHarness(t, 5,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "write_file", Arguments: args(map[string]string{"path": "f.txt", "content": "x\n"})}),
		agenttest.Text("done", 5))
	h.agent.opts.Hooks = &fakeHooks{answer: map[hooks.Event]hooks.Outcome{hooks.PreToolUse: {Permission: hooks.PermissionAsk}}}
	if _, err := h.run("go"); err != nil {
		t.Fatal(err)
	}
	if len(h.asked) != 1 || h.asked[0].Kind != ApproveEdit || !h.asked[0].HookAsked {
		t.Errorf("asked %+v", h.asked)
	}
}

// TestPostToolUseReachesTheModel: a PostToolUse hook's block reason and
// context are added to the result the model reads, and it is told what
// the tool returned.
func TestPostToolUseReachesTheModel(t *testing.T) {
	h := newHarness(t, 5,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]string{"command": "echo hi"})}),
		agenttest.Text("done", 5))
	fh := &fakeHooks{answer: map[hooks.Event]hooks.Outcome{hooks.PostToolUse: {Block: true, Reason: "lint failed: 2 errors", Context: "see lint.log"}}}
	h.agent.opts.Hooks = fh
	if _, err := h.run("go"); err != nil {
		t.Fatal(err)
	}
	content := h.toolMessages(1)[0]["content"].(string)
	for _, want := range []string{"hi", "The user's PostToolUse hook says: lint failed: 2 errors", "Context from the user's PostToolUse hook: see lint.log"} {
		if !strings.Contains(content, want) {
			t.Errorf("result %q lacks %q", content, want)
		}
	}
	in := fh.inputs(hooks.PostToolUse)
	if len(in) != 1 || !strings.Contains(string(in[0].ToolResponse), `"content":"hi`) || !strings.Contains(string(in[0].ToolResponse), `"is_error":false`) {
		t.Errorf("the hook was told %+v", in)
	}
}

// TestPostToolUseDoesNotRunForABlockedCall: only a tool that ran is
// followed by PostToolUse.
func TestPostToolUseDoesNotRunForABlockedCall(t *testing.T) {
	h := newHarness(t, 5,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]string{"command": "touch x"})}),
		agenttest.Text("done", 5))
	h.answer = func(Approval) Decision { return Decision{} }
	fh := &fakeHooks{}
	h.agent.opts.Hooks = fh
	if _, err := h.run("go"); err != nil {
		t.Fatal(err)
	}
	if n := len(fh.inputs(hooks.PostToolUse)); n != 0 {
		t.Errorf("PostToolUse ran %d times for a refused call", n)
	}
}

// TestHookEndsTheTurn: "continue": false from a PreToolUse hook ends the
// turn after that call; the rest of the calls are not run and no request
// follows.
func TestHookEndsTheTurn(t *testing.T) {
	h := newHarness(t, 5,
		agenttest.Tools("",
			agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]string{"command": "ls"})},
			agenttest.Call{ID: "c2", Name: "run_command", Arguments: args(map[string]string{"command": "pwd"})}),
		agenttest.Text("should not be asked for", 5))
	h.agent.opts.Hooks = &fakeHooks{answer: map[hooks.Event]hooks.Outcome{hooks.PreToolUse: {Stop: true, StopReason: "frozen"}}}
	res, err := h.run("go")
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != "hook" || len(h.srv.Requests()) != 1 || len(h.started()) != 0 {
		t.Errorf("stop %q, %d requests, started %v", res.StopReason, len(h.srv.Requests()), h.started())
	}
	// The next turn is not stopped by the last one's hook.
	h.agent.opts.Hooks = &fakeHooks{}
	if res, err := h.run("again"); err != nil || res.StopReason != "answer" {
		t.Errorf("next turn: %q %v", res.StopReason, err)
	}
	h.checkStrict()
}

// TestStopHookIsBounded: a Stop hook that always blocks sends the model
// back with its reason, says it is active after the first time, and gives
// up after maxStopContinues.
func TestStopHookIsBounded(t *testing.T) {
	var replies []agenttest.Reply
	for range maxStopContinues + 2 {
		replies = append(replies, agenttest.Text("finished", 5))
	}
	h := newHarness(t, 30, replies...)
	fh := &fakeHooks{answer: map[hooks.Event]hooks.Outcome{hooks.Stop: {Block: true, Reason: "tests still fail"}}}
	h.agent.opts.Hooks = fh
	res, err := h.run("go")
	if err != nil || res.StopReason != "answer" {
		t.Fatalf("%q %v", res.StopReason, err)
	}
	if n := len(h.srv.Requests()); n != maxStopContinues+1 {
		t.Errorf("%d requests, want %d", n, maxStopContinues+1)
	}
	if !strings.Contains(requestText(h.srv.Requests()[1]), "The user's Stop hook asks you to go on before you finish: tests still fail") {
		t.Error("the model is not told the reason")
	}
	in := fh.inputs(hooks.Stop)
	if len(in) != maxStopContinues+1 || in[0].StopHookActive || !in[1].StopHookActive {
		t.Errorf("stop inputs %+v", in)
	}
	h.checkStrict()
}

func requestText(r agenttest.Request) string {
	data, _ := json.Marshal(r.Body["messages"])
	return string(data)
}

// TestPromptHooks: SessionStart runs once with its source, its context and
// the prompt's stay in the requests (the prompt's for its turn only), a
// blocked prompt is neither stored nor sent, and scheduled tasks skip
// UserPromptSubmit.
func TestPromptHooks(t *testing.T) {
	h := newHarness(t, 5, agenttest.Text("one", 5), agenttest.Text("two", 5), agenttest.Text("three", 5))
	fh := &fakeHooks{answer: map[hooks.Event]hooks.Outcome{
		hooks.SessionStart:     {Context: "on branch main"},
		hooks.UserPromptSubmit: {Context: "ticket 7"},
	}}
	h.agent.opts.Hooks = fh
	if _, err := h.run("first"); err != nil {
		t.Fatal(err)
	}
	fh.answer[hooks.UserPromptSubmit] = hooks.Outcome{}
	if _, err := h.run("second"); err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if first := requestText(reqs[0]); !strings.Contains(first, "on branch main") || !strings.Contains(first, "ticket 7") {
		t.Errorf("first request lacks the hooks' context: %s", first)
	}
	if second := requestText(reqs[1]); !strings.Contains(second, "on branch main") || strings.Contains(second, "ticket 7") {
		t.Errorf("second request: %s", second)
	}
	if in := fh.inputs(hooks.SessionStart); len(in) != 1 || in[0].Source != "startup" {
		t.Errorf("SessionStart %+v", in)
	}
	if in := fh.inputs(hooks.UserPromptSubmit); len(in) != 2 || in[0].Prompt != "first" {
		t.Errorf("UserPromptSubmit %+v", in)
	}

	fh.answer[hooks.UserPromptSubmit] = hooks.Outcome{Block: true, Reason: "no secrets"}
	stored := len(h.records)
	_, err := h.run("the secret")
	if !errors.Is(err, ErrPromptBlocked) || !strings.Contains(err.Error(), "no secrets") {
		t.Errorf("err %v", err)
	}
	if len(h.records) != stored || len(h.srv.Requests()) != 2 {
		t.Errorf("a blocked prompt was stored or sent")
	}

	h.agent.Restore(h.agent.History(), "", 0)
	if _, err := h.agent.RunMessage(context.Background(), Message{Kind: KindTask, Content: "scheduled"}, h.sink); err != nil {
		t.Fatal(err)
	}
	if n := len(fh.inputs(hooks.UserPromptSubmit)); n != 3 {
		t.Errorf("UserPromptSubmit ran %d times, want 3 (not for a task)", n)
	}
	if in := fh.inputs(hooks.SessionStart); len(in) != 2 || in[1].Source != "resume" {
		t.Errorf("SessionStart after Restore %+v", in)
	}
}
