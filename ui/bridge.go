package ui

import (
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"pincer/agent"
)

// frameInterval is the shortest time between two batches of agent events
// handed to the event loop: one batch per frame the screen can show
// (screenFPS), however fast the model streams.
const frameInterval = time.Second / screenFPS

// bridge carries what the agent's goroutine produces (events, and approval
// questions that wait for an answer) to the event loop. Events are
// buffered and handed over in batches, so a model streaming a thousand
// deltas a second costs at most ~30 screen updates a second. Waiting for
// the next batch blocks on a channel: no timer runs while nothing happens.
type bridge struct {
	mu      sync.Mutex
	pending []any // agent.Event values and approval questions, in order
	wake    chan struct{}
	last    time.Time

	// frameDue, when set, is how long until the screen lets output be
	// drawn (termscreen.Program.FrameDue). A batch then waits for that
	// instead of for frameInterval since the last batch: handed over as
	// the cap allows, the frame it makes is drawn at once, rather than on
	// a timer of the screen's own, which cost a second wake-up for nearly
	// every frame of a streamed answer (the batch came a moment before the
	// cap, whose interval counts from the end of the last frame).
	frameDue func() time.Duration
	sleep    func(time.Duration) // time.Sleep; tests record it instead
}

func newBridge() *bridge { return &bridge{wake: make(chan struct{}, 1), sleep: time.Sleep} }

// eventsMsg is a batch of agent events and approval questions, in order.
type eventsMsg []any

// pending is a question another goroutine puts to the person through the
// event loop, and waits on reply for the answer (see askAndWait); the
// dialog that shows it answers exactly once.
type pending[Q, A any] struct {
	q     Q
	reply chan A
}

// answer hands the person's answer to the waiting goroutine; reply has
// room for it, so the event loop never blocks.
func (p pending[Q, A]) answer(a A) { p.reply <- a }

// askAndWait puts q in the event stream and waits for the person's answer,
// or for ctx to end (the turn cancelled, the server gone).
func askAndWait[Q, A any](ctx context.Context, b *bridge, q Q) (A, error) {
	p := pending[Q, A]{q: q, reply: make(chan A, 1)}
	b.send(p)
	select {
	case a := <-p.reply:
		return a, nil
	case <-ctx.Done():
		var none A
		return none, ctx.Err()
	}
}

// question is an approval question from the agent.
type question = pending[agent.Approval, agent.Decision]

// event queues an agent event; it is the agent's sink.
func (b *bridge) event(ev agent.Event) { b.send(ev) }

// send queues an event or a question and wakes the waiting command.
func (b *bridge) send(ev any) {
	b.mu.Lock()
	b.pending = append(b.pending, ev)
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// wait returns a command that blocks until events arrive, lets a frame's
// worth of them gather, and delivers them as one eventsMsg.
func (b *bridge) wait() tea.Cmd {
	return func() tea.Msg {
		if b.frameDue != nil {
			// Until the next frame first, then for events: while an
			// answer streams, its pieces gather meanwhile without waking
			// anybody, and the batch goes at once.
			if !b.untilFrame() {
				<-b.wake
				b.untilFrame() // events after a quiet spell: a tick may have drawn
			} else {
				<-b.wake
			}
			return b.drain()
		}
		<-b.wake
		b.mu.Lock()
		wait := frameInterval - time.Since(b.last)
		b.mu.Unlock()
		if wait > 0 {
			b.sleep(wait)
		}
		return b.drain()
	}
}

// untilFrame sleeps until the screen may draw the next frame (and says
// whether it had to), asking once
// more after sleeping: a frame drawn meanwhile (the status line's tick)
// moves the next one. Not more often, so that frames drawn for the
// person's typing never hold the answer back: past that, the screen's cap
// holds the batch.
func (b *bridge) untilFrame() (slept bool) {
	for range 2 {
		wait := b.frameDue()
		if wait <= 0 {
			break
		}
		b.sleep(wait)
		slept = true
	}
	return slept
}

// drain takes every buffered event now.
func (b *bridge) drain() eventsMsg {
	b.mu.Lock()
	defer b.mu.Unlock()
	evs := b.pending
	b.pending = nil
	b.last = time.Now()
	return eventsMsg(evs)
}

// approver is the agent.Approver of the screen: it puts the question in
// the event stream and waits for the person's answer, or for the turn to
// be cancelled.
type approver struct{ b *bridge }

// Approve implements agent.Approver.
func (a approver) Approve(ctx context.Context, q agent.Approval) (agent.Decision, error) {
	return askAndWait[agent.Approval, agent.Decision](ctx, a.b, q)
}

// turnDoneMsg reports that agent.Run returned.
type turnDoneMsg struct {
	res agent.Result
	err error
}
