package agent

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"

	"pincer/agent/prompts"
	"pincer/session"
	"pincer/tools"
	"pincer/tools/lsp"
	"pincer/tools/sessiontools"
	"pincer/tools/todo"
)

// thirteen is the tools every session has: the built-ins, todo_write and
// the store's and the sub-agents' tools; allTools adds a language
// server's.
func thirteen(t *testing.T) []tools.Tool {
	return slices.DeleteFunc(allTools(t), func(tool tools.Tool) bool { return strings.HasPrefix(tool.Name(), "lsp_") })
}

// allTools is every tool pincer offers in a project with a store, a
// sub-agent and a language server, as the composition root wires them.
func allTools(t *testing.T) []tools.Tool {
	t.Helper()
	st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	current := func() string { return "" }
	list := append(tools.Builtins(tools.Options{Root: "/project"}), todo.Tool())
	for _, build := range []func() (tools.Tool, error){
		func() (tools.Tool, error) {
			return sessiontools.RecallTool(st, sessiontools.RecallScope{Dir: "/project"}, current)
		},
		func() (tools.Tool, error) {
			return sessiontools.ScheduleTool(st, sessiontools.TaskPlace{Dir: "/project"}, current, func() time.Time { return time.Unix(0, 0) })
		},
		func() (tools.Tool, error) { return sessiontools.RememberTool(st, "/project") },
		func() (tools.Tool, error) { return taskTool(nil) },
	} {
		tool, err := build()
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, tool)
	}
	return append(list, lsp.Tools(nil, "/project")...)
}

// fixedEnv is an environment of typical length, so weights do not depend
// on the machine the test runs on.
func fixedEnv() Environment {
	return Environment{OS: "linux", Shell: "/bin/bash", Root: "/home/someone/src/project", Date: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), GitRepo: true}
}

// TestProfileFor: windows of 16k tokens and less get the compact profile,
// larger or unknown windows the full one, and a configured profile wins.
func TestProfileFor(t *testing.T) {
	for _, tt := range []struct {
		configured string
		window     int
		want       Profile
	}{
		{"", 0, ProfileFull},
		{"", 4096, ProfileCompact},
		{"", 8192, ProfileCompact},
		{"", 16384, ProfileCompact},
		{"", 16385, ProfileFull},
		{"", 30000, ProfileFull},
		{"full", 4096, ProfileFull},
		{"compact", 128000, ProfileCompact},
		{"auto", 4096, ProfileCompact},
	} {
		if got := ChooseProfile(tt.configured, tt.window); got != tt.want {
			t.Errorf("ChooseProfile(%q, %d) = %s, want %s", tt.configured, tt.window, got, tt.want)
		}
	}
}

// TestProfileWeights pins what each profile sends before the first word
// (instructions and tools at the wire, characters over four), so it
// cannot creep back: before the profiles the thirteen tools and the
// instructions took 4,790 tokens.
func TestProfileWeights(t *testing.T) {
	for _, tt := range []struct {
		profile Profile
		target  int
	}{
		{ProfileFull, 3500},
		{ProfileCompact, 1500},
	} {
		agentMD, skillsMD := prompts.Defaults(string(tt.profile))
		system := SystemPrompt(PromptParts{Agent: agentMD, Skills: skillsMD, Env: fixedEnv()})
		w := Weigh(system, thirteen(t), tt.profile)
		t.Logf("%s: %d tokens (instructions %d, tools %v, deferred %v)", tt.profile, w.Total(), w.Instructions, w.Tools, w.Deferred)
		if w.Total() > tt.target {
			t.Errorf("the %s profile weighs %d tokens, over its target of %d", tt.profile, w.Total(), tt.target)
		}
		withLSP := Weigh(system, allTools(t), tt.profile)
		t.Logf("%s with a language server: %d tokens", tt.profile, withLSP.Total())
	}
}

// fakeMCP is a tool an MCP server offers, of a given description length.
type fakeMCP struct {
	name string
	desc string
}

func (f fakeMCP) Name() string        { return f.name }
func (f fakeMCP) Description() string { return f.desc }
func (f fakeMCP) Parameters() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}
}
func (f fakeMCP) Mutates() bool                     { return false }
func (f fakeMCP) Decode(string) (tools.Call, error) { return nil, fmt.Errorf("not callable") }

// TestOfferedDefers: which tools go in full and which by name, per
// profile, with MCP tools past the budget deferred in their order.
func TestOfferedDefers(t *testing.T) {
	var mcp []tools.Tool
	for i := range 30 {
		mcp = append(mcp, fakeMCP{name: fmt.Sprintf("mcp__srv__t%02d", i), desc: strings.Repeat("Does a thing. ", 20)})
	}
	list := append(allTools(t), mcp...)
	for _, tt := range []struct {
		profile      Profile
		loaded       map[string]bool
		sent, defers []string
	}{
		{ProfileFull, nil,
			[]string{"read_file", "edit_file", "run_command", "lsp_definition", "lsp_rename", "mcp__srv__t00", "load_tools"},
			[]string{"recall", "schedule_task", "remember", "read_web", "task", "todo_write", "mcp__srv__t29"}},
		{ProfileCompact, nil,
			[]string{"read_file", "edit_file", "run_command", "load_tools"},
			[]string{"recall", "todo_write", "lsp_definition", "lsp_rename", "mcp__srv__t00", "mcp__srv__t29"}},
		{ProfileCompact, map[string]bool{"recall": true, "mcp__srv__t29": true},
			[]string{"recall", "mcp__srv__t29", "load_tools"},
			[]string{"todo_write", "mcp__srv__t00"}},
	} {
		o := Offered(list, tt.profile, tt.loaded)
		var sent, deferred []string
		for _, s := range o.Specs {
			sent = append(sent, s.Name)
		}
		for _, d := range o.Deferred {
			deferred = append(deferred, d.Name())
		}
		for _, n := range tt.sent {
			if !slices.Contains(sent, n) {
				t.Errorf("%s, loaded %v: %s not sent in full (sent %v)", tt.profile, tt.loaded, n, sent)
			}
		}
		for _, n := range tt.defers {
			if !slices.Contains(deferred, n) || slices.Contains(sent, n) {
				t.Errorf("%s, loaded %v: %s not deferred (deferred %v)", tt.profile, tt.loaded, n, deferred)
			}
		}
		if last := o.Specs[len(o.Specs)-1]; last.Name != LoadToolsName || !strings.Contains(last.Description, "- todo_write: Keep a task list for multi-step work; the user sees it.") {
			t.Errorf("%s: the last tool is %s: %s; want load_tools listing the deferred ones", tt.profile, last.Name, last.Description)
		}
	}
}

// TestFirstSentence: the compact profile's descriptions end at the first
// sentence, not at an abbreviation.
func TestFirstSentence(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Read a text file. Each line is numbered.", "Read a text file."},
		{`Find files by pattern, e.g. "**/*.go". More.`, `Find files by pattern, e.g. "**/*.go".`},
		{"One line\nacross two. Then.", "One line across two."},
		{"No full stop", "No full stop"},
	} {
		if got := firstSentence(tt.in, 0); got != tt.want {
			t.Errorf("firstSentence(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestDeferredToolLoads: a model that calls a deferred tool with wrong
// arguments gets its definition back and nothing runs; the next request
// offers it in full, and the model's proper call then runs through the
// approvals as any call does. load_tools loads by name.
func TestDeferredToolLoads(t *testing.T) {
	st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 6,
		agenttest.Tools("", agenttest.Call{ID: "r1", Name: "remember", Arguments: `{"note":"port 5433"}`}),
		agenttest.Tools("", agenttest.Call{ID: "r2", Name: "remember", Arguments: `{"text":"port 5433"}`}),
		agenttest.Tools("", agenttest.Call{ID: "l1", Name: "load_tools", Arguments: `{"names":["read_web","nope"]}`}),
		agenttest.Text("done", 4))
	tool, err := sessiontools.RememberTool(st, "/p")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := tools.NewRegistry(append(tools.Builtins(tools.Options{Root: h.root}), tool)...)
	if err != nil {
		t.Fatal(err)
	}
	h.agent.opts.Tools = reg
	if _, err := h.run("remember the staging port"); err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	offered := func(r agenttest.Request) []string {
		var names []string
		list, _ := r.Body["tools"].([]any)
		for _, x := range list {
			fn, _ := x.(map[string]any)["function"].(map[string]any)
			names = append(names, fmt.Sprint(fn["name"]))
		}
		return names
	}
	if names := offered(reqs[0]); slices.Contains(names, "remember") || slices.Contains(names, "read_web") || !slices.Contains(names, "load_tools") {
		t.Errorf("first request offers %v; want remember and read_web deferred behind load_tools", names)
	}
	first := toolResult(t, reqs[1], "r1")
	if !strings.Contains(first, "not run") || !strings.Contains(first, `"text"`) || !strings.Contains(first, "call it again") {
		t.Errorf("the wrong call's result is %q; want its definition and to call again", first)
	}
	if names := offered(reqs[1]); !slices.Contains(names, "remember") {
		t.Errorf("after the call, the request offers %v; want remember in full", names)
	}
	if len(h.asked) != 1 || h.asked[0].Tool != "remember" {
		t.Errorf("asked %+v; want the proper call asked about once, the wrong one never", h.asked)
	}
	notes, err := st.Notes("/p")
	if err != nil || len(notes) != 1 {
		t.Errorf("notes %+v (%v); want the one the proper call saved", notes, err)
	}
	loaded := toolResult(t, reqs[3], "l1")
	if !strings.Contains(loaded, "read_web: Fetch") || !strings.Contains(loaded, `There is no tool named nope`) {
		t.Errorf("load_tools answered %q; want read_web's definition and the unknown name", loaded)
	}
	if names := offered(reqs[3]); !slices.Contains(names, "read_web") {
		t.Errorf("after load_tools, the request offers %v; want read_web", names)
	}
	h.checkStrict()
}

// toolResult is the content of the tool message answering call id in a
// recorded request.
func toolResult(t *testing.T, r agenttest.Request, id string) string {
	t.Helper()
	msgs, _ := r.Body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "tool" && mm["tool_call_id"] == id {
			b, _ := json.Marshal(mm["content"])
			var s string
			_ = json.Unmarshal(b, &s)
			return s
		}
	}
	t.Fatalf("no result for %s in the request", id)
	return ""
}

// TestRestoreLoadsCalledTools: a resumed conversation that called a
// deferred tool offers it in full, so no request's history names a tool
// the request leaves out; the others stay deferred.
func TestRestoreLoadsCalledTools(t *testing.T) {
	h := newHarness(t, 3, agenttest.Text("ok", 4))
	h.agent.Restore([]Message{
		{Role: RoleUser, Content: "fetch it", Seq: 1},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "w1", Name: "read_web", Arguments: `{"url":"https://example.com"}`}}, Seq: 2},
		{Role: RoleTool, ToolCallID: "w1", ToolName: "read_web", Content: "page", Seq: 3},
	}, "", 0)
	if _, err := h.run("thanks"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, x := range h.srv.Requests()[0].Body["tools"].([]any) {
		names = append(names, x.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	if !slices.Contains(names, "read_web") || slices.Contains(names, "todo_write") {
		t.Errorf("after a resume the request offers %v; want read_web in full", names)
	}
}

// TestTaskDeferredUnlessThePersonDefinedAgents: the task tool waits in
// load_tools, unless the person defined agents of their own, which its
// description lists: then it is sent in full.
func TestTaskDeferredUnlessThePersonDefinedAgents(t *testing.T) {
	for _, tt := range []struct {
		name string
		defs []AgentDef
		full bool
	}{
		{"no agents of one's own", nil, false},
		{"an agent of one's own", []AgentDef{{Name: "scribe", Description: "Writes notes.", Prompt: "Write."}}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 3)
			o := h.agent.opts
			o.SubAgents = &SubAgents{Agents: tt.defs}
			a, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			sent := false
			for _, s := range a.offer().Specs {
				sent = sent || s.Name == TaskToolName
			}
			if sent != tt.full || sent == slices.Contains(a.deferredNames(), TaskToolName) {
				t.Errorf("task sent in full: %v, deferred %v; want in full %v", sent, a.deferredNames(), tt.full)
			}
		})
	}
}
