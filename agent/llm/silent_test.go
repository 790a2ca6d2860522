package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"pincer/agent/agenttest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSilentServerIsReportedAsSilent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		serve func(t *testing.T) (base string, accepted func() int)
	}{
		{"accepts and never answers", func(t *testing.T) (string, func() int) {
			addr, n := agenttest.SilentListener(t)
			return "http://" + addr + "/v1", n
		}},
		{"sends headers and then nothing", func(t *testing.T) (string, func() int) {
			var mu sync.Mutex
			count := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				count++
				mu.Unlock()
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
				case <-time.After(10 * time.Second):
				}
			}))
			t.Cleanup(srv.Close)
			return srv.URL + "/v1", func() int { mu.Lock(); defer mu.Unlock(); return count }
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, accepted := tc.serve(t)
			const maxRetries = 20
			c, err := NewClient(ClientOptions{
				BaseURL: base, Model: "m", MaxRetries: maxRetries,
				FirstByteTimeout: 100 * time.Millisecond, SilentRetryBudget: 350 * time.Millisecond,
				Backoff: func(int) time.Duration { return time.Millisecond },
			})
			if err != nil {
				t.Fatal(err)
			}
			log := &eventLog{}
			_, err = c.Complete(context.Background(), userOnly("hi"), log.sink)
			var silent *SilentError
			if !errors.As(err, &silent) || !errors.Is(err, ErrStreamIdle) {
				t.Fatalf("error %v, want a SilentError", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "connected to the model server") ||
				!strings.Contains(msg, "sent nothing for") || strings.Contains(msg, "could not reach") {
				t.Errorf("message %q, want it to say the server was reached and stayed silent", msg)
			}
			if len(log.retries) == 0 {
				t.Fatal("no Retrying event: the first silence was not reported as it happened")
			}
			if first := log.retries[0].Err; !errors.As(first, &silent) {
				t.Errorf("first Retrying event reports %v, want the silence", first)
			}
			// The budget, not max_retries, ended the retries.
			if len(log.retries) >= maxRetries {
				t.Errorf("%d retries: the silent retry budget did not bound them", len(log.retries))
			}
			if n := accepted(); n != len(log.retries)+1 {
				t.Errorf("%d requests reached the server, want %d", n, len(log.retries)+1)
			}
		})
	}
}

// TestSilentBudgetSmallerThanFirstByte: with no room for a second wait the
// first silence is the answer, at once.
func TestSilentBudgetSmallerThanFirstByte(t *testing.T) {
	t.Parallel()
	addr, accepted := agenttest.SilentListener(t)
	c, err := NewClient(ClientOptions{
		BaseURL: "http://" + addr + "/v1", Model: "m", MaxRetries: 4,
		FirstByteTimeout: 100 * time.Millisecond, SilentRetryBudget: 150 * time.Millisecond,
		Backoff: func(int) time.Duration { return time.Millisecond },
	})
	if err != nil {
		t.Fatal(err)
	}
	log := &eventLog{}
	_, err = c.Complete(context.Background(), userOnly("hi"), log.sink)
	if !isSilent(err) {
		t.Fatalf("error %v, want a SilentError", err)
	}
	if len(log.retries) != 0 || accepted() != 1 {
		t.Errorf("%d retries over %d connections, want none over 1", len(log.retries), accepted())
	}
}

// TestSlowFirstByteWithinLimit: a server that takes a while to start but
// answers within the first-byte limit is not cut by the (shorter) idle
// limit, which only applies between chunks.
func TestSlowFirstByteWithinLimit(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		time.Sleep(300 * time.Millisecond)
		_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"late"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	c, err := NewClient(ClientOptions{
		BaseURL: srv.URL + "/v1", Model: "m", MaxRetries: -1,
		FirstByteTimeout: 5 * time.Second, IdleTimeout: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Complete(context.Background(), userOnly("hi"), nil)
	if err != nil || got.Content != "late" {
		t.Fatalf("got %q, %v; want the late answer", got.Content, err)
	}
}

// TestSilentBudgetStartsAtTheFirstSilence: time spent on earlier failures
// (here a 429 asking to wait longer than the whole budget) does not use up
// the silent retry budget, and never leaves an attempt without a limit.
func TestSilentBudgetStartsAtTheFirstSilence(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so the server notices the client leave
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			w.Header().Set("Retry-After", "0.5")
			http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
			return
		}
		select { // silent from then on
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	c, err := NewClient(ClientOptions{
		BaseURL: srv.URL + "/v1", Model: "m", MaxRetries: 20,
		FirstByteTimeout: 100 * time.Millisecond, SilentRetryBudget: 400 * time.Millisecond,
		Backoff: func(int) time.Duration { return time.Millisecond },
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	log := &eventLog{}
	_, err = c.Complete(ctx, userOnly("hi"), log.sink)
	if !isSilent(err) {
		t.Fatalf("error %v, want a SilentError (an attempt ran without a limit?)", err)
	}
	if len(log.retries) < 2 {
		t.Errorf("%d retries, want the 429 and at least one silence retried", len(log.retries))
	}
}
