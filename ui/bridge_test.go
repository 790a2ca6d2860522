package ui

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

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

// TestBridgeWaitsForTheScreensFrame: with the screen's frame clock, a
// batch is handed over when the screen may draw it (asked again once after
// sleeping, as a frame drawn meanwhile moves the next), and never held
// longer than that, so frames drawn for typing cannot starve the answer.
func TestBridgeWaitsForTheScreensFrame(t *testing.T) {
	const ms = time.Millisecond
	for _, tc := range []struct {
		name  string
		dues  []time.Duration // what FrameDue answers, in turn (the last repeats)
		slept []time.Duration
		late  bool // the events come while it sleeps, not before it waits
	}{
		{name: "due now", dues: []time.Duration{0}},
		{name: "due later", dues: []time.Duration{40 * ms, 0}, slept: []time.Duration{40 * ms}},
		{name: "moved by a frame meanwhile", dues: []time.Duration{40 * ms, 15 * ms, 0}, slept: []time.Duration{40 * ms, 15 * ms}},
		{name: "moved on and on by typing", dues: []time.Duration{60 * ms}, slept: []time.Duration{60 * ms, 60 * ms}},
		// While an answer streams, the bridge sleeps until the frame
		// before it waits for events: pieces that come meanwhile wake
		// nobody.
		{name: "pieces come while it sleeps", dues: []time.Duration{40 * ms, 0}, slept: []time.Duration{40 * ms}, late: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBridge()
			asked := 0
			b.frameDue = func() time.Duration {
				d := tc.dues[min(asked, len(tc.dues)-1)]
				asked++
				return d
			}
			var slept []time.Duration
			send := func() {
				b.event(agent.TextDelta{Text: "a"})
				b.event(agent.TextDelta{Text: "b"})
			}
			b.sleep = func(d time.Duration) {
				if len(slept) == 0 && tc.late {
					send()
				}
				slept = append(slept, d)
			}
			if !tc.late {
				send()
			}
			msgs := make(chan tea.Msg, 1)
			go func() { msgs <- b.wait()() }()
			var got eventsMsg
			select {
			case m := <-msgs:
				got, _ = m.(eventsMsg)
			case <-time.After(10 * time.Second):
				t.Fatal("the batch never came: the bridge waited for events before sleeping until the frame")
			}
			if len(got) != 2 {
				t.Fatalf("the batch holds %d events, want both", len(got))
			}
			if !slices.Equal(slept, tc.slept) {
				t.Errorf("slept %v, want %v", slept, tc.slept)
			}
		})
	}
}
