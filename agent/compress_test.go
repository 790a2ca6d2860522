package agent

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pincer/agent/agenttest"
	"pincer/agent/llm"
	"pincer/safety"
	"pincer/tools"
)

// randomHistory builds a well-formed history: user prompts, assistant
// messages with 0-3 tool calls, each call answered right after.
func randomHistory(r *rand.Rand, n int) []Message {
	var h []Message
	id := 0
	for len(h) < n {
		h = append(h, Message{Role: RoleUser, Content: "prompt"})
		for turns := r.IntN(4); turns >= 0 && len(h) < n; turns-- {
			calls := r.IntN(4)
			m := Message{Role: RoleAssistant, Content: "thinking out loud"}
			for i := 0; i < calls; i++ {
				id++
				m.ToolCalls = append(m.ToolCalls, ToolCall{ID: fmt.Sprintf("c%d", id), Name: "glob", Arguments: "{}"})
			}
			h = append(h, m)
			for _, c := range m.ToolCalls {
				h = append(h, Message{Role: RoleTool, ToolCallID: c.ID, ToolName: "glob", Content: "out"})
			}
		}
	}
	for i := range h {
		h[i].Seq = uint64(i + 1)
	}
	return h
}

// TestKeptPartStartsWithAQuestion is a property test: for random
// histories, keep counts and token budgets, the kept part begins with a
// user message, or (when the last turn alone is too large) with an
// assistant message of the last turn, whose question the request then
// repeats; it never keeps a tool result without its call, keeps at most
// keep messages and budget tokens when a turn start allows it, and always
// keeps the last turn's last step.
func TestKeptPartStartsWithAQuestion(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 3000; round++ {
		h := randomHistory(r, 5+r.IntN(80))
		for i := range h {
			h[i].Content = strings.Repeat("w", r.IntN(400))
		}
		start := r.IntN(len(h) / 2)
		for start > 0 && h[start].Role != RoleUser { // an earlier cut was at a turn start
			start--
		}
		keep := 2 + r.IntN(15)
		budget := r.IntN(2000)
		c := keptFrom(h, start, keep, budget)
		if c < start || c >= len(h) {
			t.Fatalf("round %d: cut %d outside [%d, %d)", round, c, start, len(h))
		}
		if c == start {
			continue // nothing compressed
		}
		last := lastUser(h, len(h))
		switch h[c].Role {
		case RoleUser:
			if c != last && (len(h)-c > keep || messagesTokens(h[c:]) > budget) {
				t.Fatalf("round %d: kept %d messages (%d tokens) from a turn start although keep is %d and the budget %d", round, len(h)-c, messagesTokens(h[c:]), keep, budget)
			}
		case RoleAssistant:
			if c < last {
				t.Fatalf("round %d: cut at an assistant message (%d) before the last turn (%d)", round, c, last)
			}
		default:
			t.Fatalf("round %d: cut at a %s message", round, h[c].Role)
		}
		if lastAsst := lastRole(h, RoleAssistant); lastAsst > last && c > lastAsst {
			t.Fatalf("round %d: cut %d after the last step (%d)", round, c, lastAsst)
		}
		called := map[string]bool{}
		for _, m := range h[c:] {
			for _, tc := range m.ToolCalls {
				called[tc.ID] = true
			}
			if m.Role == RoleTool && !called[m.ToolCallID] {
				t.Fatalf("round %d: kept result %s without its call (cut %d)", round, m.ToolCallID, c)
			}
		}
	}
}

// lastRole is the index of the last message of a role, or -1.
func lastRole(h []Message, role Role) int {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Role == role {
			return i
		}
	}
	return -1
}

// summaryResponder answers summary requests with text.
func summaryResponder(text string) func(agenttest.Request) (agenttest.Reply, bool) {
	return func(r agenttest.Request) (agenttest.Reply, bool) {
		msgs, _ := r.Body["messages"].([]any)
		if len(msgs) > 0 {
			if c, _ := msgs[0].(map[string]any)["content"].(string); strings.Contains(c, "You are compressing") {
				return agenttest.Text(text, 40), true
			}
		}
		return agenttest.Reply{}, false
	}
}

// bigHistory is a resumed history of n messages of about size bytes each.
func bigHistory(n, size int) []Message {
	h := randomHistory(rand.New(rand.NewPCG(7, 7)), n)
	for i := range h {
		h[i].Content = fmt.Sprintf("message %d: %s", i, strings.Repeat("lorem ipsum ", size/12))
	}
	h[0].Content = "Please keep the public API unchanged. " + h[0].Content
	return h
}

func TestCompressionWhenTheWindowFills(t *testing.T) {
	h := newHarness(t, 30, agenttest.Text("continuing", 10))
	h.srv.SetResponder(summaryResponder("## Goal and constraints\n\"Please keep the public API unchanged.\""))
	h.agent.opts.Budget = Budget{ContextWindow: 10000, CompressAt: 0.8, KeepRecent: 6}
	hist := bigHistory(40, 700)
	h.agent.Restore(hist, "", 0)
	if est := h.agent.Estimate(); est < 8000 || est > 10000 {
		t.Fatalf("test history of the wrong size: estimate %d", est)
	}
	budget := h.agent.compressBudget()
	res, err := h.run("go on")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "continuing" {
		t.Fatalf("answer %q", res.Text)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want one summary request (the old part fits one) and the answer", len(reqs))
	}
	sumReq := reqs[0].Body["messages"].([]any)
	if sys := sumReq[0].(map[string]any)["content"].(string); !strings.Contains(sys, "word for word") {
		t.Errorf("summary request system prompt %q", sys)
	}
	if u := sumReq[1].(map[string]any)["content"].(string); !strings.Contains(u, "Please keep the public API unchanged.") || !strings.Contains(u, "message 1:") {
		t.Errorf("summary request does not carry the old messages")
	}
	if _, ok := reqs[0].Body["tools"]; ok {
		t.Error("the summary request offered tools")
	}
	// The answer request: system prompt, summary, then only recent messages.
	msgs := reqs[1].Body["messages"].([]any)
	if c := msgs[1].(map[string]any)["content"].(string); !strings.Contains(c, "Please keep the public API unchanged.") {
		t.Errorf("second message %q is not the summary", c)
	}
	for _, m := range msgs[2:] {
		if c, _ := m.(map[string]any)["content"].(string); strings.Contains(c, "message 1:") {
			t.Error("a summarised message was sent again")
		}
	}
	h.checkStrict()
	if len(h.summaries) != 1 {
		t.Fatalf("%d summaries recorded, want 1", len(h.summaries))
	}
	through := h.summaries[0].through
	// The cut is made on the history with the new prompt added.
	kept := keptFrom(append(append([]Message(nil), hist...), Message{Role: RoleUser, Content: "go on"}), 0, 6, budget)
	if through != hist[kept-1].Seq {
		t.Errorf("summary covers through seq %d, want %d", through, hist[kept-1].Seq)
	}
	var compressed []Compressed
	for _, ev := range h.events {
		if c, ok := ev.(Compressed); ok {
			compressed = append(compressed, c)
		}
	}
	if len(compressed) != 1 || compressed[0].After >= compressed[0].Before || compressed[0].Messages != kept {
		t.Errorf("Compressed events %+v", compressed)
	}
	// The full history is still there for display and export.
	if got := len(h.agent.History()); got < len(hist)+2 {
		t.Errorf("history shrank to %d messages", got)
	}
}

func TestFailedSummaryLosesNothing(t *testing.T) {
	fail := agenttest.Error(400, "context too long")
	h := newHarness(t, 30, fail, agenttest.Text("answered anyway", 10))
	h.agent.opts.Budget = Budget{ContextWindow: 4000, CompressAt: 0.8, KeepRecent: 6}
	hist := bigHistory(30, 400)
	h.agent.Restore(hist, "", 0)
	res, err := h.run("go on")
	if err != nil || res.Text != "answered anyway" {
		t.Fatalf("result %+v, %v", res, err)
	}
	var notice string
	for _, ev := range h.events {
		if n, ok := ev.(Notice); ok && strings.Contains(n.Text, "Could not compress") {
			notice = n.Text
		}
	}
	if !strings.Contains(notice, "context too long") {
		t.Errorf("no notice saying why compression failed (got %q)", notice)
	}
	if len(h.summaries) != 0 {
		t.Error("a summary was recorded although the request failed")
	}
	if s, _ := h.agent.Summary(); s != "" {
		t.Error("the agent has a summary although the request failed")
	}
	h.checkStrict()
}

func TestResumeSendsSummaryAndLaterMessagesOnly(t *testing.T) {
	h := newHarness(t, 30, agenttest.Text("ok", 10))
	hist := bigHistory(20, 40)
	through := hist[keptFrom(hist, 0, 10, math.MaxInt)-1].Seq
	h.agent.Restore(hist, "EARLIER SUMMARY", through)
	if _, err := h.run("next"); err != nil {
		t.Fatal(err)
	}
	msgs := h.srv.Requests()[0].Body["messages"].([]any)
	if !strings.Contains(msgs[1].(map[string]any)["content"].(string), "EARLIER SUMMARY") {
		t.Fatalf("the summary is not the second message: %v", msgs[1])
	}
	var contents []string
	for _, m := range msgs[2:] {
		c, _ := m.(map[string]any)["content"].(string)
		contents = append(contents, c)
	}
	joined := strings.Join(contents, "|")
	first := fmt.Sprintf("message %d:", through) // history index = seq-1, so this is the first kept
	last := fmt.Sprintf("message %d:", through-1)
	if strings.Contains(joined, last) || !strings.HasPrefix(joined, first) {
		t.Errorf("messages after the summary are wrong: %.300s", joined)
	}
	h.checkStrict()
}

func TestCompactWithFocus(t *testing.T) {
	h := newHarness(t, 30, agenttest.Text("focused summary", 10))
	h.agent.opts.Budget = Budget{CompressAt: 0.8, KeepRecent: 10}
	h.agent.Restore(bigHistory(30, 40), "", 0)
	if err := h.agent.Compact(context.Background(), "the database migration", h.sink); err != nil {
		t.Fatal(err)
	}
	u := h.srv.Requests()[0].Body["messages"].([]any)[1].(map[string]any)["content"].(string)
	if !strings.Contains(u, "focus on: the database migration") {
		t.Errorf("focus missing from the summary request")
	}
	if s, _ := h.agent.Summary(); s != "focused summary" {
		t.Errorf("summary %q", s)
	}
	// Nothing old enough: an error that says so, not an empty summary.
	h2 := newHarness(t, 30)
	h2.agent.opts.Budget = Budget{CompressAt: 0.8, KeepRecent: 10}
	h2.agent.Restore(bigHistory(4, 40), "", 0)
	if err := h2.agent.Compact(context.Background(), "", nil); err == nil || len(h2.srv.Requests()) != 0 {
		t.Errorf("Compact on a short history: %v after %d requests", err, len(h2.srv.Requests()))
	}
}

func TestLongSummariesAreSplitAcrossRequests(t *testing.T) {
	h := newHarness(t, 30)
	h.srv.SetFallback(agenttest.Text("partial summary", 10))
	h.agent.opts.Budget = Budget{ContextWindow: 2000, CompressAt: 0.8, KeepRecent: 4}
	h.agent.Restore(bigHistory(80, 400), "", 0)
	if err := h.agent.Compact(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) < 3 {
		t.Fatalf("%d summary requests; a history this long must take several", len(reqs))
	}
	for i, r := range reqs {
		u := r.Body["messages"].([]any)[1].(map[string]any)["content"].(string)
		if est := estimateTokens(u); est > 2000 {
			t.Errorf("summary request %d is %d tokens, over the window", i, est)
		}
		if i > 0 && !strings.Contains(u, "Earlier summary:\n\npartial summary") {
			t.Errorf("summary request %d does not carry the summary so far", i)
		}
	}
}

func TestFitToWindow(t *testing.T) {
	big := strings.Repeat("x", 8000)
	sys := Message{Role: RoleSystem, Content: "system"}
	call := func(id string) Message {
		return Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: id, Name: "read_file", Arguments: "{}"}}}
	}
	result := func(id, content string) Message { return Message{Role: RoleTool, ToolCallID: id, Content: content} }
	msgs := []Message{sys, {Role: RoleUser, Content: "u1"}, call("a"), result("a", big), call("b"), result("b", big), {Role: RoleUser, Content: "u2"}}

	// Fits: untouched.
	out, notes := fitToWindow(msgs, 100000, 0)
	if len(notes) != 0 || len(out) != len(msgs) {
		t.Fatalf("a request that fits was changed: %v", notes)
	}
	// Tight: tool outputs are cut (oldest first), nothing dropped.
	out, notes = fitToWindow(msgs, 3000, 0)
	if len(out) != len(msgs) || len(notes) != 1 || !strings.Contains(notes[0], "Cut") {
		t.Fatalf("got %d messages, notes %v; want outputs cut and nothing dropped", len(out), notes)
	}
	if len(out[3].Content) >= len(big) || !strings.Contains(out[3].Content, "cut to fit") {
		t.Error("the oldest tool output was not cut")
	}
	if msgs[3].Content != big {
		t.Error("fitToWindow changed the history it was given")
	}
	// Impossible: messages are dropped too, and what is left is well-formed.
	out, notes = fitToWindow(msgs, 200, 0)
	if len(notes) != 2 || out[0].Role != RoleSystem {
		t.Fatalf("notes %v, first %v", notes, out[0].Role)
	}
	fixed := out // fitToWindow itself leaves no orphan
	for i, m := range fixed {
		if m.Role == RoleTool && (i == 0 || (fixed[i-1].Role != RoleAssistant && fixed[i-1].Role != RoleTool)) {
			t.Errorf("dropping left an orphan tool result at %d", i)
		}
	}
}

func TestEstimatePrefersReportedTokens(t *testing.T) {
	h := newHarness(t, 30, agenttest.Reply{Body: agenttest.TextBody("short answer", 4, 12345, 3)})
	if _, err := h.run("hi"); err != nil {
		t.Fatal(err)
	}
	// The reported prompt size plus the answer that followed it.
	want := 12345 + messageTokens(h.agent.History()[len(h.agent.History())-1])
	if got := h.agent.Estimate(); got != want {
		t.Errorf("Estimate() = %d, want %d (reported prompt tokens plus what came after)", got, want)
	}
}

func TestEstimateTokens(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abcd", 1},
		{"abcde", 2},
		{"你好世界", 4},
		{"héllo", 2}, // 4 ASCII bytes → 1, é → 1
	}
	for _, tc := range cases {
		if got := estimateTokens(tc.in); got != tc.want {
			t.Errorf("estimateTokens(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// TestFitToWindowNeverLeavesAnOrphan: when even the last turn does not fit,
// dropping stops before the final message; a tool result whose call was
// dropped must not be sent alone.
func TestFitToWindowNeverLeavesAnOrphan(t *testing.T) {
	big := strings.Repeat("y", 4000)
	msgs := []Message{
		{Role: RoleSystem, Content: "system"},
		{Role: RoleUser, Content: big},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "a", Name: "read_file", Arguments: "{}"}}},
		{Role: RoleTool, ToolCallID: "a", Content: big},
	}
	out, notes := fitToWindow(msgs, 100, 0)
	if len(notes) == 0 {
		t.Fatal("nothing was cut")
	}
	called := map[string]bool{}
	for _, m := range out {
		for _, c := range m.ToolCalls {
			called[c.ID] = true
		}
		if m.Role == RoleTool && !called[m.ToolCallID] {
			t.Errorf("tool result %q sent without its call: %+v", m.ToolCallID, out)
		}
	}
}

// TestNextRequestTokensIsWhatIsSent: the gauge's estimate counts the
// request as it goes out, cut to fit, with the system prompt and tools.
func TestNextRequestTokensIsWhatIsSent(t *testing.T) {
	h := newHarness(t, 30)
	h.agent.opts.System = "You are pincer."
	h.agent.opts.Budget = Budget{ContextWindow: 8000, CompressAt: 0.8, KeepRecent: 10}
	h.agent.Restore([]Message{
		{Role: RoleUser, Content: "read it"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "a", Name: "read_file", Arguments: "{}"}}},
		{Role: RoleTool, ToolCallID: "a", ToolName: "read_file", Content: strings.Repeat("x", 80000)},
	}, "earlier things", 0)
	req, err := h.agent.request(false, func(Event) {})
	if err != nil {
		t.Fatal(err)
	}
	want := messagesTokens(req.Messages) + h.agent.toolsTokens()
	if got := h.agent.NextRequestTokens(); got != want || got > 8000 {
		t.Errorf("NextRequestTokens() = %d, want %d (the request as sent, within the window)", got, want)
	}
}

func TestFitNotesCountInWords(t *testing.T) {
	msgs := []Message{{Role: RoleUser, Content: "u"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "a", Name: "read_file", Arguments: "{}"}}},
		{Role: RoleTool, ToolCallID: "a", Content: strings.Repeat("x", 8000)}}
	_, notes := fitToWindow(msgs, 1000, 0)
	if len(notes) == 0 || notes[0] != "Cut 1 old tool output down to fit the context window." {
		t.Errorf("notes = %q", notes)
	}
}

// TestNewRefusesABudgetThatCannotWork: the defaults live in config, so a
// budget missing a value is a mistake New names, not one it fills in.
func TestNewRefusesABudgetThatCannotWork(t *testing.T) {
	reg, err := tools.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		budget Budget
		want   string // "" when New accepts it
		learns bool   // the window may come from the server
	}{
		{Budget{}, "", false}, // compression off
		{Budget{}, "Budget.CompressAt is 0", true},
		{Budget{CompressAt: 0.8, KeepRecent: 10}, "", true},
		{Budget{ContextWindow: 8000, CompressAt: 0.8, KeepRecent: 10}, "", false},
		{Budget{ContextWindow: 8000, CompressAt: 1, KeepRecent: 2}, "", false},
		{Budget{ContextWindow: 8000, KeepRecent: 10}, "Budget.CompressAt is 0", false},
		{Budget{ContextWindow: 8000, CompressAt: 1.5, KeepRecent: 10}, "Budget.CompressAt is 1.5", false},
		{Budget{ContextWindow: 8000, CompressAt: 0.8}, "Budget.KeepRecent is 0", false},
	} {
		o := Options{Model: &scriptedModel{}, Tools: reg, Safety: cls, Budget: tc.budget}
		if tc.learns {
			o.Window = func(context.Context, string) llm.Window { return llm.Window{} }
		}
		_, err := New(o)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.budget, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: error %v, want one saying %q", tc.budget, err, tc.want)
		}
	}
}

// TestReasoningNotSentIsNotCounted: the reasoning of a turn that only
// answered is not sent, so it does not count against the window either:
// such a turn with long thinking is not cut from a request it fits.
func TestReasoningNotSentIsNotCounted(t *testing.T) {
	h := newHarness(t, 30)
	h.agent.opts.System = "You are pincer."
	h.agent.opts.Budget = Budget{ContextWindow: 8000, CompressAt: 0.8, KeepRecent: 10}
	h.agent.Restore([]Message{
		{Role: RoleUser, Content: "first question"},
		{Role: RoleAssistant, Content: "first answer", Reasoning: strings.Repeat("thinking ", 10000)},
		{Role: RoleUser, Content: "next"},
	}, "", 0)
	req, err := h.agent.request(false, func(Event) {})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(req.Messages, func(m Message) bool { return m.Content == "first question" }) {
		t.Errorf("the first turn was cut from the request: %d messages", len(req.Messages))
	}
	if got := h.agent.NextRequestTokens(); got > 1000 {
		t.Errorf("NextRequestTokens() = %d, want the few hundred tokens sent", got)
	}
}
