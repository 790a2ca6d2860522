package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/agent/agenttest"
	"pincer/agent/llm"
)

// TestTextCallOfDeferredTool: in text-tools mode, a call the model writes
// as text to a tool listed only in load_tools (todo_write) behaves as the
// same native call: arguments that fit run it, arguments that do not get
// its definition back, and either way it is sent in full afterwards.
func TestTextCallOfDeferredTool(t *testing.T) {
	refused := agenttest.Error(400, `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`)
	tests := []struct {
		name, args, want string
		isError          bool
	}{
		{"fits", listA, "Task list saved: 2 items", false},
		{"does not fit", `{"items": 3}`, "Here is its definition", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newTodoHarness(t, refused,
				agenttest.Text("<tool_call>\n{\"name\": \"todo_write\", \"arguments\": "+tt.args+"}\n</tool_call>", 7),
				agenttest.Text("Done.", 5))
			if _, err := h.run("plan the work"); err != nil {
				t.Fatal(err)
			}
			var results []ToolResult
			for _, ev := range h.events {
				if r, ok := ev.(ToolResult); ok {
					results = append(results, r)
				}
			}
			if len(results) != 1 || results[0].Name != "todo_write" || results[0].IsError != tt.isError || !strings.Contains(results[0].Content, tt.want) {
				t.Fatalf("results %+v, want one todo_write result saying %q", results, tt.want)
			}
			reqs := h.srv.Requests()
			if last := string(reqs[len(reqs)-1].Raw); !strings.Contains(last, `- todo_write: `) {
				t.Errorf("todo_write is not described in full after it was called: %s", last)
			}
		})
	}
}

// TestGemmaToolCodeCallRuns: Gemma, whose Ollama model has no tool
// calling, writes its call as Python in a tool_code fence; it runs as a
// call written as text, and a botched one is explained to the model.
func TestGemmaToolCodeCallRuns(t *testing.T) {
	noTools := agenttest.Error(400, "registry.ollama.ai/library/gemma3:4b does not support tools")
	h := newHarness(t, 5, noTools,
		agenttest.Text("```tool_code\nread_file(path=name)\n```", 5),
		agenttest.Text("```tool_code\nprint(default_api.read_file(path=\"notes.txt\"))\n```", 5),
		agenttest.Text("It says hi.", 5))
	h.write("notes.txt", "hi from gemma\n")
	res, err := h.run("read notes.txt")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "It says hi." {
		t.Errorf("answer %q", res.Text)
	}
	var results []ToolResult
	for _, ev := range h.events {
		if r, ok := ev.(ToolResult); ok {
			results = append(results, r)
		}
	}
	if len(results) != 2 || !results[0].IsError || !strings.Contains(results[0].Content, "not a literal") ||
		results[1].IsError || !strings.Contains(results[1].Content, "hi from gemma") || !strings.HasSuffix(results[1].Summary, fromTextMark) {
		t.Errorf("results %+v, want the botched call explained and the second read", results)
	}
}

// memoryMap is a TextToolsMemory in a map.
type memoryMap map[string]string

func (m memoryMap) TextTools(model string) (string, bool) {
	r, ok := m[model]
	return r, ok
}

func (m memoryMap) SetTextTools(model, reason string) error {
	if reason == "" {
		delete(m, model)
	} else {
		m[model] = reason
	}
	return nil
}

// TestTextToolsRemembered: a server's refusal of tools is remembered for
// its model, so the next agent (a new process, a resumed session) starts
// with calls written as text, says so once and spends no refused request;
// a model the server takes tools for is not affected, and one whose
// server takes tools again is forgotten.
func TestTextToolsRemembered(t *testing.T) {
	refused := agenttest.Error(400, `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`)
	call := agenttest.Text("<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes.txt\"}}\n</tool_call>", 7)
	mem := memoryMap{}

	first := newHarness(t, 5, refused, call, agenttest.Text("It says hello.", 5))
	first.agent.opts.TextToolsMemory = mem
	first.write("notes.txt", "hello\n")
	if _, err := first.run("what does notes.txt say?"); err != nil {
		t.Fatal(err)
	}
	if mem["test-model"] != TextToolsNoParser {
		t.Fatalf("memory %v, want test-model remembered as %q", mem, TextToolsNoParser)
	}

	second := newHarness(t, 5, call, agenttest.Text("It says hello.", 5), agenttest.Text("Still hello.", 5))
	second.agent.opts.TextToolsMemory = mem
	second.write("notes.txt", "hello\n")
	for _, prompt := range []string{"what does notes.txt say?", "and now?"} {
		if _, err := second.run(prompt); err != nil {
			t.Fatal(err)
		}
	}
	reqs := second.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (none refused)", len(reqs))
	}
	for i, r := range reqs {
		if r.Body["tools"] != nil || !strings.Contains(string(r.Raw), "tool_call") {
			t.Errorf("request %d: tools field sent, or the tools not described as text", i)
		}
	}
	said := 0
	for _, n := range second.notices() {
		if strings.Contains(n, "as pincer learned earlier") {
			said++
		}
	}
	if said != 1 {
		t.Errorf("the remembered text mode was said %d times, want once: %q", said, second.notices())
	}

	// Another model on the same server (a /model switch) tries the
	// server's own tools first.
	switched := newHarness(t, 5, agenttest.Text("hi", 3))
	switched.agent.opts.TextToolsMemory = mem
	switched.agent.opts.Model.(*llm.Client).SetModel("tools-model")
	if _, err := switched.run("hi"); err != nil {
		t.Fatal(err)
	}
	if r := switched.srv.Requests()[0]; r.Body["tools"] == nil {
		t.Error("another model of the same server got calls as text")
	}

	// A fact too old to trust (stale) is asked again; the server takes
	// the tools now, so it is forgotten.
	stale := staleMemory{memoryMap{"test-model": TextToolsNoParser, "other-model": TextToolsNoParser}}
	again := newHarness(t, 5, agenttest.Text("hi", 3))
	again.agent.opts.TextToolsMemory = stale
	if _, err := again.run("hi"); err != nil {
		t.Fatal(err)
	}
	if _, ok := stale.memoryMap["test-model"]; ok || len(stale.memoryMap) != 1 {
		t.Errorf("memory %v, want test-model forgotten after its server took tools, other-model kept", stale.memoryMap)
	}
}

// staleMemory holds facts too old to be used.
type staleMemory struct{ memoryMap }

func (staleMemory) TextTools(string) (string, bool) { return "", false }

// TestSmallWindowLearnedSwitchesToCompact: with prompt_profile auto, a
// window learned mid-session that the compact profile is for (from the
// server before a turn, or named in a refusal) switches the agent to the
// compact instructions and tool descriptions, said once; a configured
// full profile is kept.
func TestSmallWindowLearnedSwitchesToCompact(t *testing.T) {
	refusal := agenttest.Error(400, "Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 6000 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input")
	tests := []struct {
		name    string
		auto    bool
		refused bool // else the server reports the window before the turn
		compact bool // the last request is compact
	}{
		{"reported, auto", true, false, true},
		{"refusal, auto", true, true, true},
		{"reported, full configured", false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			replies := []agenttest.Reply{agenttest.Text("one", 5), agenttest.Text("two", 5), agenttest.Text("three", 5)}
			if tt.refused {
				replies = append([]agenttest.Reply{agenttest.Text("zero", 5), refusal}, replies...)
			}
			h := newHarness(t, 5, replies...)
			h.srv.SetResponder(summaryResponder("## Goal and constraints\nkeep going"))
			h.agent.opts.Budget = Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 4}
			h.agent.opts.Profile, h.agent.opts.ProfileAuto = ProfileFull, tt.auto
			h.agent.opts.System, h.agent.opts.CompactSystem = "FULL INSTRUCTIONS", "COMPACT INSTRUCTIONS"
			window := llm.Window{}
			h.agent.opts.Window = func(context.Context, string) llm.Window { return window }
			if tt.refused {
				if _, err := h.run("hello"); err != nil {
					t.Fatal(err)
				}
				h.agent.Restore(append(h.agent.History(), bigHistory(8, 1000)...), "", 0)
			} else {
				window = llm.Window{Tokens: 8192, Server: llm.ServerLlamaCpp, Source: "llama.cpp /props"}
			}
			for _, prompt := range []string{"go on", "and more"} {
				if _, err := h.run(prompt); err != nil {
					t.Fatalf("Run(%q): %v", prompt, err)
				}
			}
			reqs := h.srv.Requests()
			last := string(reqs[len(reqs)-1].Raw)
			if got := strings.Contains(last, "COMPACT INSTRUCTIONS"); got != tt.compact || strings.Contains(last, "FULL INSTRUCTIONS") == tt.compact {
				t.Errorf("last request compact %v, want %v", got, tt.compact)
			}
			if got := h.agent.Profile() == ProfileCompact; got != tt.compact {
				t.Errorf("profile %s", h.agent.Profile())
			}
			said := 0
			for _, n := range h.notices() {
				if strings.Contains(n, "compact instructions and tool descriptions") {
					said++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[tt.compact]; said != want {
				t.Errorf("the switch was said %d times, want %d: %q", said, want, h.notices())
			}
		})
	}
}
