package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"pincer/agent/agenttest"
	"pincer/agent/llm"
)

// notices are the texts of the Notice events the harness saw.
func (h *harness) notices() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, ev := range h.events {
		if n, ok := ev.(Notice); ok {
			out = append(out, n.Text)
		}
	}
	return out
}

func TestWindowLearnedFromTheServer(t *testing.T) {
	ollama := llm.Window{Tokens: 4096, Server: llm.ServerOllama, Source: "Ollama /api/ps"}
	big := llm.Window{Tokens: 131072, Server: llm.ServerModels, Source: "the server's /models"}
	tests := []struct {
		name       string
		budget     Budget
		learned    llm.Window
		want       int
		wantSource string
		notice     string // a notice containing this, or none when ""
	}{
		{"learned replaces the default", Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 10}, ollama, 4096, "Ollama /api/ps", "OLLAMA_CONTEXT_LENGTH=16384"},
		{"configured caps the learned", Budget{ContextWindow: 30000, CapWindow: true, CompressAt: 0.8, KeepRecent: 10}, big, 30000, "context_window (the server's /models reports 131k)", ""},
		{"learned below the configured wins", Budget{ContextWindow: 30000, CapWindow: true, CompressAt: 0.8, KeepRecent: 10}, ollama, 4096, "Ollama /api/ps", "OLLAMA_CONTEXT_LENGTH"},
		{"a guess does not overrule the configured", Budget{ContextWindow: 32768, CapWindow: true, CompressAt: 0.8, KeepRecent: 10}, llm.Window{Tokens: 4096, Server: llm.ServerOllama, Source: "Ollama's default", Assumed: true}, 32768, "context_window", ""},
		{"a guess replaces the default", Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 10}, llm.Window{Tokens: 4096, Server: llm.ServerOllama, Source: "Ollama's default", Assumed: true}, 4096, "Ollama's default", "OLLAMA_CONTEXT_LENGTH"},
		{"nothing learned keeps the configured", Budget{ContextWindow: 12000, CapWindow: true, CompressAt: 0.8, KeepRecent: 10}, llm.Window{}, 12000, "context_window", ""},
		{"nothing learned keeps the default", Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 10}, llm.Window{}, 30000, "default", ""},
		{"big learned window, no notice", Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 10}, big, 131072, "the server's /models", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 5, agenttest.Text("one", 5), agenttest.Text("two", 5))
			h.agent.opts.Budget = tt.budget
			asked := 0
			h.agent.opts.Window = func(context.Context, string) llm.Window { asked++; return tt.learned }
			for range 2 {
				if _, err := h.run("hi"); err != nil {
					t.Fatal(err)
				}
			}
			if got := h.agent.ContextWindow(); got != tt.want {
				t.Errorf("window %d, want %d", got, tt.want)
			}
			if got := h.agent.ContextWindowSource(); got != tt.wantSource {
				t.Errorf("source %q, want %q", got, tt.wantSource)
			}
			want := 2
			if tt.learned.Assumed {
				want = 4 // and again after the request that loads the model
			}
			if asked != want {
				t.Errorf("asked the server %d times, want %d: once per turn (the client caches), and once more when it only guessed", asked, want)
			}
			var about []string
			for _, n := range h.notices() {
				if strings.Contains(n, "window is") {
					about = append(about, n)
				}
			}
			switch {
			case tt.notice == "" && len(about) > 0:
				t.Errorf("notices %q, want none about the window", about)
			case tt.notice != "" && (len(about) != 1 || !strings.Contains(about[0], tt.notice)):
				t.Errorf("notices %q, want one naming %q", about, tt.notice)
			}
			known := 0
			for _, ev := range h.events {
				if k, ok := ev.(WindowKnown); ok && k.Tokens == tt.want {
					known++
				}
			}
			if tt.learned.Tokens > 0 && known != 1 {
				t.Errorf("%d WindowKnown events for %d, want one", known, tt.want)
			}
		})
	}
}

// TestEstimateCalibratedByTheServersCount: a server that counts twice
// what pincer estimated makes later estimates twice as large, so the
// request is fitted to the window by what the server will count.
func TestEstimateCalibratedByTheServersCount(t *testing.T) {
	h := newHarness(t, 5)
	h.srv.SetResponder(func(r agenttest.Request) (agenttest.Reply, bool) {
		// Report exactly twice the estimate of what was sent.
		var req struct {
			Messages []struct {
				Role, Content string
			} `json:"messages"`
			Tools []struct {
				Function struct {
					Name, Description string
					Parameters        map[string]any
				} `json:"function"`
			} `json:"tools"`
		}
		_ = json.Unmarshal(r.Raw, &req)
		est := 0
		for _, m := range req.Messages {
			est += messageTokens(Message{Role: Role(m.Role), Content: m.Content})
		}
		var specs []llm.ToolSpec
		for _, t := range req.Tools {
			specs = append(specs, llm.ToolSpec{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
		}
		est += specTokens(specs)
		return agenttest.Reply{Body: agenttest.TextBody("ok", 5, 2*est, 1)}, true
	})
	h.agent.opts.Budget = Budget{ContextWindow: 100000, CompressAt: 0.8, KeepRecent: 10}
	before := h.agent.NextRequestTokens()
	if _, err := h.run("hello there"); err != nil {
		t.Fatal(err)
	}
	if r := h.agent.ratio(); r < 1.9 || r > 2.1 {
		t.Fatalf("ratio %.2f after a server counted twice the estimate, want about 2", r)
	}
	if after := h.agent.NextRequestTokens(); after < 2*before {
		t.Errorf("next request estimated at %d tokens, want at least twice %d", after, before)
	}
	// The window in estimate units halves: what is fitted is what fits.
	if got := h.agent.budgetWindow(); got > 51000 {
		t.Errorf("budget window %d estimated tokens, want about half of 100k", got)
	}
	// A count far from any tokenizer's (a cached prefix left out) is not
	// taken for a calibration.
	h.agent.calibrate(llm.Request{Messages: []Message{{Role: RoleUser, Content: strings.Repeat("x", 4000)}}}, 3)
	if r := h.agent.ratio(); r < 1.9 || r > 2.1 {
		t.Errorf("ratio %.2f after an outlying count, want it unchanged", r)
	}
	// Another model (the /model picker) has a tokenizer of its own.
	h.agent.opts.Model.(*llm.Client).SetModel("other-model")
	if r := h.agent.ratio(); r != 1 {
		t.Errorf("ratio %.2f for a model the server never counted for, want 1", r)
	}
}

// tooLongReply is a context-length error as vLLM and OpenAI send it.
func tooLongReply() agenttest.Reply {
	return agenttest.Error(400, "This model's maximum context length is 4096 tokens. However, your messages resulted in 5210 tokens. Please reduce the length of the messages.")
}

func TestContextRefusalCompressesAndRetriesOnce(t *testing.T) {
	t.Run("retry succeeds", func(t *testing.T) {
		h := newHarness(t, 5, tooLongReply(), agenttest.Text("done", 5))
		h.srv.SetResponder(summaryResponder("## Goal and constraints\nkeep going"))
		h.agent.opts.Budget = Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 4}
		h.agent.Restore(bigHistory(16, 600), "", 0)
		res, err := h.run("go on")
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if res.Text != "done" {
			t.Errorf("answer %q, want done", res.Text)
		}
		reqs := h.srv.Requests()
		if len(reqs) != 3 {
			t.Fatalf("%d requests, want the refused one, the summary, and one retry", len(reqs))
		}
		if len(reqs[2].Raw) >= len(reqs[0].Raw) {
			t.Errorf("the retry carried %d bytes, no fewer than the refused request's %d", len(reqs[2].Raw), len(reqs[0].Raw))
		}
		if h.agent.ContextWindow() != 4096 || h.agent.ContextWindowSource() != refusedSource {
			t.Errorf("window %d from %q after a refusal naming 4096, want that window", h.agent.ContextWindow(), h.agent.ContextWindowSource())
		}
		if n := h.notices(); len(n) == 0 || !strings.Contains(strings.Join(n, "\n"), "refused the request as longer than its context window") {
			t.Errorf("notices %q, want one saying the server refused and pincer compressed", n)
		}
		h.checkStrict()
	})
	t.Run("no window named", func(t *testing.T) {
		h := newHarness(t, 5, agenttest.Error(400, "prompt is too long"), agenttest.Text("done", 5))
		h.srv.SetResponder(summaryResponder("## Goal and constraints\nkeep going"))
		h.agent.opts.Budget = Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 4}
		h.agent.Restore(bigHistory(16, 600), "", 0)
		if _, err := h.run("go on"); err != nil {
			t.Fatalf("Run: %v", err)
		}
		if h.agent.ratio() <= 1 || h.agent.ContextWindow() != 30000 {
			t.Errorf("ratio %.2f, window %d after a refusal naming no window, want the estimate raised and the window kept", h.agent.ratio(), h.agent.ContextWindow())
		}
	})
	t.Run("refused again", func(t *testing.T) {
		h := newHarness(t, 5, tooLongReply(), tooLongReply(), agenttest.Text("never", 5))
		h.srv.SetResponder(summaryResponder("## Goal and constraints\nkeep going"))
		h.agent.opts.Budget = Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 4}
		h.agent.Restore(bigHistory(16, 600), "", 0)
		res, err := h.run("go on")
		if err == nil || res.StopReason != "error" {
			t.Fatalf("Run = %v (%s), want an error", err, res.StopReason)
		}
		if !strings.HasPrefix(err.Error(), "the model server refused the request as longer than its context window even after pincer compressed") {
			t.Errorf("error %q, want the one sentence about the window", err)
		}
		if n := len(h.srv.Requests()); n != 3 {
			t.Errorf("%d requests, want 3: no loop of retries", n)
		}
	})
}

// TestModelWithoutToolsCallsThemAsText: a model whose server says it
// cannot call tools (Ollama: "does not support tools") is asked again with
// the tools described in the prompt, once for the session: no later
// request sends the tools field, and a call it writes as text runs.
func TestModelWithoutToolsCallsThemAsText(t *testing.T) {
	noTools := agenttest.Error(400, "registry.ollama.ai/library/gemma3:1b does not support tools")
	h := newHarness(t, 5, noTools, agenttest.Text("hello", 5),
		agenttest.Text("```tool_code\nnot a call\n```", 5),
		agenttest.Text("<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes.txt\"}}\n</tool_call>", 5),
		agenttest.Text("It says hi.", 5))
	h.write("notes.txt", "hi\n")
	for _, prompt := range []string{"hi", "and now?", "read notes.txt"} {
		if _, err := h.run(prompt); err != nil {
			t.Fatalf("Run(%q): %v", prompt, err)
		}
	}
	reqs := h.srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	if reqs[0].Body["tools"] == nil {
		t.Error("the first request offered no tools")
	}
	for i := 1; i < len(reqs); i++ {
		if reqs[i].Body["tools"] != nil {
			t.Errorf("request %d sent the tools field after the server said the model has none", i)
		}
		if !strings.Contains(string(reqs[i].Raw), "read_file") {
			t.Errorf("request %d does not describe the tools", i)
		}
	}
	if !strings.Contains(string(reqs[4].Raw), "tool_response") {
		t.Error("the call written as text did not run")
	}
	said := 0
	for _, n := range h.notices() {
		if strings.Contains(n, "no tool calling of its own") {
			said++
		}
	}
	if said != 1 {
		t.Errorf("the notice came %d times, want once", said)
	}
}

// TestToolCallWrittenAsTextRuns: a call the model wrote as text runs
// through the same checks as a real one, its card says so, and the next
// request carries it as a call, not as text.
func TestToolCallWrittenAsTextRuns(t *testing.T) {
	h := newHarness(t, 5,
		agenttest.Text("<think>I should read it.</think>\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes.txt\"}}\n</tool_call>", 4),
		agenttest.Text("It says hello.", 5))
	h.write("notes.txt", "hello from the file\n")
	res, err := h.run("what does notes.txt say?")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "It says hello." {
		t.Errorf("answer %q", res.Text)
	}
	var started *ToolStarted
	var result *ToolResult
	var text strings.Builder
	for _, ev := range h.events {
		switch e := ev.(type) {
		case ToolStarted:
			started = &e
		case ToolResult:
			result = &e
		case TextDelta:
			text.WriteString(e.Text)
		}
	}
	if started == nil || !strings.HasSuffix(started.Summary, fromTextMark) {
		t.Fatalf("card %+v, want one saying it was recovered from text", started)
	}
	if result == nil || result.IsError || !strings.Contains(result.Content, "hello from the file") {
		t.Fatalf("result %+v, want the file read", result)
	}
	if strings.Contains(text.String(), "tool_call") || strings.Contains(text.String(), "I should read it") {
		t.Errorf("the streamed answer showed the call block or the thinking: %q", text.String())
	}
	hist := h.agent.History()
	if a := hist[1]; a.Content != "" || len(a.ToolCalls) != 1 || !a.ToolCalls[0].FromText || a.Reasoning != "I should read it." {
		t.Errorf("stored answer %+v, want no text, the thinking as reasoning and one call from text", a)
	}
	second := h.srv.Requests()[1]
	if strings.Contains(string(second.Raw), "<tool_call>") || strings.Contains(string(second.Raw), "<think>") {
		t.Errorf("the next request sent the block or the thinking back as text: %s", second.Raw)
	}
	if !strings.Contains(string(second.Raw), `"tool_calls"`) {
		t.Errorf("the next request does not carry the call: %s", second.Raw)
	}
	h.checkStrict()
}

// TestThinkingKeptOutOfTheAnswer: thinking in the content is the
// reasoning, not the answer, and is not sent back as the answer.
func TestThinkingKeptOutOfTheAnswer(t *testing.T) {
	h := newHarness(t, 5, agenttest.Text("<think>Let me think about 2+2.</think>\n\nIt is 4.", 3), agenttest.Text("ok", 5))
	res, err := h.run("2+2?")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "It is 4." {
		t.Errorf("answer %q, want the text after the thinking", res.Text)
	}
	if _, err := h.run("thanks"); err != nil {
		t.Fatal(err)
	}
	if raw := string(h.srv.Requests()[1].Raw); strings.Contains(raw, "Let me think") && strings.Contains(raw, `"content":"\u003cthink\u003e`) {
		t.Errorf("the thinking went back as the answer: %s", raw)
	}
	for _, m := range h.srv.Requests()[1].Body["messages"].([]any) {
		mm := m.(map[string]any)
		if mm["role"] == "assistant" && strings.Contains(mm["content"].(string), "think") {
			t.Errorf("assistant content sent back %q", mm["content"])
		}
	}
}

// TestLearnedWindowInForceFromTheStart: the window the composition root
// learned is the one in force before the first turn (the status gauge
// shows it), and the first turn still says it.
func TestLearnedWindowInForceFromTheStart(t *testing.T) {
	h := newHarness(t, 5, agenttest.Text("ok", 5))
	w := llm.Window{Tokens: 8192, Server: llm.ServerLlamaCpp, Source: "llama.cpp /props"}
	a, err := New(Options{Model: h.agent.opts.Model, Tools: h.agent.opts.Tools, Safety: h.agent.opts.Safety,
		Budget: Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 10}, Learned: w,
		Window: func(context.Context, string) llm.Window { return w }})
	if err != nil {
		t.Fatal(err)
	}
	if a.ContextWindow() != 8192 || a.ContextWindowSource() != "llama.cpp /props" {
		t.Fatalf("before the first turn: window %d from %q, want 8192 from llama.cpp /props", a.ContextWindow(), a.ContextWindowSource())
	}
	var known []WindowKnown
	if _, err := a.Run(context.Background(), "hi", func(ev Event) {
		if k, ok := ev.(WindowKnown); ok {
			known = append(known, k)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(known) != 1 || known[0].Tokens != 8192 {
		t.Errorf("WindowKnown events %+v, want one for 8192", known)
	}
}

// TestFirstRequestCalibratedByTheTokenizer: a server that counts tokens
// calibrates the estimate before the first request; once calibrated it is
// not asked again.
func TestFirstRequestCalibratedByTheTokenizer(t *testing.T) {
	h := newHarness(t, 5, agenttest.Text("one", 5), agenttest.Text("two", 5))
	asked := 0
	h.agent.opts.CountTokens = func(_ context.Context, text string) (int, bool) {
		asked++
		if !strings.Contains(text, "You are a test.") || !strings.Contains(text, `"read_file"`) {
			t.Errorf("counted %q, want the system prompt and the tool schemas", text[:min(len(text), 80)])
		}
		return 2 * estimateTokens(text), true
	}
	h.agent.opts.Budget = Budget{ContextWindow: 100000, CompressAt: 0.8, KeepRecent: 10}
	before := h.agent.NextRequestTokens()
	for _, p := range []string{"hi", "again"} {
		if _, err := h.run(p); err != nil {
			t.Fatal(err)
		}
	}
	// The server's usage (10 prompt tokens) is far off any tokenizer's
	// and is not taken; the tokenizer's count stands.
	if r := h.agent.ratio(); r < 1.9 || r > 2.1 {
		t.Errorf("ratio %.2f, want about 2 from the tokenizer", r)
	}
	if asked != 1 {
		t.Errorf("the tokenizer was asked %d times, want once", asked)
	}
	if after := h.agent.NextRequestTokens(); after < 2*before {
		t.Errorf("estimate %d after calibration, want at least twice %d", after, before)
	}
}

// TestNativeToolsRefusedFallsBackToTextCalls: a server started without its
// tool-call parser (vLLM refuses "auto" tool choice) is asked again with
// the tools described in the prompt; the call the model then writes as
// text runs, and the next request carries call and result as text, with
// no tools field, so the server does not refuse again.
func TestNativeToolsRefusedFallsBackToTextCalls(t *testing.T) {
	refused := agenttest.Error(400, `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`)
	h := newHarness(t, 5, refused,
		agenttest.Text("<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes.txt\"}}\n</tool_call>", 7),
		agenttest.Text("It says hello.", 5))
	h.write("notes.txt", "hello from the file\n")
	res, err := h.run("what does notes.txt say?")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "It says hello." {
		t.Errorf("answer %q", res.Text)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if reqs[0].Body["tools"] == nil {
		t.Error("the first request offered no tools")
	}
	for i, r := range reqs[1:] {
		if r.Body["tools"] != nil || r.Body["tool_choice"] != nil {
			t.Errorf("request %d sent tools again after the server refused them", i+1)
		}
		if !strings.Contains(string(r.Raw), `\u003ctool_call\u003e`) && !strings.Contains(string(r.Raw), "<tool_call>") {
			t.Errorf("request %d does not tell the model how to call tools as text", i+1)
		}
	}
	last := string(reqs[2].Raw)
	if strings.Contains(last, `"tool_calls"`) || strings.Contains(last, `"role":"tool"`) {
		t.Errorf("the last request sends calls or results as the server's own tool messages: %s", last)
	}
	if !strings.Contains(last, "hello from the file") || !strings.Contains(last, "tool_response") {
		t.Errorf("the last request lacks the tool's result as text")
	}
	said := 0
	for _, n := range h.notices() {
		if strings.Contains(n, "without its tool-call parser") {
			said++
		}
		if strings.Contains(n, "plain chat") {
			t.Errorf("fell back to a plain chat: %s", n)
		}
	}
	if said != 1 {
		t.Errorf("the text-tools notice came %d times, want once", said)
	}
}

// TestBotchedTextCallIsExplainedToTheModel: a call written as text with
// broken JSON is not run and does not end the turn as an answer of raw
// JSON; the model is told what was wrong and its second try runs.
func TestBotchedTextCallIsExplainedToTheModel(t *testing.T) {
	h := newHarness(t, 5,
		agenttest.Text("<tool_call>\n{'name': 'read_file', 'arguments': {'path': 'notes.txt',}}\n</tool_call>", 6),
		agenttest.Text("<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes.txt\"}}\n</tool_call>", 6),
		agenttest.Text("It says hello.", 5))
	h.write("notes.txt", "hello from the file\n")
	res, err := h.run("what does notes.txt say?")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "It says hello." {
		t.Errorf("answer %q", res.Text)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	second := string(reqs[1].Raw)
	if !strings.Contains(second, "single quotes") || !strings.Contains(second, "Not run") {
		t.Errorf("the model was not told why its call was not read: %s", second)
	}
	var results []ToolResult
	for _, ev := range h.events {
		if r, ok := ev.(ToolResult); ok {
			results = append(results, r)
		}
	}
	if len(results) != 2 || !results[0].IsError || results[1].IsError || !strings.Contains(results[1].Content, "hello from the file") {
		t.Errorf("results %+v, want the botched call refused and the second read", results)
	}
}

// TestOllamaWindowLearnedOnceTheModelIsLoaded: Ollama says the window only
// once the model is loaded, and cuts a longer prompt silently; the request
// that loads it is followed by a second question within the same turn, so
// the rest of the turn is fitted to the real window, not the default.
func TestOllamaWindowLearnedOnceTheModelIsLoaded(t *testing.T) {
	h := newHarness(t, 5,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "read_file", Arguments: `{"path":"notes.txt"}`}),
		agenttest.Text("done", 5))
	h.write("notes.txt", "hello\n")
	asked := 0
	h.agent.opts.Window = func(context.Context, string) llm.Window {
		asked++
		if asked == 1 {
			return llm.Window{Tokens: llm.OllamaDefaultWindow, Server: llm.ServerOllama, Source: "Ollama's default", Assumed: true}
		}
		return llm.Window{Tokens: 2048, Server: llm.ServerOllama, Source: "Ollama /api/ps"}
	}
	var windows []int
	h.agent.opts.Budget = Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 10}
	if _, err := h.run("read notes.txt"); err != nil {
		t.Fatal(err)
	}
	for _, ev := range h.events {
		if w, ok := ev.(WindowKnown); ok {
			windows = append(windows, w.Tokens)
		}
	}
	if asked != 2 || h.agent.ContextWindow() != 2048 || !slices.Equal(windows, []int{4096, 2048}) {
		t.Errorf("asked %d times, window %d, shown %v; want the real 2048 learned within the turn", asked, h.agent.ContextWindow(), windows)
	}
}

// TestTooBigSaysTheServersFix: a turn that cannot fit an Ollama window
// even cut down ends with the server's numbers and the way to raise the
// window there (OLLAMA_CONTEXT_LENGTH), not context_window, which cannot
// raise what the server runs with.
func TestTooBigSaysTheServersFix(t *testing.T) {
	h := newHarness(t, 5,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "read_file", Arguments: `{"path":"big.txt"}`}),
		agenttest.Text("done", 5))
	h.write("big.txt", strings.Repeat("a line of the big file\n", 400))
	window := h.agent.fixedTokens() + 1200
	h.agent.opts.Window = func(context.Context, string) llm.Window {
		return llm.Window{Tokens: window, Server: llm.ServerOllama, Source: "Ollama /api/ps"}
	}
	prompt := "read big.txt " + strings.Repeat("x", 4*(windowLimit(window)-h.agent.fixedTokens()-40))
	_, err := h.run(prompt)
	if err == nil {
		t.Fatal("the turn fitted; the test needs a request that cannot")
	}
	if msg := err.Error(); !strings.Contains(msg, "OLLAMA_CONTEXT_LENGTH") || strings.Contains(msg, "context_window") || !strings.Contains(msg, humanTokens(window)) {
		t.Errorf("error %q, want the window %s and the Ollama fix", msg, humanTokens(window))
	}
}

// TestSameCutIsSaidOnce: an old tool output cut to fit a small window is
// cut again for every later request of the turn; the notice says it once.
func TestSameCutIsSaidOnce(t *testing.T) {
	h := newHarness(t, 6,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "read_file", Arguments: `{"path":"big.txt"}`}),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "read_file", Arguments: `{"path":"small.txt"}`}),
		agenttest.Tools("", agenttest.Call{ID: "c3", Name: "read_file", Arguments: `{"path":"small.txt"}`}),
		agenttest.Text("done", 5))
	h.write("big.txt", strings.Repeat("a line of the big file\n", 300))
	h.write("small.txt", "small\n")
	h.agent.opts.Budget = Budget{ContextWindow: h.agent.fixedTokens() + 2000, CapWindow: true, CompressAt: 0.99, KeepRecent: 10}
	if _, err := h.run("read big.txt then small.txt twice"); err != nil {
		t.Fatal(err)
	}
	said := 0
	for _, n := range h.notices() {
		if strings.Contains(n, "old tool output") {
			said++
		}
	}
	if said != 1 {
		t.Errorf("the cut was said %d times over %d requests, want once: %q", said, len(h.srv.Requests()), h.notices())
	}
}

// TestRefusedWindowIsKept: a server that says nothing about its window
// but names it when it refuses a request (LM Studio) is budgeted for that
// window from then on, in later turns too, and the retry fits it.
func TestRefusedWindowIsKept(t *testing.T) {
	refusal := agenttest.Error(400, "Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 6000 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input")
	h := newHarness(t, 5, refusal, agenttest.Text("done", 5), agenttest.Text("again", 5))
	h.srv.SetResponder(summaryResponder("## Goal and constraints\nkeep going"))
	h.agent.opts.Budget = Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 4}
	h.agent.opts.Window = func(context.Context, string) llm.Window { return llm.Window{} }
	h.agent.Restore(bigHistory(16, 2000), "", 0)
	for _, prompt := range []string{"go on", "and more"} {
		if _, err := h.run(prompt); err != nil {
			t.Fatalf("Run(%q): %v", prompt, err)
		}
	}
	if h.agent.ContextWindow() != 6000 {
		t.Errorf("window %d after the next turn, want the 6000 the refusal named", h.agent.ContextWindow())
	}
	reqs := h.srv.Requests()
	last := reqs[len(reqs)-1]
	if tokens := len(last.Raw) / 4; tokens > 6000 {
		t.Errorf("the last request is about %d tokens, over the 6000 window", tokens)
	}
	if fix := h.agent.windowFix(); !strings.Contains(fix, "on its server") || strings.Contains(fix, "raise context_window") {
		t.Errorf("fix %q, want the server's window raised, not context_window", fix)
	}
}
