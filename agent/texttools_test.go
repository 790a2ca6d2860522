package agent

import (
	"strings"
	"testing"

	"pincer/agent/agenttest"
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
