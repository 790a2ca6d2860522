package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// sseText is an SSE body of n text chunks of about size bytes each, the
// shape of a long streamed answer.
func sseText(n, size int) []byte {
	var b bytes.Buffer
	piece := strings.Repeat("word ", size/5)
	for i := 0; i < n; i++ {
		c, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion.chunk", "choices": []any{
			map[string]any{"index": 0, "delta": map[string]any{"content": piece}, "finish_reason": nil}}})
		fmt.Fprintf(&b, "data: %s\n\n", c)
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n")
	return b.Bytes()
}

// sseToolArgs is an SSE body of one tool call whose arguments arrive in n
// fragments.
func sseToolArgs(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"write_file","arguments":""}}]}}]}` + "\n\n")
	for i := 0; i < n; i++ {
		b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"line \\\"quoted\\\" text\\n"}}]}}]}` + "\n\n")
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")
	return b.Bytes()
}

// BenchmarkNormalise measures the stream normaliser alone: SSE parsing,
// chunk decoding and merging, with live events, in MB/s of SSE.
func BenchmarkNormalise(b *testing.B) {
	for _, tc := range []struct {
		name string
		body []byte
	}{
		{"text_4400x8B", sseText(4400, 8)},
		{"text_1000x200B", sseText(1000, 200)},
		{"tool_args_4000", sseToolArgs(4000)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := mergeAll(tc.body, func(Event) {}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkComplete is a whole request through the real client: HTTP over
// loopback, the repairing transport and langchaingo, in MB/s of SSE.
func BenchmarkComplete(b *testing.B) {
	body := sseText(4400, 8)
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Reply{Body: string(body)})
	c := newTestClient(b, srv.BaseURL(), "")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Complete(context.Background(), userOnly("hi"), func(Event) {}); err != nil {
			b.Fatal(err)
		}
	}
}
