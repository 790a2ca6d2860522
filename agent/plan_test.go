package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/safety"
	"pincer/tools"
)

// requestTools is the names of the tools request i offered.
func requestTools(t *testing.T, srv *agenttest.Server, i int) []string {
	t.Helper()
	reqs := srv.Requests()
	if i >= len(reqs) {
		t.Fatalf("request %d was not sent (%d sent)", i, len(reqs))
	}
	var names []string
	list, _ := reqs[i].Body["tools"].([]any)
	for _, raw := range list {
		fn, _ := raw.(map[string]any)["function"].(map[string]any)
		names = append(names, withDeferred(fn)...)
	}
	slices.Sort(names)
	return names
}

// withDeferred is the name of an offered tool, or for load_tools the
// names of the deferred tools it lists: offered too, by name.
func withDeferred(fn map[string]any) []string {
	name, _ := fn["name"].(string)
	if name != LoadToolsName {
		return []string{name}
	}
	desc, _ := fn["description"].(string)
	var names []string
	for _, line := range strings.Split(desc, "\n")[1:] {
		if n, _, ok := strings.Cut(strings.TrimPrefix(line, "- "), ":"); ok {
			names = append(names, n)
		}
	}
	return names
}

// systemText is the system messages of request i, joined.
func systemText(t *testing.T, srv *agenttest.Server, i int) string {
	t.Helper()
	var b strings.Builder
	for _, m := range srv.Requests()[i].Body["messages"].([]any) {
		if mm := m.(map[string]any); mm["role"] == "system" {
			b.WriteString(mm["content"].(string) + "\n")
		}
	}
	return b.String()
}

// fakeTool is a tool from outside the registry (an MCP server's, say).
type fakeTool struct {
	name    string
	mutates bool
}

func (f fakeTool) Name() string        { return f.name }
func (f fakeTool) Description() string { return "a fake tool" }
func (f fakeTool) Parameters() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{}}
}
func (f fakeTool) Mutates() bool { return f.mutates }
func (f fakeTool) Decode(string) (tools.Call, error) {
	return nil, os.ErrInvalid
}

// TestPlanModeOffersOnlyReadOnlyTools: the request made in plan mode offers
// the read-only tools and run_command, none that writes, no MCP tool (even
// one that says it only reads), and asks for a plan; back in ask mode
// everything is offered again and the plan instruction is gone.
func TestPlanModeOffersOnlyReadOnlyTools(t *testing.T) {
	h := newHarness(t, 30, agenttest.Text("1. Read it. 2. Change it.", 8), agenttest.Text("done", 4))
	h.agent.opts.DynamicTools = func() []tools.Tool {
		return []tools.Tool{fakeTool{name: "mcp__docs__search", mutates: false}, fakeTool{name: "mcp__db__drop", mutates: true}}
	}
	h.agent.SetMode(ModePlan)
	res, err := h.run("plan the change")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Planned || res.Text != "1. Read it. 2. Change it." {
		t.Errorf("result %+v, want the plan marked Planned", res)
	}
	want := []string{"glob", "grep", "read_file", "read_web", "run_command", "tree_view"}
	if got := requestTools(t, h.srv, 0); !slices.Equal(got, want) {
		t.Errorf("plan mode offered %v, want %v", got, want)
	}
	if sys := systemText(t, h.srv, 0); !strings.Contains(sys, "# Plan mode") || !strings.Contains(sys, "Do not change anything") {
		t.Errorf("the system prompt in plan mode does not ask for a plan:\n%s", sys)
	}

	h.agent.SetMode(ModeAsk)
	res, err = h.run("go ahead")
	if err != nil {
		t.Fatal(err)
	}
	if res.Planned {
		t.Error("an answer in ask mode is marked as a plan")
	}
	got := requestTools(t, h.srv, 1)
	for _, name := range []string{"write_file", "edit_file", "mcp__docs__search", "mcp__db__drop"} {
		if !slices.Contains(got, name) {
			t.Errorf("ask mode does not offer %s: %v", name, got)
		}
	}
	if sys := systemText(t, h.srv, 1); strings.Contains(sys, "# Plan mode") {
		t.Errorf("the plan instruction stayed after leaving plan mode:\n%s", sys)
	}
	h.checkStrict()
}

// TestPlanModeRefusesChanges: a call that would change something, sent
// anyway in plan mode, is refused without running and without asking, with
// a result that says plan mode forbids it; read-only calls run. Allow rules
// and unknown_commands do not make a command read-only.
func TestPlanModeRefusesChanges(t *testing.T) {
	cases := []struct {
		name    string
		call    agenttest.Call
		refused bool
		want    string // in the result
	}{
		{"write_file", agenttest.Call{ID: "c1", Name: "write_file", Arguments: args(map[string]any{"path": "notes.txt", "content": "overwritten"})}, true, "plan mode, which forbids write_file"},
		{"write_file with bad arguments", agenttest.Call{ID: "c1", Name: "write_file", Arguments: `{"path": 7}`}, true, "plan mode, which forbids write_file"},
		{"edit_file", agenttest.Call{ID: "c1", Name: "edit_file", Arguments: args(map[string]any{"path": "notes.txt", "old_text": "keep", "new_text": "lose"})}, true, "plan mode, which forbids edit_file"},
		{"a command that writes", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "echo lose > notes.txt"})}, true, "only read-only commands"},
		{"a command the allow rules let run", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "touch made.txt"})}, true, "only read-only commands"},
		{"an unknown program", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "frobnicate --all"})}, true, "only read-only commands"},
		{"a dangerous command", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "rm -rf ."})}, true, "only read-only commands"},
		{"a read-only command", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "cat notes.txt"})}, false, "keep me"},
		{"read_file", agenttest.Call{ID: "c1", Name: "read_file", Arguments: args(map[string]any{"path": "notes.txt"})}, false, "keep me"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := agenttest.New(agenttest.Tools("", tc.call), agenttest.Text("Here is the plan.", 8))
			t.Cleanup(srv.Close)
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("keep me\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: root, CommandTimeout: 10 * time.Second})...)
			if err != nil {
				t.Fatal(err)
			}
			cls, err := safety.NewClassifier(safety.Rules{Allow: []string{"touch *"}, UnknownCommands: safety.UnknownSafe})
			if err != nil {
				t.Fatal(err)
			}
			var asked []Approval
			a, err := New(Options{
				Model: newTestClient(t, srv.BaseURL(), ""), Tools: reg, Safety: cls, Root: root, Home: t.TempDir(),
				Mode:      ModePlan,
				Approvals: safety.ApprovalsAuto,
				// Everything that asks is approved, twice: plan mode alone
				// must stop the change.
				Approver: ApproverFunc(func(_ context.Context, ap Approval) (Decision, error) {
					asked = append(asked, ap)
					return Decision{Allow: true}, nil
				}),
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := a.Run(context.Background(), "plan it", nil); err != nil {
				t.Fatal(err)
			}
			var result Message
			for _, m := range a.History() {
				if m.Role == RoleTool {
					result = m
				}
			}
			if !strings.Contains(result.Content, tc.want) || result.IsError != tc.refused {
				t.Errorf("result (error %v):\n%s\nwant error %v and %q", result.IsError, result.Content, tc.refused, tc.want)
			}
			if tc.refused && len(asked) > 0 {
				t.Errorf("a refused call was put to the person: %+v", asked)
			}
			if data, _ := os.ReadFile(filepath.Join(root, "notes.txt")); string(data) != "keep me\n" {
				t.Errorf("notes.txt = %q, want it untouched", data)
			}
			if _, err := os.Stat(filepath.Join(root, "made.txt")); err == nil {
				t.Error("made.txt was created")
			}
			for i, r := range srv.Requests() {
				if r.Strict != nil {
					t.Errorf("request %d: %v", i, r.Strict)
				}
			}
		})
	}
}

func TestModeCycleAndParse(t *testing.T) {
	for _, tc := range []struct {
		in   Mode
		next Mode
	}{{ModeAsk, ModeAcceptEdits}, {ModeAcceptEdits, ModePlan}, {ModePlan, ModeAsk}, {"", ModeAsk}} {
		if got := tc.in.Next(); got != tc.next {
			t.Errorf("%q.Next() = %q, want %q", tc.in, got, tc.next)
		}
	}
	for _, tc := range []struct {
		in   string
		want Mode
		ok   bool
	}{{"", ModeAsk, true}, {"ask", ModeAsk, true}, {"Plan", ModePlan, true}, {"accept-edits", ModeAcceptEdits, true}, {"accept edits", ModeAcceptEdits, true}, {"yolo", ModeAsk, false}} {
		got, err := ParseMode(tc.in)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("ParseMode(%q) = %q, %v", tc.in, got, err)
		}
	}
	if got := ModeAcceptEdits.Label(); got != "accept edits" {
		t.Errorf("label %q", got)
	}
}

// TestModeSwitchesWhileATurnRuns: the screen may switch the mode from its
// own goroutine while a turn runs; the next request follows it.
func TestModeSwitchesWhileATurnRuns(t *testing.T) {
	h := newHarness(t, 30)
	h.agent.SetMode(ModePlan)
	first := true
	h.srv.SetResponder(func(agenttest.Request) (agenttest.Reply, bool) {
		if !first {
			return agenttest.Reply{}, false
		}
		first = false
		h.agent.SetMode(ModeAsk) // from the server's goroutine, as the screen would
		return agenttest.Tools("", agenttest.Call{ID: "c1", Name: "tree_view", Arguments: `{}`}), true
	})
	h.srv.Add(agenttest.Text("done", 4))
	res, err := h.run("look, then act")
	if err != nil {
		t.Fatal(err)
	}
	if res.Planned {
		t.Error("the answer came after leaving plan mode, yet it is marked as a plan")
	}
	if got := requestTools(t, h.srv, 0); slices.Contains(got, "write_file") {
		t.Errorf("the first request, in plan mode, offered write_file: %v", got)
	}
	if got := requestTools(t, h.srv, 1); !slices.Contains(got, "write_file") {
		t.Errorf("the request after switching to ask lacks write_file: %v", got)
	}
}
