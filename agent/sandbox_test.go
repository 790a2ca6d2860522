package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"pincer/agent/agenttest"
	"pincer/safety"
	"pincer/tools"
)

// fakeShell is a command tool whose calls report whether they run in a
// sandbox, and which a blocked run can be let out of.
type fakeShell struct {
	sandboxed bool
	blockIn   bool // the sandbox blocks every command
	mu        sync.Mutex
	runs      []string // "in" or "out" per run
}

func (f *fakeShell) Name() string        { return "run_command" }
func (f *fakeShell) Description() string { return "runs a command" }
func (f *fakeShell) Parameters() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{"command": map[string]any{"type": "string"}}}
}
func (f *fakeShell) Mutates() bool { return true }
func (f *fakeShell) Decode(s string) (tools.Call, error) {
	var a struct{ Command string }
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		return nil, err
	}
	return &fakeCall{f: f, cmd: a.Command, in: f.sandboxed}, nil
}

type fakeCall struct {
	f   *fakeShell
	cmd string
	in  bool
}

func (c *fakeCall) Summary() string         { return "run_command " + c.cmd }
func (c *fakeCall) Access() tools.Access    { return tools.Access{Command: c.cmd, Dir: "/p"} }
func (c *fakeCall) Sandboxed() bool         { return c.in }
func (c *fakeCall) Unsandboxed() tools.Call { return &fakeCall{f: c.f, cmd: c.cmd} }
func (c *fakeCall) Run(context.Context) (tools.Result, error) {
	c.f.mu.Lock()
	defer c.f.mu.Unlock()
	if c.in {
		c.f.runs = append(c.f.runs, "in")
		if c.f.blockIn {
			return tools.Result{Content: "denied [blocked by the sandbox: write to /x]", IsError: true, SandboxBlocked: []string{"write to /x (outside the writable paths)"}}, nil
		}
		return tools.Result{Content: "ran inside"}, nil
	}
	c.f.runs = append(c.f.runs, "out")
	return tools.Result{Content: "ran outside"}, nil
}

func sandboxHarness(t *testing.T, f *fakeShell, approvals safety.ApprovalMode, command string, answer func(Approval) Decision) (*harness, *Agent) {
	t.Helper()
	h := &harness{t: t, root: t.TempDir(), answer: answer}
	h.srv = agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": command})}),
		agenttest.Text("ok", 10))
	t.Cleanup(h.srv.Close)
	reg, err := tools.NewRegistry(f)
	if err != nil {
		t.Fatal(err)
	}
	cls, err := safety.NewClassifier(safety.Rules{Deny: []string{"shutdown *"}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Options{Model: newTestClient(t, h.srv.BaseURL(), ""), Tools: reg, Safety: cls, Approver: ApproverFunc(h.approve),
		System: "test", Root: h.root, Home: t.TempDir(), Recorder: h, Approvals: approvals})
	if err != nil {
		t.Fatal(err)
	}
	h.agent = a
	return h, a
}

func TestAutoApprovals(t *testing.T) {
	tests := []struct {
		name      string
		approvals safety.ApprovalMode
		sandboxed bool
		command   string
		wantAsks  int
		wantRuns  string
	}{
		{"auto in the sandbox runs confirm unasked", safety.ApprovalsAuto, true, "touch a", 0, "in"},
		{"auto without a sandbox asks", safety.ApprovalsAuto, false, "touch a", 1, "out"},
		{"ask in the sandbox asks", safety.ApprovalsAsk, true, "touch a", 1, "in"},
		{"auto still asks twice for dangerous", safety.ApprovalsAuto, true, "rm -rf build", 2, "in"},
		{"auto never runs what a deny rule refuses", safety.ApprovalsAuto, true, "shutdown now", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeShell{sandboxed: tt.sandboxed}
			h, _ := sandboxHarness(t, f, tt.approvals, tt.command, func(Approval) Decision { return Decision{Allow: true} })
			if _, err := h.run("go"); err != nil {
				t.Fatal(err)
			}
			if len(h.asked) != tt.wantAsks {
				t.Errorf("asked %d times, want %d", len(h.asked), tt.wantAsks)
			}
			if got := strings.Join(f.runs, ","); got != tt.wantRuns {
				t.Errorf("runs %q, want %q", got, tt.wantRuns)
			}
		})
	}
}

func TestBlockedBySandboxAsksToLeave(t *testing.T) {
	tests := []struct {
		name     string
		command  string
		allow    func(Approval) bool
		wantRuns string
		wantAsks []string // kind/step of each question
		want     string   // in the tool result
	}{
		{"confirm: one yes runs it outside", "touch /x", func(Approval) bool { return true }, "in,out", []string{"command/1", "unsandboxed/1"}, "ran outside"},
		{"refused: the model reads what was blocked", "touch /x", func(a Approval) bool { return a.Kind != ApproveUnsandboxed }, "in", []string{"command/1", "unsandboxed/1"}, "blocked by the sandbox: write to /x"},
		{"dangerous: two steps", "rm -rf /x", func(Approval) bool { return true }, "in,out", []string{"command/1", "command/2", "unsandboxed/1", "unsandboxed/2"}, "ran outside"},
		{"dangerous: second step refused", "rm -rf /x", func(a Approval) bool { return a.Kind != ApproveUnsandboxed || a.Step == 1 }, "in", []string{"command/1", "command/2", "unsandboxed/1", "unsandboxed/2"}, "blocked by the sandbox"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeShell{sandboxed: true, blockIn: true}
			h, _ := sandboxHarness(t, f, safety.ApprovalsAsk, tt.command, func(a Approval) Decision { return Decision{Allow: tt.allow(a)} })
			if _, err := h.run("go"); err != nil {
				t.Fatal(err)
			}
			var asks []string
			for _, a := range h.asked {
				asks = append(asks, string(a.Kind)+"/"+string(rune('0'+a.Step)))
				if a.Kind == ApproveUnsandboxed && (len(a.Reasons) == 0 || !strings.Contains(a.Reasons[0], "write to /x")) {
					t.Errorf("the question does not say what was blocked: %v", a.Reasons)
				}
			}
			if strings.Join(asks, " ") != strings.Join(tt.wantAsks, " ") {
				t.Errorf("asked %v, want %v", asks, tt.wantAsks)
			}
			if got := strings.Join(f.runs, ","); got != tt.wantRuns {
				t.Errorf("runs %q, want %q", got, tt.wantRuns)
			}
			if got := h.toolMessages(1)[0]["content"].(string); !strings.Contains(got, tt.want) {
				t.Errorf("tool result %q lacks %q", got, tt.want)
			}
		})
	}
}
