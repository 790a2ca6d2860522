package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/chat"
)

// fixture is one recorded-style stream under testdata/streams with the
// answer it holds, written by hand from reading the stream.
type fixture struct {
	name string
	body []byte
	want struct {
		Content   string `json:"content"`
		Reasoning string `json:"reasoning"`
		// ReasoningField is the field the reasoning came in, when not
		// reasoning_content: it goes back to the server in that one.
		ReasoningField string          `json:"reasoning_field"`
		ToolCalls      []chat.ToolCall `json:"tool_calls"`
		FinishReason   string          `json:"finish_reason"`
		Usage          *fixtureUsage   `json:"usage"`
		Error          string          `json:"error"` // "", "cut", or "api:<text the message contains>"
	}
}

// fixtureUsage is a fixture's usage as written, with the server's total,
// which the JSON form of Usage leaves out.
type fixtureUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	ReasoningTokens  int `json:"reasoning_tokens"`
	CachedTokens     int `json:"cached_tokens"`
}

func loadFixtures(t testing.TB) []fixture {
	t.Helper()
	paths, err := filepath.Glob("testdata/streams/*.sse")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 25 {
		t.Fatalf("found %d stream fixtures, want at least 25", len(paths))
	}
	var out []fixture
	for _, p := range paths {
		f := fixture{name: strings.TrimSuffix(filepath.Base(p), ".sse")}
		if f.body, err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
		w, err := os.ReadFile(strings.TrimSuffix(p, ".sse") + ".want.json")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(w, &f.want); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, f)
	}
	return out
}

// eventLog collects events and checks they agree with the final reply.
type eventLog struct {
	text, reasoning strings.Builder
	calls           map[int]ToolCallDelta
	usage           []chat.Usage
	retries         []Retrying
}

func (l *eventLog) sink(ev Event) {
	switch e := ev.(type) {
	case TextDelta:
		l.text.WriteString(e.Text)
	case ReasoningDelta:
		l.reasoning.WriteString(e.Text)
	case ToolCallDelta:
		if l.calls == nil {
			l.calls = map[int]ToolCallDelta{}
		}
		l.calls[e.Index] = e
	case chat.Usage:
		l.usage = append(l.usage, e)
	case Retrying:
		l.retries = append(l.retries, e)
	}
}

func checkReply(t *testing.T, f fixture, got Reply, err error, log *eventLog) {
	t.Helper()
	switch w := f.want.Error; {
	case w == "":
		if err != nil {
			t.Fatalf("error %v, want none", err)
		}
	case w == "cut":
		if !errors.Is(err, ErrStreamCut) {
			t.Fatalf("error %v, want ErrStreamCut", err)
		}
	case strings.HasPrefix(w, "api:"):
		var ae *apiError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), strings.TrimPrefix(w, "api:")) {
			t.Fatalf("error %v, want an API error containing %q", err, strings.TrimPrefix(w, "api:"))
		}
	}
	if got.Content != f.want.Content {
		t.Errorf("content %q, want %q", got.Content, f.want.Content)
	}
	if got.Reasoning != f.want.Reasoning {
		t.Errorf("reasoning %q, want %q", got.Reasoning, f.want.Reasoning)
	}
	if got.ReasoningField != f.want.ReasoningField {
		t.Errorf("reasoning field %q, want %q", got.ReasoningField, f.want.ReasoningField)
	}
	if err != nil {
		if len(got.ToolCalls) != 0 {
			t.Errorf("a failed reply carries tool calls %v", got.ToolCalls)
		}
	} else {
		if !reflect.DeepEqual(got.ToolCalls, f.want.ToolCalls) && (len(got.ToolCalls)+len(f.want.ToolCalls) > 0) {
			t.Errorf("tool calls\n got %+v\nwant %+v", got.ToolCalls, f.want.ToolCalls)
		}
		if got.FinishReason != f.want.FinishReason {
			t.Errorf("finish reason %q, want %q", got.FinishReason, f.want.FinishReason)
		}
		var wantUsage chat.Usage
		if f.want.Usage != nil {
			u := *f.want.Usage
			wantUsage = chat.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens,
				ReasoningTokens: u.ReasoningTokens, CachedTokens: u.CachedTokens}
		}
		if got.Usage != wantUsage {
			t.Errorf("usage %+v, want %+v", got.Usage, wantUsage)
		}
	}
	if log == nil {
		return
	}
	if log.text.String() != f.want.Content {
		t.Errorf("text deltas add up to %q, want %q", log.text.String(), f.want.Content)
	}
	if log.reasoning.String() != f.want.Reasoning {
		t.Errorf("reasoning deltas add up to %q, want %q", log.reasoning.String(), f.want.Reasoning)
	}
	if err == nil {
		for i, c := range f.want.ToolCalls {
			d, ok := log.calls[i]
			if !ok || d.Name != c.Name || d.ArgsSoFar != c.Arguments {
				t.Errorf("last delta of call %d = %+v, want name %q args %q", i, d, c.Name, c.Arguments)
			}
		}
	}
}

// mergeAll runs a body through the SSE reader and the merger, as the
// transport does, without HTTP.
func mergeAll(body []byte, sink func(Event)) (Reply, error) {
	m := &merger{emit: sink}
	r := newSSEReader(bytes.NewReader(body))
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return m.reply(), err
		}
		if ev.Name == "error" {
			return m.reply(), parseAPIError(ev.Data)
		}
		if err := m.chunk(ev.Data); err != nil {
			rep := m.reply()
			rep.ToolCalls = nil
			return rep, err
		}
		if m.done {
			break
		}
	}
	m.finishText()
	if !m.complete() {
		rep := m.reply()
		rep.ToolCalls = nil
		return rep, ErrStreamCut
	}
	return m.reply(), nil
}

func TestMergeFixtures(t *testing.T) {
	t.Parallel()
	for _, f := range loadFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			log := &eventLog{}
			got, err := mergeAll(f.body, log.sink)
			checkReply(t, f, got, err, log)
		})
	}
}

// TestClientFixtures replays every fixture through a real HTTP server, in
// small pieces, and through langchaingo with the repairing transport.
func TestClientFixtures(t *testing.T) {
	t.Parallel()
	for _, f := range loadFixtures(t) {
		for _, piece := range []int{0, 5} {
			t.Run(f.name+"/piece"+string(rune('0'+piece)), func(t *testing.T) {
				srv := agenttest.New(agenttest.Reply{Body: string(f.body), Piece: piece})
				defer srv.Close()
				c := newTestClient(t, srv.BaseURL(), "")
				log := &eventLog{}
				got, err := c.Complete(context.Background(), Request{Messages: []chat.Message{{Role: chat.RoleUser, Content: "hi"}}}, log.sink)
				checkReply(t, f, got, err, log)
				reqs := srv.Requests()
				if len(reqs) != 1 {
					t.Fatalf("%d requests, want 1", len(reqs))
				}
				if reqs[0].Body["stream"] != true {
					t.Errorf("request did not ask for a stream: %s", reqs[0].Raw)
				}
			})
		}
	}
}

func newTestClient(t testing.TB, base, key string) *Client {
	t.Helper()
	c, err := NewClient(ClientOptions{BaseURL: base, APIKey: key, Model: "test-model", Backoff: func(int) time.Duration { return time.Millisecond }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
