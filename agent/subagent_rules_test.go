package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"pincer/agent/agenttest"
	"pincer/hooks"
	"pincer/safety"
)

// TestSubAgentInPlanMode: plan mode holds for a sub-agent too, whatever
// its definition lists: it is offered only what plan mode offers, and a
// write it sends anyway is refused without asking anybody.
func TestSubAgentInPlanMode(t *testing.T) {
	def := AgentDef{Name: "scribe", Description: "writes notes", Tools: []string{"read_file", "write_file"}, Prompt: "You write notes."}
	h := newSubHarness(t, SubAgents{Agents: []AgentDef{def}}, safety.ApprovalsAsk)
	h.agent.SetMode(ModePlan)
	h.script(
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "task", Arguments: `{"description":"write a note","prompt":"Write NOTE.md.","agent":"scribe"}`}),
			agenttest.Text("planned", 5),
		},
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "w1", Name: "write_file", Arguments: `{"path":"NOTE.md","content":"hi\n"}`}),
			agenttest.Text("Could not write.", 5),
		},
	)
	if _, err := h.run("plan it"); err != nil {
		t.Fatal(err)
	}
	h.checkStrict()
	if got := toolNames(h.mainReqs[0]); !slices.Contains(got, "task") || slices.Contains(got, "write_file") {
		t.Errorf("plan mode offers the main agent %v, want task and no write_file", got)
	}
	if len(h.subReqs) != 2 {
		t.Fatalf("%d sub requests, want 2", len(h.subReqs))
	}
	if got := toolNames(h.subReqs[0]); !slices.Equal(got, []string{"read_file"}) {
		t.Errorf("the sub-agent in plan mode is offered %v, want read_file only", got)
	}
	if _, err := os.Stat(filepath.Join(h.root, "NOTE.md")); err == nil {
		t.Error("the sub-agent wrote a file in plan mode")
	}
	if len(h.asked) != 0 {
		t.Errorf("plan mode asked %d times, want a refusal without asking", len(h.asked))
	}
	var result string
	for _, m := range messagesOf(h.subReqs[1]) {
		if m["role"] == "tool" {
			result, _ = m["content"].(string)
		}
	}
	if !strings.Contains(result, "plan mode") {
		t.Errorf("the sub-agent's write got %q, want a plan-mode refusal", result)
	}
}

// toolHooks blocks the PreToolUse of one tool and counts the events.
type toolHooks struct {
	mu     sync.Mutex
	block  string
	events []hooks.Event
}

func (f *toolHooks) Run(_ context.Context, in hooks.Input) hooks.Outcome {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, in.Event)
	if in.Event == hooks.PreToolUse && in.ToolName == f.block {
		return hooks.Outcome{Block: true, Reason: "not that file"}
	}
	return hooks.Outcome{}
}

// TestHooksApplyToSubAgentCalls: a PreToolUse hook that blocks a tool
// blocks it in a sub-agent too, and the sub-agent's job (the model's
// text) is no prompt of the person's: no UserPromptSubmit or Stop runs
// for it.
func TestHooksApplyToSubAgentCalls(t *testing.T) {
	h := newSubHarness(t, SubAgents{}, safety.ApprovalsAsk)
	h.write("secret.txt", "hidden-7713\n")
	th := &toolHooks{block: "read_file"}
	h.agent.opts.Hooks = th
	h.script(
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_1", Name: "task", Arguments: `{"description":"look","prompt":"Read secret.txt."}`}),
			agenttest.Text("done", 5),
		},
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "r1", Name: "read_file", Arguments: `{"path":"secret.txt"}`}),
			agenttest.Text("Blocked.", 5),
		},
	)
	if _, err := h.run("go"); err != nil {
		t.Fatal(err)
	}
	for _, r := range h.subReqs {
		for _, m := range messagesOf(r) {
			if c, _ := m["content"].(string); strings.Contains(c, "hidden-7713") {
				t.Fatalf("the sub-agent read what the hook blocks: %v", m)
			}
		}
	}
	count := map[hooks.Event]int{}
	for _, e := range th.events {
		count[e]++
	}
	if count[hooks.UserPromptSubmit] != 1 || count[hooks.Stop] != 1 {
		t.Errorf("prompt and stop hooks ran %d and %d times, want once each (the person's turn only)", count[hooks.UserPromptSubmit], count[hooks.Stop])
	}
	if count[hooks.PreToolUse] != 2 {
		t.Errorf("PreToolUse ran %d times, want 2 (the task and the sub-agent's read)", count[hooks.PreToolUse])
	}
}

// TestSubAgentApprovalsCarryNoCallID: a sub-agent's question names the
// sub-agent and no call id, since its ids are its own and may equal the
// main agent's (the screen keys an applied edit's diff by call id).
func TestSubAgentApprovalsCarryNoCallID(t *testing.T) {
	def := AgentDef{Name: "scribe", Description: "writes notes", Tools: []string{"write_file"}, Prompt: "You write notes."}
	h := newSubHarness(t, SubAgents{Agents: []AgentDef{def}}, safety.ApprovalsAsk)
	h.script(
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_0", Name: "task", Arguments: `{"description":"write a note","prompt":"Write NOTE.md.","agent":"scribe"}`}),
			agenttest.Text("done", 5),
		},
		[]agenttest.Reply{
			agenttest.Tools("", agenttest.Call{ID: "call_0", Name: "write_file", Arguments: `{"path":"NOTE.md","content":"hi\n"}`}),
			agenttest.Text("Wrote it.", 5),
		},
	)
	if _, err := h.run("note it"); err != nil {
		t.Fatal(err)
	}
	if len(h.asked) != 1 {
		t.Fatalf("asked %d times, want the edit once", len(h.asked))
	}
	if q := h.asked[0]; q.CallID != "" || !strings.Contains(q.Agent, "scribe") {
		t.Errorf("the sub-agent's question has CallID %q and Agent %q; want none and the sub-agent", q.CallID, q.Agent)
	}
}

// TestAgentFileLimitWarnsOnce: past the limit of agent files nothing more
// is read, and the warning comes once, not once per later directory.
func TestAgentFileLimitWarnsOnce(t *testing.T) {
	var dirs []AgentDir
	for d := 0; d < 3; d++ {
		dir := t.TempDir()
		for i := 0; i < maxAgentFiles; i++ {
			body := fmt.Sprintf("---\nname: a%d_%d\ndescription: x\n---\nhi\n", d, i)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("a%d.md", i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dirs = append(dirs, AgentDir{Path: dir})
	}
	defs, warnings := LoadAgentDefs(dirs)
	if len(defs) != maxAgentFiles {
		t.Errorf("%d agents read, want the first %d", len(defs), maxAgentFiles)
	}
	if len(warnings) != 1 {
		t.Errorf("warnings %q, want one", warnings)
	}
}
