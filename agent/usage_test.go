package agent

import (
	"math"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// TestUsageIsAccounted: the server's counts are taken as they are, priced
// when the model's price is known; a server that sends none gets an
// estimate marked so, which the window's calibration does not trust; the
// event, the stored message and the turn's result agree.
func TestUsageIsAccounted(t *testing.T) {
	answer := strings.Repeat("word ", 200) // about 250 tokens
	for _, tt := range []struct {
		name      string
		reply     agenttest.Reply
		priced    bool
		estimated bool
		prompt    int
		cost      float64
	}{
		{"server counts, priced", agenttest.Reply{Body: agenttest.TextBody(answer, 50, 1_000_000, 500_000)}, true, false, 1_000_000, 1.25},
		{"server counts, no price", agenttest.Reply{Body: agenttest.TextBody(answer, 50, 1200, 250)}, false, false, 1200, 0},
		{"no counts", agenttest.Reply{Body: agenttest.TextBody(answer, 50, 0, 0)}, true, true, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 5, tt.reply)
			if tt.priced {
				h.agent.opts.Price = func(model string) (float64, float64, bool) { return 0.25, 2, model == "" }
			}
			res, err := h.run("talk")
			if err != nil {
				t.Fatal(err)
			}
			var events []Usage
			for _, ev := range h.events {
				if u, ok := ev.(Usage); ok {
					events = append(events, u)
				}
			}
			if len(events) != 1 || events[0] != res.Usage {
				t.Fatalf("usage events %+v, result %+v; want one, the same", events, res.Usage)
			}
			u := res.Usage
			stored := h.records[len(h.records)-1].Usage
			if stored == nil || *stored != u {
				t.Errorf("stored usage %+v, want %+v", stored, u)
			}
			if u.Estimated != tt.estimated {
				t.Errorf("Estimated = %v, want %v (%+v)", u.Estimated, tt.estimated, u)
			}
			if tt.estimated {
				if u.CompletionTokens < 200 || u.CompletionTokens > 300 || u.PromptTokens == 0 {
					t.Errorf("estimate %+v; want about 250 completion tokens and some prompt", u)
				}
				if want := (float64(u.PromptTokens)*0.25 + float64(u.CompletionTokens)*2) / 1e6; math.Abs(u.Cost-want) > 1e-12 {
					t.Errorf("cost of the estimate %v, want %v", u.Cost, want)
				}
				if h.agent.lastPrompt != 0 {
					t.Errorf("the estimate calibrated the window: lastPrompt %d", h.agent.lastPrompt)
				}
				return
			}
			if u.PromptTokens != tt.prompt || math.Abs(u.Cost-tt.cost) > 1e-9 {
				t.Errorf("usage %+v; want %d prompt tokens costing %v", u, tt.prompt, tt.cost)
			}
		})
	}
}

// TestFailedRequestCountsNothing: a request refused before any answer
// has no usage to account, estimated or not.
func TestFailedRequestCountsNothing(t *testing.T) {
	h := newHarness(t, 5, agenttest.Error(400, "bad request"))
	res, _ := h.run("talk")
	if res.Usage != (Usage{}) {
		t.Errorf("usage %+v, want none", res.Usage)
	}
}
