package llm

import (
	"context"
	"strings"
	"testing"

	"pincer/agent/agenttest"
	"pincer/chat"
)

// offeredTools are the tools the text-call tests offer: read_file needs a
// path (a string), run_command a command and takes an optional integer.
func offeredTools() []ToolSpec {
	return []ToolSpec{
		{Name: "read_file", Parameters: map[string]any{
			"type": "object", "additionalProperties": false,
			"properties": map[string]any{"path": map[string]any{"type": "string"}, "limit": map[string]any{"type": "integer"}},
			"required":   []any{"path"},
		}},
		{Name: "run_command", Parameters: map[string]any{
			"type":       "object",
			"properties": map[string]any{"command": map[string]any{"type": "string"}, "timeout": map[string]any{"type": "integer"}},
			"required":   []string{"command"},
		}},
	}
}

func TestRecoverTextCalls(t *testing.T) {
	t.Parallel()
	const (
		read = `{"path":"main.go"}`
		run  = `{"command":"go test ./..."}`
	)
	type want struct{ name, args string }
	tests := []struct {
		name string
		text string
		want []want // nil: not a call, the text stays the answer
	}{
		{"hermes", `<tool_call>{"name": "read_file", "arguments": {"path":"main.go"}}</tool_call>`, []want{{"read_file", read}}},
		{"hermes two", "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\":\"main.go\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"run_command\", \"arguments\": {\"command\":\"go test ./...\"}}\n</tool_call>", []want{{"read_file", read}, {"run_command", run}}},
		{"hermes unclosed", `<tool_call>{"name": "read_file", "arguments": {"path":"main.go"}}`, []want{{"read_file", read}}},
		{"hermes fenced", "```xml\n<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\":\"main.go\"}}</tool_call>\n```", []want{{"read_file", read}}},
		{"hermes arguments as string", `<tool_call>{"name": "read_file", "arguments": "{\"path\":\"main.go\"}"}</tool_call>`, []want{{"read_file", read}}},
		{"llama3 bare", `{"name": "read_file", "parameters": {"path":"main.go"}}`, []want{{"read_file", read}}},
		{"llama3 fenced", "```json\n{\"name\": \"read_file\", \"parameters\": {\"path\":\"main.go\"}}\n```", []want{{"read_file", read}}},
		{"llama3 python tag", `<|python_tag|>{"name": "run_command", "parameters": {"command":"go test ./..."}}`, []want{{"run_command", run}}},
		{"llama3 list", `[{"name": "read_file", "parameters": {"path":"main.go"}}, {"name": "run_command", "parameters": {"command":"go test ./..."}}]`, []want{{"read_file", read}, {"run_command", run}}},
		{"openai shape", `{"type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"main.go\"}"}}`, []want{{"read_file", read}}},
		{"mistral list", `[TOOL_CALLS][{"name": "read_file", "arguments": {"path":"main.go"}}]`, []want{{"read_file", read}}},
		{"mistral fenced", "```\n[TOOL_CALLS] [{\"name\": \"run_command\", \"arguments\": {\"command\":\"go test ./...\"}}]\n```", []want{{"run_command", run}}},
		{"mistral args form", `[TOOL_CALLS]read_file[ARGS]{"path":"main.go"}[TOOL_CALLS]run_command[ARGS]{"command":"go test ./..."}`, []want{{"read_file", read}, {"run_command", run}}},
		{"deepseek v3", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n```json\n{\"path\":\"main.go\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", []want{{"read_file", read}}},
		{"deepseek v3.1", `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path":"main.go"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>run_command<｜tool▁sep｜>{"command":"go test ./..."}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`, []want{{"read_file", read}, {"run_command", run}}},
		{"deepseek fenced", "```\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{\"path\":\"main.go\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>\n```", []want{{"read_file", read}}},
		{"qwen3 coder xml", "<tool_call>\n<function=read_file>\n<parameter=path>\nmain.go\n</parameter>\n</function>\n</tool_call>", []want{{"read_file", read}}},
		{"qwen3 coder xml typed", "<tool_call>\n<function=run_command>\n<parameter=command>\ngo test ./...\n</parameter>\n<parameter=timeout>\n30\n</parameter>\n</function>\n</tool_call>", []want{{"run_command", `{"command":"go test ./...","timeout":30}`}}},
		{"qwen3 coder xml string stays text", "<tool_call><function=read_file><parameter=path>42</parameter></function></tool_call>", []want{{"read_file", `{"path":"42"}`}}},
		{"gpt-oss harmony", `<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"main.go"}<|call|>`, []want{{"read_file", read}}},
		{"gpt-oss harmony started", `<|start|>assistant<|channel|>commentary to=functions.run_command json<|message|>{"command":"go test ./..."}<|call|>`, []want{{"run_command", run}}},
		{"gemma tool_code", "```tool_code\nread_file(path=\"main.go\")\n```", []want{{"read_file", read}}},
		{"gemma tool_code print", "```tool_code\nprint(default_api.run_command(command='go test ./...'))\n```", []want{{"run_command", run}}},
		{"gemma tool_code typed", "```tool_code\nrun_command(command=\"go test ./...\", timeout=30)\n```", []want{{"run_command", `{"command":"go test ./...","timeout":30}`}}},
		{"gemma tool_code two", "```tool_code\nread_file(path=\"main.go\")\nrun_command(command=\"go test ./...\",)\n```", []want{{"read_file", read}, {"run_command", run}}},
		{"gemma tool_code escapes", "```tool_code\nrun_command(command=\"\"\"echo 'a'\\\\b\nc\"\"\")\n```", []want{{"run_command", `{"command":"echo 'a'\\b\nc"}`}}},
		{"no arguments key", `{"name": "run_command"}`, nil}, // required command missing

		// Not calls: the text stays the answer.
		{"mention in prose", `I will call read_file with {"path":"main.go"} next.`, nil},
		{"block after prose", `Let me look. <tool_call>{"name": "read_file", "arguments": {"path":"main.go"}}</tool_call>`, nil},
		{"block before prose", `<tool_call>{"name": "read_file", "arguments": {"path":"main.go"}}</tool_call> and then I will edit it.`, nil},
		{"unknown tool", `<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>`, nil},
		{"one unknown of two", `[{"name": "read_file", "parameters": {"path":"main.go"}}, {"name": "nope", "parameters": {}}]`, nil},
		{"missing required", `<tool_call>{"name": "read_file", "arguments": {}}</tool_call>`, nil},
		{"wrong type", `<tool_call>{"name": "read_file", "arguments": {"path": 7}}</tool_call>`, nil},
		{"fraction for integer", `{"name": "read_file", "parameters": {"path":"a", "limit": 1.5}}`, nil},
		{"unknown property of a closed schema", `{"name": "read_file", "parameters": {"path":"a", "mode":"x"}}`, nil},
		{"arguments not an object", `{"name": "read_file", "arguments": [1,2]}`, nil},
		{"broken json", `<tool_call>{"name": "read_file", "arguments": {"path":</tool_call>`, nil},
		{"json answer with other keys", `{"name": "read_file", "description": "reads", "parameters": {"path":"a"}}`, nil},
		{"plain json answer", `{"path": "main.go"}`, nil},
		{"empty", ``, nil},
		{"fence of go code", "```go\nfunc main() {}\n```", nil},
		{"tool_code that calls nothing", "```tool_code\nnot a call\n```", nil},
		{"python fence", "```python\nread_file(path=\"main.go\")\n```", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := recoverTextCalls(tt.text, offeredTools())
			if tt.want == nil {
				if got != nil {
					t.Fatalf("recovered %+v from text that is not only a valid call", got)
				}
				return
			}
			if len(got) != len(tt.want) {
				t.Fatalf("recovered %d calls %+v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Name != w.name || g.Arguments != w.args || !g.FromText || g.ID == "" {
					t.Errorf("call %d = %+v, want %s %s from text with an id", i, g, w.name, w.args)
				}
			}
		})
	}
	if got := recoverTextCalls(`{"name": "read_file", "parameters": {"path":"main.go"}}`, nil); got != nil {
		t.Errorf("recovered %+v when no tools were offered", got)
	}
}

// TestThinkingSplitAcrossChunks streams each format cut at every byte and
// checks the thinking and the answer come apart the same way each time.
func TestThinkingSplitAcrossChunks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, thinking, answer string
	}{
		{"think", "<think>\nThe user wants a list.\n</think>\n\nHere it is.", "The user wants a list.", "Here it is."},
		{"thinking", "<thinking>check the file first</thinking>Done.", "check the file first", "Done."},
		{"magistral", "[THINK]short[/THINK]The answer.", "short", "The answer."},
		{"harmony", "<|channel|>analysis<|message|>Need to add.<|end|><|start|>assistant<|channel|>final<|message|>2 + 2 = 4<|return|>", "Need to add.", "2 + 2 = 4"},
		{"harmony with its start", "<|start|>assistant<|channel|>analysis<|message|>Sum.<|end|><|start|>assistant<|channel|>final<|message|>4", "Sum.", "4"},
		{"two blocks", "<think>one</think>\n<think>two</think>answer", "onetwo", "answer"},
		{"leading space", "  \n<think>x</think> y", "x", "y"},
		{"no thinking", "Just an answer with <think> in it.", "", "Just an answer with <think> in it."},
		{"tag later is text", "Answer first. <think>not reasoning</think>", "", "Answer first. <think>not reasoning</think>"},
		{"unclosed", "<think>still thinking when cut", "still thinking when cut", ""},
		{"closer only", "the template opened it</think>The answer.", "the template opened it", "The answer."},
		{"partial opener is text", "<thin", "", "<thin"},
		{"less-than answer", "<b>bold</b>", "", "<b>bold</b>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, an := splitThinking(tt.text)
			if th != tt.thinking || an != tt.answer {
				t.Fatalf("splitThinking = %q, %q; want %q, %q", th, an, tt.thinking, tt.answer)
			}
			if tt.name == "closer only" {
				return // only the whole answer can tell
			}
			for cut := 1; cut < len(tt.text); cut++ {
				var gotTh, gotAn strings.Builder
				s := thinkSplitter{onText: func(x string) { gotAn.WriteString(x) }, onThink: func(x string) { gotTh.WriteString(x) }}
				s.add(tt.text[:cut])
				s.add(tt.text[cut:])
				s.flush()
				if strings.TrimSpace(gotTh.String()) != tt.thinking {
					t.Errorf("cut at %d: streamed thinking %q, want %q", cut, gotTh.String(), tt.thinking)
				}
				if an := strings.TrimSpace(strings.TrimSuffix(gotAn.String(), "<|return|>")); an != tt.answer {
					t.Errorf("cut at %d: streamed answer %q, want %q", cut, gotAn.String(), tt.answer)
				}
			}
		})
	}
}

// TestClientThinkingAndTextCalls runs answers through a server in
// three-byte pieces: the thinking is reasoning (never text), and an answer
// that is only a call block becomes a call whose block never streams as
// text.
func TestClientThinkingAndTextCalls(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		text       string
		tools      bool
		wantText   string // the streamed text and the reply's content
		wantReason string
		wantCall   string
	}{
		{"think then answer", "<think>plan it</think>\n\nThe answer.", true, "The answer.", "plan it", ""},
		{"think then hermes call", "<think>read it first</think>\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"go.mod\"}}\n</tool_call>", true, "", "read it first", "read_file"},
		{"deepseek call", `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path":"go.mod"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`, true, "", "", "read_file"},
		{"json answer that is not a call", `{"name": "pincer", "version": 2}`, true, `{"name": "pincer", "version": 2}`, "", ""},
		{"call without tools offered", `<tool_call>{"name": "read_file", "arguments": {"path": "go.mod"}}</tool_call>`, false, `<tool_call>{"name": "read_file", "arguments": {"path": "go.mod"}}</tool_call>`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := agenttest.New(agenttest.Text(tt.text, 3))
			defer srv.Close()
			c := newTestClient(t, srv.BaseURL(), "")
			req := Request{Messages: []chat.Message{{Role: chat.RoleUser, Content: "hi"}}}
			if tt.tools {
				req.Tools = offeredTools()
			}
			log := &eventLog{}
			got, err := c.Complete(context.Background(), req, log.sink)
			if err != nil {
				t.Fatal(err)
			}
			if got.Content != tt.wantText || log.text.String() != tt.wantText {
				t.Errorf("content %q, streamed text %q; want %q", got.Content, log.text.String(), tt.wantText)
			}
			if got.Reasoning != tt.wantReason || strings.TrimSpace(log.reasoning.String()) != tt.wantReason {
				t.Errorf("reasoning %q, streamed %q; want %q", got.Reasoning, log.reasoning.String(), tt.wantReason)
			}
			if tt.wantCall == "" {
				if len(got.ToolCalls) != 0 {
					t.Errorf("calls %+v, want none", got.ToolCalls)
				}
				return
			}
			if len(got.ToolCalls) != 1 || got.ToolCalls[0].Name != tt.wantCall || !got.ToolCalls[0].FromText {
				t.Fatalf("calls %+v, want one %s recovered from text", got.ToolCalls, tt.wantCall)
			}
			if d, ok := log.calls[0]; !ok || d.Name != tt.wantCall || d.ArgsSoFar != got.ToolCalls[0].Arguments {
				t.Errorf("call delta %+v, want one for %s", d, tt.wantCall)
			}
		})
	}
}

// BenchmarkShaper streams a 4 KB answer in 8-byte deltas through the
// shaper (thinking first, then prose), with tools offered: the cost the
// fix-ups add to every delta of a stream.
func BenchmarkShaper(b *testing.B) {
	answer := "<think>" + strings.Repeat("consider the file first. ", 40) + "</think>\n\n" + strings.Repeat("The function adds two numbers. ", 100)
	var deltas []string
	for s := answer; s != ""; {
		n := min(8, len(s))
		deltas = append(deltas, s[:n])
		s = s[n:]
	}
	tools := offeredTools()
	b.SetBytes(int64(len(answer)))
	b.ReportAllocs()
	for b.Loop() {
		s := newShaper(func(Event) {}, true, false)
		for _, d := range deltas {
			s.event(TextDelta{Text: d})
		}
		_, _ = s.finish(Reply{Content: answer}, tools, nil, true)
	}
}

// TestTemplateOpensThinking: a model whose template opens the thinking
// block streams its first answer's thinking as text (only the whole
// answer shows it); from then on its thinking is held back until
// </think> and goes to the reasoning, and an answer without thinking
// still streams as text.
func TestTemplateOpensThinking(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Text("weighing it</think>\n\nFirst.", 3),
		agenttest.Text("weighing again</think>\n\nSecond.", 3),
		agenttest.Text("No thinking this time.", 3),
	)
	defer srv.Close()
	c := newTestClient(t, srv.BaseURL(), "")
	req := Request{Messages: []chat.Message{{Role: chat.RoleUser, Content: "hi"}}}
	tests := []struct{ text, reasoning, content string }{
		{"weighing it</think>\n\nFirst.", "", "First."}, // streamed as text; the reply is right
		{"Second.", "weighing again", "Second."},
		{"No thinking this time.", "", "No thinking this time."},
	}
	for i, tt := range tests {
		log := &eventLog{}
		got, err := c.Complete(context.Background(), req, log.sink)
		if err != nil {
			t.Fatal(err)
		}
		if log.text.String() != tt.text || log.reasoning.String() != tt.reasoning {
			t.Errorf("answer %d streamed text %q and reasoning %q; want %q and %q", i+1, log.text.String(), log.reasoning.String(), tt.text, tt.reasoning)
		}
		if got.Content != tt.content {
			t.Errorf("answer %d content %q, want %q", i+1, got.Content, tt.content)
		}
	}
}

// TestBotchedTextCalls: an answer that is only a tool-call block the
// model botched (bad JSON, no such tool, arguments that do not fit)
// becomes one call that is not run, whose problem tells the model what to
// fix; text that is not unmistakably a call stays the answer.
func TestBotchedTextCalls(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		problem    string // "" : not a botched call
		callName   string
	}{
		{"hermes trailing comma", `<tool_call>{"name": "read_file", "arguments": {"path": "main.go",}}</tool_call>`, "comma before a closing", "read_file"},
		{"hermes single quotes", `<tool_call>{'name': 'read_file', 'arguments': {'path': 'main.go'}}</tool_call>`, "single quotes", "read_file"},
		{"bare single quotes", `{'name': 'run_command', 'parameters': {'command': 'ls'}}`, "single quotes", "run_command"},
		{"bare trailing comma", "```json\n{\"name\": \"read_file\", \"parameters\": {\"path\": \"a\"},}\n```", "comma before a closing", "read_file"},
		{"python tag broken", `<|python_tag|>{"name": "run_command", "parameters": {"command": "ls"`, "not valid JSON", "run_command"},
		{"mistral broken", `[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "a",}}]`, "comma before a closing", "read_file"},
		{"deepseek broken", `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path": 'a'}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`, "not valid JSON", "read_file"},
		{"hermes unknown tool", `<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>`, `no tool named "delete_everything"`, "tool_call"},
		{"hermes missing required", `<tool_call>{"name": "read_file", "arguments": {}}</tool_call>`, `"path" is required`, "read_file"},
		{"hermes wrong type", `<tool_call>{"name": "read_file", "arguments": {"path": 7}}</tool_call>`, `"path" must be of type string`, "read_file"},
		{"bare missing required", `{"name": "run_command", "parameters": {}}`, `"command" is required`, "run_command"},
		{"tool_code variable", "```tool_code\nread_file(path=p)\n```", "is not a literal", "read_file"},
		{"tool_code expression", "```tool_code\nread_file(path=\"a\" + \"b\")\n```", "is not a literal", "read_file"},
		{"tool_code positional", "```tool_code\nread_file(\"main.go\")\n```", "is not a keyword argument", "read_file"},
		{"tool_code dict", "```tool_code\nrun_command(command={\"a\": 1})\n```", "is not a literal", "run_command"},
		{"tool_code unclosed string", "```tool_code\nread_file(path=\"main.go)\n```", "not closed", "read_file"},
		{"tool_code unknown tool", "```tool_code\ndelete_everything(path=\"/\")\n```", `no tool named "delete_everything"`, "tool_call"},
		{"tool_code wrong type", "```tool_code\nread_file(path=7)\n```", `"path" must be of type string`, "read_file"},
		{"tool_code assignment", "```tool_code\nx = read_file(path=\"a\")\n```", "more than calls of tools", "read_file"},
		{"tool_code of no tool", "```tool_code\nx = 1 + 2\n```", "", ""},

		{"prose mention", `I would call read_file with {"path": "a"}, but it is not needed.`, "", ""},
		{"json describing a tool", `{"name": "read_file", "description": "reads", "parameters": {"path": "a"}}`, "", ""},
		{"broken json naming no tool", `{'name': 'John', 'age': 3,}`, "", ""},
		{"json naming no tool", `{"name": "John", "arguments": {}}`, "", ""},
		{"block inside prose", "Use this:\n<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\",}}</tool_call>", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var text strings.Builder
			s := newShaper(func(ev Event) {
				if d, ok := ev.(TextDelta); ok {
					text.WriteString(d.Text)
				}
			}, true, false)
			s.event(TextDelta{Text: tt.text})
			got, _ := s.finish(Reply{Content: tt.text}, offeredTools(), nil, true)
			if tt.problem == "" {
				if len(got.ToolCalls) != 0 || got.Content != tt.text || text.String() != tt.text {
					t.Fatalf("calls %+v, content %q, streamed %q: want the text as the answer", got.ToolCalls, got.Content, text.String())
				}
				return
			}
			if len(got.ToolCalls) != 1 {
				t.Fatalf("calls %+v, want one botched call", got.ToolCalls)
			}
			c := got.ToolCalls[0]
			if !strings.Contains(c.Unreadable, tt.problem) || c.Name != tt.callName || c.Arguments != "{}" || !c.FromText {
				t.Errorf("call %+v, want %s with a problem saying %q", c, tt.callName, tt.problem)
			}
			if got.Content != "" || text.String() != "" {
				t.Errorf("the botched block showed as text: content %q, streamed %q", got.Content, text.String())
			}
		})
	}
}

// TestTextCallsSplitAtEveryPoint streams each text-call format cut in two
// at every byte: the block never shows as text, and the same call is read.
func TestTextCallsSplitAtEveryPoint(t *testing.T) {
	t.Parallel()
	blocks := map[string]string{
		"hermes":      "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"main.go\"}}\n</tool_call>",
		"mistral":     `[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "main.go"}}]`,
		"python tag":  `<|python_tag|>{"name": "read_file", "parameters": {"path": "main.go"}}`,
		"bare llama":  `{"name": "read_file", "parameters": {"path": "main.go"}}`,
		"deepseek":    `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path":"main.go"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
		"qwen3 coder": "<tool_call>\n<function=read_file>\n<parameter=path>\nmain.go\n</parameter>\n</function>\n</tool_call>",
		"fenced json": "```json\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"main.go\"}}\n```",
		"tool_code":   "```tool_code\nread_file(path=\"main.go\")\n```",
		"after think": "<think>need it</think>\n<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"main.go\"}}</tool_call>",
	}
	for name, block := range blocks {
		t.Run(name, func(t *testing.T) {
			for i := 0; i <= len(block); i++ {
				var text strings.Builder
				s := newShaper(func(ev Event) {
					if d, ok := ev.(TextDelta); ok {
						text.WriteString(d.Text)
					}
				}, true, false)
				s.event(TextDelta{Text: block[:i]})
				s.event(TextDelta{Text: block[i:]})
				content := block
				if th, answer := splitThinking(block); th != "" {
					content = answer
				}
				got, _ := s.finish(Reply{Content: content}, offeredTools(), nil, true)
				if text.String() != "" {
					t.Fatalf("cut at %d: %q showed as text", i, text.String())
				}
				if len(got.ToolCalls) != 1 || got.ToolCalls[0].Name != "read_file" || got.ToolCalls[0].Arguments != `{"path":"main.go"}` && got.ToolCalls[0].Arguments != `{"path": "main.go"}` {
					t.Fatalf("cut at %d: calls %+v", i, got.ToolCalls)
				}
			}
		})
	}
}
