package session

import (
	"math"
	"testing"

	"pincer/chat"
)

// TestUsageTotalsSurviveReopening: a session's token totals, whether any
// part was estimated and what they cost, are summed as messages are
// appended and read back the same after the store is opened again (a
// resumed session); each message keeps its own.
func TestUsageTotalsSurviveReopening(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "u", "/p")
	for _, tt := range []struct {
		usage     *chat.Usage
		prompt    int
		estimated bool
		cost      float64
	}{
		{nil, 0, false, 0},
		{&chat.Usage{PromptTokens: 1000, CompletionTokens: 100, Cost: 0.5}, 1000, false, 0.5},
		{&chat.Usage{PromptTokens: 2000, CompletionTokens: 50, Cost: 0.25}, 3000, false, 0.75},
		{&chat.Usage{PromptTokens: 500, CompletionTokens: 10, Estimated: true}, 3500, true, 0.75},
	} {
		mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleAssistant, Content: "x", Usage: tt.usage})
		again, err := Open(s.Path(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := again.Get(sess.ID)
		if err != nil {
			t.Fatal(err)
		}
		if u := got.Usage; u.PromptTokens != tt.prompt || u.Estimated != tt.estimated || math.Abs(u.Cost-tt.cost) > 1e-12 {
			t.Errorf("after reopening: %+v; want %d prompt tokens, estimated %v, cost %v", u, tt.prompt, tt.estimated, tt.cost)
		}
	}
	msgs, err := s.Messages(sess.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if u := msgs[3].Usage; u == nil || !u.Estimated || u.PromptTokens != 500 {
		t.Errorf("the last message's usage %+v, want its own estimate", u)
	}
	if u := msgs[1].Usage; u == nil || u.Cost != 0.5 || u.Estimated {
		t.Errorf("the second message's usage %+v, want its own cost", u)
	}
}
