package agent

import (
	"fmt"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// firstAfterSystem is the role of the first message of a request after its
// system messages, and how many system messages there are.
func firstAfterSystem(t *testing.T, r agenttest.Request) (string, int) {
	t.Helper()
	msgs, _ := r.Body["messages"].([]any)
	for i, m := range msgs {
		if role := m.(map[string]any)["role"].(string); role != "system" {
			return role, i
		}
	}
	return "", len(msgs)
}

// turns is a history of n turns, each a question and a long answer.
func turns(n, size int) []Message {
	var h []Message
	for i := range n {
		h = append(h, Message{Role: RoleUser, Content: fmt.Sprintf("question %d", i)},
			Message{Role: RoleAssistant, Content: fmt.Sprintf("answer %d: %s", i, strings.Repeat("word ", size))})
	}
	for i := range h {
		h[i].Seq = uint64(i + 1)
	}
	return h
}

// TestCompressionInASmallWindow: in a 6,000-token window whose instructions
// and tools take much of it, compression summarises every earlier turn it
// must (not just the first message), the next request begins with the
// user's question after the system messages, and it is under the
// threshold, as the Compressed event says.
func TestCompressionInASmallWindow(t *testing.T) {
	h := newHarness(t, 30, agenttest.Text("continuing", 10))
	h.srv.SetResponder(summaryResponder("The user asked questions 0 to 4; each was answered at length."))
	h.agent.opts.System = strings.Repeat("You are pincer, a careful assistant. ", 200) // about 1,900 tokens, like the real one with its tools
	h.agent.opts.Budget = Budget{ContextWindow: 6000, CompressAt: 0.8, KeepRecent: 10}
	h.agent.opts.Profile = ProfileFull // the tools' weight as it was when this was found
	h.agent.Restore(turns(5, 300), "", 0)
	h.records = make([]Message, 10) // the store numbers on from the restored messages
	threshold := int(0.8 * 6000)
	if est := h.agent.Estimate(); est < threshold {
		t.Fatalf("the test history does not reach the threshold: %d tokens", est)
	}
	if _, err := h.run("and now question 5?"); err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the summary and the answer", len(reqs))
	}
	if role, systems := firstAfterSystem(t, reqs[1]); role != "user" || systems != 2 {
		t.Errorf("the answer request has %d system messages and then a %s message; want the prompt and the summary, then the user's question", systems, role)
	}
	var c Compressed
	for _, ev := range h.events {
		if e, ok := ev.(Compressed); ok {
			c = e
		}
	}
	if c.Messages < 2 {
		t.Errorf("compression summarised %d messages; the old turns do not fit", c.Messages)
	}
	if c.After >= threshold || c.After >= c.Before {
		t.Errorf("after compression the request is estimated at %d tokens (before %d); want under the threshold %d", c.After, c.Before, threshold)
	}
	h.checkStrict()
}

// TestCompressionInsideALongTurn: when the last turn alone is too large to
// keep, the cut falls inside it, and the request repeats the turn's
// question before the kept steps, so no answer is sent without it.
func TestCompressionInsideALongTurn(t *testing.T) {
	h := newHarness(t, 30, agenttest.Text("done", 10))
	h.srv.SetResponder(summaryResponder("Earlier steps of the task: several files were read."))
	h.agent.opts.Budget = Budget{ContextWindow: 6000, CompressAt: 0.8, KeepRecent: 10}
	hist := []Message{{Role: RoleUser, Content: "read every file and fix the bug"}}
	for i := range 8 {
		id := fmt.Sprintf("c%d", i)
		hist = append(hist,
			Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: id, Name: "read_file", Arguments: `{"path":"f"}`}}},
			Message{Role: RoleTool, ToolCallID: id, ToolName: "read_file", Content: strings.Repeat("line of code\n", 200)})
	}
	for i := range hist {
		hist[i].Seq = uint64(i + 1)
	}
	h.agent.Restore(hist, "", 0)
	if err := h.agent.Compact(t.Context(), "", h.sink); err != nil {
		t.Fatal(err)
	}
	msgs := h.agent.requestMessages()
	var roles []string
	for _, m := range msgs {
		roles = append(roles, string(m.Role))
	}
	i := 0
	for i < len(msgs) && msgs[i].Role == RoleSystem {
		i++
	}
	if i == len(msgs) || msgs[i].Role != RoleUser || msgs[i].Content != "read every file and fix the bug" || i+1 == len(msgs) || msgs[i+1].Role != RoleAssistant {
		t.Fatalf("request roles %v; want the turn's question, then its kept steps", roles)
	}
	if _, through := h.agent.Summary(); through <= 1 {
		t.Errorf("the summary covers through seq %d; the turn's early steps should be in it", through)
	}
	if got := messagesTokens(msgs) + h.agent.toolsTokens(); got >= 4800 {
		t.Errorf("the next request is %d tokens, over the threshold", got)
	}
}

// TestResumedSummaryCutAtAnAnswer: a summary saved by an older pincer may
// end just before an answer; the request then repeats its question.
func TestResumedSummaryCutAtAnAnswer(t *testing.T) {
	h := newHarness(t, 30, agenttest.Text("ok", 10))
	hist := turns(3, 10)
	h.agent.Restore(hist, "EARLIER", hist[0].Seq) // covers question 0 only
	h.records = make([]Message, len(hist))
	if _, err := h.run("next"); err != nil {
		t.Fatal(err)
	}
	r := h.srv.Requests()[0]
	if role, _ := firstAfterSystem(t, r); role != "user" {
		t.Errorf("the request continues with a %s message after the summary", role)
	}
	msgs := r.Body["messages"].([]any)
	if c := msgs[2].(map[string]any)["content"]; c != "question 0" {
		t.Errorf("the message after the summary is %q, want the question its answer answers", c)
	}
	h.checkStrict()
}

// TestFitToWindowKeepsTheQuestion: leaving out old messages to fit the
// window never leaves the last turn's question out, nor its last step.
func TestFitToWindowKeepsTheQuestion(t *testing.T) {
	big := strings.Repeat("z", 3000)
	msgs := []Message{
		{Role: RoleSystem, Content: "system"},
		{Role: RoleUser, Content: "old " + big},
		{Role: RoleAssistant, Content: "old answer " + big},
		{Role: RoleUser, Content: "the question"},
		{Role: RoleAssistant, Content: big, ToolCalls: []ToolCall{{ID: "a", Name: "glob", Arguments: "{}"}}},
		{Role: RoleTool, ToolCallID: "a", ToolName: "glob", Content: "x"},
		{Role: RoleAssistant, Content: "step", ToolCalls: []ToolCall{{ID: "b", Name: "glob", Arguments: "{}"}}},
		{Role: RoleTool, ToolCallID: "b", ToolName: "glob", Content: "y"},
	}
	out, notes := fitToWindow(msgs, 400, 0)
	if len(notes) == 0 {
		t.Fatal("nothing was left out")
	}
	var got []string
	for _, m := range out {
		got = append(got, string(m.Role)+":"+m.Content[:min(len(m.Content), 12)])
	}
	want := []string{"system:system", "user:the question", "assistant:step", "tool:y"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("fitted messages %q, want %q", got, want)
	}
}

// TestFitToWindowDropsWholeTurns: once older messages are left out, the
// rest of the turn they belong to goes too, so no earlier answer is sent
// without its question.
func TestFitToWindowDropsWholeTurns(t *testing.T) {
	big := strings.Repeat("z", 3000)
	msgs := []Message{
		{Role: RoleSystem, Content: "system"},
		{Role: RoleUser, Content: "old " + big},
		{Role: RoleAssistant, Content: "old answer"},
		{Role: RoleUser, Content: "older " + big},
		{Role: RoleAssistant, Content: "an answer that would fit"},
		{Role: RoleUser, Content: "the question"},
	}
	out, notes := fitToWindow(msgs, 600, 0)
	var got []string
	for _, m := range out {
		got = append(got, string(m.Role)+":"+m.Content[:min(len(m.Content), 12)])
	}
	want := []string{"system:system", "user:the question"}
	if strings.Join(got, "|") != strings.Join(want, "|") || len(notes) != 1 || !strings.Contains(notes[0], "4 oldest messages") {
		t.Errorf("fitted messages %q (%q), want %q and 4 left out", got, notes, want)
	}
}
