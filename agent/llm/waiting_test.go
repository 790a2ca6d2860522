package llm

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/agent/agenttest"
)

// TestWaitingIsReportedAndTheLimitsAreSaid: each attempt that reaches a
// server that stays silent is announced with its limits (so a screen can
// say "connected, waiting for the first token"), and the final error says
// what the limits were and how many attempts waited.
func TestWaitingIsReportedAndTheLimitsAreSaid(t *testing.T) {
	t.Parallel()
	addr, accepted := agenttest.SilentListener(t)
	c, err := NewClient(ClientOptions{
		BaseURL: "http://" + addr + "/v1", Model: "m", MaxRetries: 20,
		FirstByteTimeout: 100 * time.Millisecond, SilentRetryBudget: 350 * time.Millisecond,
		Backoff: func(int) time.Duration { return time.Millisecond },
	})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []string
	var waits []Waiting
	sink := func(ev Event) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case Waiting:
			order = append(order, "waiting")
			waits = append(waits, e)
		case Retrying:
			order = append(order, "retrying")
		}
	}
	_, err = c.Complete(context.Background(), userOnly("hi"), sink)
	if !isSilent(err) {
		t.Fatalf("error %v, want a SilentError", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(waits) != accepted() || len(waits) < 2 {
		t.Errorf("%d Waiting events for %d attempts", len(waits), accepted())
	}
	for i, o := range order {
		if want := []string{"waiting", "retrying"}[i%2]; o != want {
			t.Errorf("event %d is %s, want %s: %v", i, o, want, order)
			break
		}
	}
	if w := waits[0]; w.FirstByte != 100*time.Millisecond || w.Budget != 350*time.Millisecond {
		t.Errorf("the first Waiting says %+v", w)
	}
	msg := err.Error()
	for _, want := range []string{"connected to the model server", "sent nothing for", "attempts",
		"first_byte_timeout 100ms for each attempt", "silent_retry_budget 350ms in all"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error %q does not say %q", msg, want)
		}
	}
}
