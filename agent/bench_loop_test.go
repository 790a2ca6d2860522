package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pincer/agent/llm"
	"pincer/safety"
	"pincer/tools"
)

// scriptedModel answers from memory, instantly: the loop's own cost is what
// a benchmark with it measures.
type scriptedModel struct {
	calls int // tool-calling replies before the final text
	n     int
}

func (m *scriptedModel) Complete(_ context.Context, _ llm.Request, sink func(Event)) (llm.Reply, error) {
	m.n++
	if m.n <= m.calls {
		sink(ToolCallDelta{Index: 0, ID: "c", Name: "noop", ArgsSoFar: `{"x":1}`})
		return llm.Reply{ToolCalls: []ToolCall{{ID: fmt.Sprintf("c%d", m.n), Name: "noop", Arguments: `{"x":1}`}}, FinishReason: "tool_calls"}, nil
	}
	sink(TextDelta{Text: "done"})
	return llm.Reply{Content: "done", FinishReason: "stop"}, nil
}

type noopArgs struct {
	X int `json:"x"`
}

type noopCall struct{}

func (noopCall) Summary() string                           { return "noop" }
func (noopCall) Access() tools.Access                      { return tools.Access{} }
func (noopCall) Run(context.Context) (tools.Result, error) { return tools.Result{Content: "ok"}, nil }

// BenchmarkLoopIteration measures what the loop adds per model request
// beyond the server's time: building the request (system prompt, history
// repair, tool schemas), decoding and judging the call, running a no-op
// tool, and recording the messages. ns/op is per iteration.
func BenchmarkLoopIteration(b *testing.B) {
	noop, err := tools.New(tools.Spec[noopArgs]{Name: "noop", Description: "does nothing", Bind: func(noopArgs) tools.Call { return noopCall{} }})
	if err != nil {
		b.Fatal(err)
	}
	all := append(tools.Builtins(tools.Options{Root: b.TempDir()}), noop)
	reg, err := tools.NewRegistry(all...)
	if err != nil {
		b.Fatal(err)
	}
	cls, _ := safety.NewClassifier(safety.Rules{})
	const perRun = 30
	b.ReportAllocs()
	for b.Loop() {
		a, err := New(Options{Model: &scriptedModel{calls: perRun - 1}, Tools: reg, Safety: cls, System: strings.Repeat("system prompt ", 300), MaxIterations: perRun})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := a.Run(context.Background(), "go", func(Event) {}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*perRun), "ns/iteration")
}
