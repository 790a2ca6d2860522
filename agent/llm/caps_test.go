package llm

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// mergeLimited merges an SSE body with the given bounds.
func mergeLimited(t *testing.T, body string, maxArgs, maxCalls int) (Reply, []Event) {
	t.Helper()
	var events []Event
	m := &merger{emit: func(e Event) { events = append(events, e) }, maxArgs: maxArgs, maxCalls: maxCalls}
	r := newSSEReader(strings.NewReader(body))
	for {
		ev, err := r.Next()
		if err != nil {
			break
		}
		if err := m.chunk(ev.Data); err != nil {
			t.Fatal(err)
		}
		if m.done {
			break
		}
	}
	m.finishText()
	return m.reply(), events
}

// TestArgumentsOverTheLimitAreNotKept: a call whose arguments pass the
// limit keeps none of them (its card is told they are gone), reports how
// much came, and its neighbours are untouched; arguments sent whole as an
// object within the limit replace an oversized stream.
func TestArgumentsOverTheLimitAreNotKept(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 4000)
	body := agenttest.Tools("",
		agenttest.Call{ID: "a", Name: "read_file", Arguments: `{"path":"a.txt"}`},
		agenttest.Call{ID: "b", Name: "write_file", Arguments: `{"path":"b.txt","content":"` + big + `"}`},
		agenttest.Call{ID: "c", Name: "read_file", Arguments: `{"path":"c.txt"}`},
	).Body
	r, events := mergeLimited(t, body, 1000, 0)
	if len(r.ToolCalls) != 3 {
		t.Fatalf("calls %+v", r.ToolCalls)
	}
	if c := r.ToolCalls[1]; c.Arguments != "{}" || c.Oversize != len(big)+len(`{"path":"b.txt","content":""}`) || c.ID != "b" {
		t.Errorf("oversized call %+v", c)
	}
	if r.ToolCalls[0].Arguments != `{"path":"a.txt"}` || r.ToolCalls[2].Arguments != `{"path":"c.txt"}` || r.ToolCalls[0].Oversize != 0 {
		t.Errorf("neighbours %+v", r.ToolCalls)
	}
	for _, e := range events {
		if d, ok := e.(ToolCallDelta); ok && d.ID == "b" && len(d.ArgsSoFar) > 1000 {
			t.Fatalf("a delta carried %d bytes of the oversized arguments", len(d.ArgsSoFar))
		}
	}
	if r.ArgsLimit != 1000 {
		t.Errorf("ArgsLimit %d", r.ArgsLimit)
	}

	// Fragments past the limit, then the whole value as an object: the
	// object is what the server means.
	stream := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"o","type":"function","function":{"name":"grep","arguments":"` + big + `"}}]}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":{"pattern":"x"}}}]}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	r, _ = mergeLimited(t, stream, 1000, 0)
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Arguments != `{"pattern":"x"}` || r.ToolCalls[0].Oversize != 0 {
		t.Errorf("object after oversized fragments: %+v", r.ToolCalls)
	}
}

// TestCallsPastTheLimitAreDropped: past the limit on calls, new calls are
// counted and dropped, and their later fragments (by index, by id, or as
// plain continuations) never leak into a kept call.
func TestCallsPastTheLimitAreDropped(t *testing.T) {
	t.Parallel()
	var calls []agenttest.Call
	for i := 0; i < 10; i++ {
		calls = append(calls, agenttest.Call{ID: fmt.Sprintf("c%d", i), Name: "read_file", Arguments: fmt.Sprintf(`{"path":"f%d.txt"}`, i)})
	}
	r, _ := mergeLimited(t, agenttest.Tools("", calls...).Body, 0, 3)
	if len(r.ToolCalls) != 3 || r.DroppedCalls != 7 {
		t.Fatalf("kept %d, dropped %d", len(r.ToolCalls), r.DroppedCalls)
	}
	for i, c := range r.ToolCalls {
		if want := fmt.Sprintf(`{"path":"f%d.txt"}`, i); c.Arguments != want {
			t.Errorf("call %d arguments %q, want %q", i, c.Arguments, want)
		}
	}
	// Index 0 reused for every call (told apart by id), continuations with
	// neither: the third call's pieces must not reach the second.
	stream := ""
	for i, id := range []string{"x", "y", "z"} {
		stream += fmt.Sprintf(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":%q,"type":"function","function":{"name":"grep","arguments":"{\"pattern\":"}}]}}]}`+"\n\n", id)
		stream += fmt.Sprintf(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"p%d\"}"}}]}}]}`+"\n\n", i)
	}
	stream += `data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	r, _ = mergeLimited(t, stream, 0, 2)
	if len(r.ToolCalls) != 2 || r.DroppedCalls != 1 || r.ToolCalls[1].Arguments != `{"pattern":"p1"}` {
		t.Errorf("reused index: %+v, dropped %d", r.ToolCalls, r.DroppedCalls)
	}
}

// TestHugeEventStopsTheStream: one event larger than the reader's bound
// stops the stream with an error that says so, without holding it.
func TestHugeEventStopsTheStream(t *testing.T) {
	t.Parallel()
	body := "data: " + strings.Repeat("z", 5000) + "\n\n"
	r := newSSEReaderMax(bytes.NewReader([]byte(body)), 1000)
	if _, err := r.Next(); !errors.Is(err, errEventTooLarge) {
		t.Errorf("err %v, want errEventTooLarge", err)
	}
	multi := strings.Repeat("data: "+strings.Repeat("z", 300)+"\n", 10) + "\n"
	r = newSSEReaderMax(bytes.NewReader([]byte(multi)), 1000)
	if _, err := r.Next(); !errors.Is(err, errEventTooLarge) {
		t.Errorf("multi-line event: err %v, want errEventTooLarge", err)
	}
}
