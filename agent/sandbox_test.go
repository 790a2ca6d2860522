package agent

import (
	"context"
	"encoding/json"
	"slices"
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
	// blockProfiles are the jails that block every command, when blockIn
	// is not set.
	blockProfiles []safety.Profile
	// blocked is what the sandbox says it refused ("write to /x" when
	// nil).
	blocked  []string
	mu       sync.Mutex
	runs     []string         // "in" or "out" per run
	profiles []safety.Profile // the profile of each run inside
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
	f       *fakeShell
	cmd     string
	in      bool
	profile safety.Profile
}

func (c *fakeCall) Summary() string         { return "run_command " + c.cmd }
func (c *fakeCall) Access() tools.Access    { return tools.Access{Command: c.cmd, Dir: "/p"} }
func (c *fakeCall) Sandboxed() bool         { return c.in }
func (c *fakeCall) Unsandboxed() tools.Call { return &fakeCall{f: c.f, cmd: c.cmd} }
func (c *fakeCall) InProfile(p safety.Profile) tools.Call {
	cp := *c
	cp.profile = p
	return &cp
}
func (c *fakeCall) Profile() safety.Profile { return c.profile }
func (c *fakeCall) Run(context.Context) (tools.Result, error) {
	c.f.mu.Lock()
	defer c.f.mu.Unlock()
	if c.in {
		c.f.runs = append(c.f.runs, "in")
		c.f.profiles = append(c.f.profiles, c.profile)
		if c.f.blockIn || slices.Contains(c.f.blockProfiles, c.profile) {
			blocked := c.f.blocked
			if blocked == nil {
				blocked = []string{"write to /x (outside the writable paths)"}
			}
			return tools.Result{Content: "denied [blocked by the sandbox: " + strings.Join(blocked, "; ") + "]", IsError: true, SandboxBlocked: blocked}, nil
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

// TestProfileFollowsTheApproval: each command runs in the jail of how it
// was allowed — inspect unasked and safe, contained unasked by auto,
// workspace once approved or allowed by a rule of the person's.
func TestProfileFollowsTheApproval(t *testing.T) {
	tests := []struct {
		name      string
		approvals safety.ApprovalMode
		command   string
		allow     string // a session rule added first
		want      safety.Profile
	}{
		{"a safe command, unasked", safety.ApprovalsAsk, "ls", "", safety.ProfileInspect},
		{"a confirm command, approved", safety.ApprovalsAsk, "touch a", "", safety.ProfileWorkspace},
		{"a confirm command under auto", safety.ApprovalsAuto, "touch a", "", safety.ProfileContained},
		{"a dangerous command, approved twice", safety.ApprovalsAuto, "rm -rf build", "", safety.ProfileWorkspace},
		{"allowed by the person's rule", safety.ApprovalsAsk, "touch a", "touch *", safety.ProfileWorkspace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeShell{sandboxed: true}
			h, a := sandboxHarness(t, f, tt.approvals, tt.command, func(Approval) Decision { return Decision{Allow: true} })
			if tt.allow != "" {
				a.allow(tt.allow, func(Event) {})
			}
			if _, err := h.run("go"); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(f.profiles, []safety.Profile{tt.want}) {
				t.Errorf("ran in %v, want %s", f.profiles, tt.want)
			}
		})
	}
}

// TestInspectBlockedIsJudgedAgain: a command rated safe that tried to
// write is stopped by the inspect jail; it runs again only after a normal
// approval naming what it tried (in the workspace jail), or unasked in the
// contained jail under auto — never outside the jail without a yes.
func TestInspectBlockedIsJudgedAgain(t *testing.T) {
	tests := []struct {
		name      string
		approvals safety.ApprovalMode
		block     []safety.Profile
		allow     func(Approval) bool
		wantAsks  []string
		wantRuns  []safety.Profile
		want      string // in the tool result
	}{
		{"yes: again in workspace", safety.ApprovalsAsk, []safety.Profile{safety.ProfileInspect}, func(Approval) bool { return true },
			[]string{"command/1"}, []safety.Profile{safety.ProfileInspect, safety.ProfileWorkspace}, "ran again in the workspace jail"},
		{"no: the model is told it tried to change something", safety.ApprovalsAsk, []safety.Profile{safety.ProfileInspect}, func(Approval) bool { return false },
			[]string{"command/1"}, []safety.Profile{safety.ProfileInspect}, "it tried to change something: write to /x"},
		{"auto: again in contained, unasked", safety.ApprovalsAuto, []safety.Profile{safety.ProfileInspect}, func(Approval) bool { return false },
			nil, []safety.Profile{safety.ProfileInspect, safety.ProfileContained}, "ran again in the contained jail"},
		{"auto, contained blocks too: asked, then workspace", safety.ApprovalsAuto, []safety.Profile{safety.ProfileInspect, safety.ProfileContained}, func(Approval) bool { return true },
			[]string{"command/1"}, []safety.Profile{safety.ProfileInspect, safety.ProfileContained, safety.ProfileWorkspace}, "ran again in the workspace jail"},
		{"workspace blocks too: leaving the jail is its own question", safety.ApprovalsAsk, []safety.Profile{safety.ProfileInspect, safety.ProfileWorkspace}, func(a Approval) bool { return a.Kind != ApproveUnsandboxed },
			[]string{"command/1", "unsandboxed/1"}, []safety.Profile{safety.ProfileInspect, safety.ProfileWorkspace}, "blocked by the sandbox"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeShell{sandboxed: true, blockProfiles: tt.block}
			h, _ := sandboxHarness(t, f, tt.approvals, "cat notes.txt", func(a Approval) Decision { return Decision{Allow: tt.allow(a)} })
			if _, err := h.run("go"); err != nil {
				t.Fatal(err)
			}
			var asks []string
			for _, a := range h.asked {
				asks = append(asks, string(a.Kind)+"/"+string(rune('0'+a.Step)))
				if a.Kind == ApproveCommand && (len(a.Reasons) == 0 || !strings.Contains(a.Reasons[0], "it tried write to /x") || a.Tier != safety.Confirm) {
					t.Errorf("the approval does not name what the command tried: tier %v, %v", a.Tier, a.Reasons)
				}
			}
			if strings.Join(asks, " ") != strings.Join(tt.wantAsks, " ") {
				t.Errorf("asked %v, want %v", asks, tt.wantAsks)
			}
			if !slices.Equal(f.profiles, tt.wantRuns) || slices.Contains(f.runs, "out") && tt.wantAsks[len(tt.wantAsks)-1] != "unsandboxed/1" {
				t.Errorf("ran in %v (%v), want %v", f.profiles, f.runs, tt.wantRuns)
			}
			if got := h.toolMessages(1)[0]["content"].(string); !strings.Contains(got, tt.want) {
				t.Errorf("tool result %q lacks %q", got, tt.want)
			}
		})
	}
}

// TestBlockedRefusalWording: when the user does not allow a command the
// inspect jail stopped, the model is told what happened: a read the jail
// hid as a hidden read (never as a change), a write as a change, and
// anything else as neither.
func TestBlockedRefusalWording(t *testing.T) {
	read := "a read of /h/src/other/.env, hidden by the sandbox (this jail hides your home but the project and the toolchains)"
	for _, tc := range []struct {
		name    string
		blocked []string
		want    []string
		notWant string
	}{
		{"a hidden read", []string{read}, []string{"it tried to read what the jail hides: " + read, "The read was hidden by the sandbox"}, "tried to change"},
		{"a write", nil, []string{"it tried to change something: write to /x", "nothing outside it changed"}, "hidden by the sandbox"},
		{"the network", []string{"a network connection (the network is off in the sandbox)"}, []string{"it tried more than that: a network connection"}, "tried to change something"},
		{"a read and a write", []string{read, "write to /x (outside the writable paths)"}, []string{"it tried more than that: " + read + "; write to /x"}, "tried to change something"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeShell{sandboxed: true, blockProfiles: []safety.Profile{safety.ProfileInspect}, blocked: tc.blocked}
			h, _ := sandboxHarness(t, f, safety.ApprovalsAsk, "cat notes.txt", func(Approval) Decision { return Decision{} })
			if _, err := h.run("go"); err != nil {
				t.Fatal(err)
			}
			got := h.toolMessages(1)[0]["content"].(string)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("tool result lacks %q:\n%s", w, got)
				}
			}
			if first, _, _ := strings.Cut(got, "\n\n"); strings.Contains(first, tc.notWant) {
				t.Errorf("tool result says %q:\n%s", tc.notWant, first)
			}
		})
	}
}
