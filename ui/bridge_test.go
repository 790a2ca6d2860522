package ui

import (
	"context"
	"errors"
	"testing"

	"pincer/agent"
	"pincer/tools/mcp"
)

// TestAskAndWait: the approval and the server's question reach the event
// loop the same way, and the asking goroutine gets the dialog's answer,
// or the context's error when it gives up first.
func TestAskAndWait(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cancel bool
	}{
		{name: "answered"},
		{name: "given up", cancel: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBridge()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type result struct {
				d   agent.Decision
				a   mcp.Answer
				err error
			}
			approved, elicited := make(chan result, 1), make(chan result, 1)
			go func() {
				d, err := approver{b}.Approve(ctx, agent.Approval{Tool: "run_command"})
				approved <- result{d: d, err: err}
			}()
			go func() {
				a, err := screenElicitor{b}.ask(ctx, mcp.Elicitation{Message: "token?"})
				elicited <- result{a: a, err: err}
			}()
			var q question
			var eq elicitQuestion
			for seen := 0; seen < 2; {
				<-b.wake
				for _, ev := range b.drain() {
					switch v := ev.(type) {
					case question:
						q, seen = v, seen+1
					case elicitQuestion:
						eq, seen = v, seen+1
					}
				}
			}
			if q.q.Tool != "run_command" || eq.q.Message != "token?" {
				t.Fatalf("the loop got %+v and %+v, not the questions asked", q.q, eq.q)
			}
			if tc.cancel {
				cancel()
			} else {
				q.answer(agent.Decision{Allow: true})
				eq.answer(mcp.Answer{Action: mcp.Accept})
			}
			ra, re := <-approved, <-elicited
			switch {
			case tc.cancel && (!errors.Is(ra.err, context.Canceled) || !errors.Is(re.err, context.Canceled)):
				t.Errorf("given up: errors %v and %v, want context.Canceled", ra.err, re.err)
			case !tc.cancel && (ra.err != nil || !ra.d.Allow || re.err != nil || re.a.Action != mcp.Accept):
				t.Errorf("answered: got %+v/%v and %+v/%v", ra.d, ra.err, re.a, re.err)
			}
		})
	}
}
