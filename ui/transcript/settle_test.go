package transcript

import (
	"strings"
	"testing"
)

// TestSettleAnswer: an answer whose thinking streamed as text (the
// template opened the block, only </think> came) reads, once finished, as
// the message says: the thinking folded as reasoning, the answer alone.
func TestSettleAnswer(t *testing.T) {
	m := newTestModel(80, 20)
	m.AddUser("2+2?")
	m.AppendText("The user asks a sum. 2+2 is 4.</think>\n\n")
	m.AppendText("It is **4**.")
	m.SettleAnswer("The user asks a sum. 2+2 is 4.", "It is **4**.")
	m.FinishAssistant(false)
	view := strings.Join(viewLines(m), "\n")
	if strings.Contains(view, "</think>") || strings.Contains(view, "The user asks a sum") {
		t.Errorf("the finished answer still shows the thinking:\n%s", view)
	}
	if !strings.Contains(view, "It is 4.") || !strings.Contains(view, "Thinking") {
		t.Errorf("want the answer and a folded reasoning entry:\n%s", view)
	}
	// An answer that streamed as it ends is left alone.
	m.AddUser("and 3+3?")
	m.AppendText("It is 6.")
	before := len(m.s.items)
	m.SettleAnswer("", "It is 6.")
	if len(m.s.items) != before || m.s.answer == nil {
		t.Errorf("an unchanged answer was changed")
	}
}
