package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/agent/llm"
	"pincer/safety"
	"pincer/tools"
)

// hugeArgsBody is one answer with a write_file call whose arguments are
// about total bytes, streamed in fragments of 64 KiB as a server would.
func hugeArgsBody(total int) string {
	var b strings.Builder
	b.WriteString(`data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"big","type":"function","function":{"name":"write_file","arguments":""}}]}}]}` + "\n\n")
	head, _ := json.Marshal(`{"path":"big.txt","content":"`)
	fmt.Fprintf(&b, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":%s}}]}}]}`+"\n\n", head)
	piece, _ := json.Marshal(strings.Repeat("x", 64<<10))
	for n := 0; n < total; n += 64 << 10 {
		fmt.Fprintf(&b, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":%s}}]}}]}`+"\n\n", piece)
	}
	tail, _ := json.Marshal(`"}`)
	fmt.Fprintf(&b, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":%s}}]}}]}`+"\n\n", tail)
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")
	return b.String()
}

// manyCalls is one answer with n read_file calls.
func manyCalls(n int) agenttest.Reply {
	calls := make([]agenttest.Call, n)
	for i := range calls {
		calls[i] = agenttest.Call{ID: fmt.Sprintf("c%d", i), Name: "read_file", Arguments: `{"path":"a.txt"}`}
	}
	return agenttest.Tools("", calls...)
}

// benchAgent is an agent on a scripted server with the real tools, for
// benchmarks; every approval is refused.
func benchAgent(b *testing.B, replies ...agenttest.Reply) (*Agent, *agenttest.Server) {
	b.Helper()
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	srv := agenttest.New(replies...)
	b.Cleanup(srv.Close)
	reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: root, CommandTimeout: 10 * time.Second})...)
	if err != nil {
		b.Fatal(err)
	}
	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		b.Fatal(err)
	}
	c, err := llm.NewClient(llm.ClientOptions{BaseURL: srv.BaseURL(), Model: "test-model", Backoff: func(int) time.Duration { return time.Millisecond }})
	if err != nil {
		b.Fatal(err)
	}
	a, err := New(Options{
		Model: c, Tools: reg, Safety: cls, System: "You are a test.", Root: root, Home: b.TempDir(), MaxIterations: 5,
		Approver: ApproverFunc(func(context.Context, Approval) (Decision, error) { return Decision{}, nil }),
	})
	if err != nil {
		b.Fatal(err)
	}
	return a, srv
}

// peakHeap samples the heap in use while f runs and returns the most seen.
func peakHeap(f func()) uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	return peak.Load()
}

// BenchmarkHugeToolArgs is a model that sends a 50 MB argument to one
// call (measured before the cap: 1 GB and a stall in the whole program):
// the turn's time, what it allocates and the most heap it holds.
func BenchmarkHugeToolArgs(b *testing.B) {
	body := hugeArgsBody(50 << 20)
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		b.StopTimer()
		a, _ := benchAgent(b, agenttest.Reply{Body: body}, agenttest.Text("done", 5))
		runtime.GC()
		b.StartTimer()
		peak = max(peak, peakHeap(func() {
			if _, err := a.Run(context.Background(), "write it", func(Event) {}); err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

// BenchmarkManyToolCalls is a model that asks for 10,000 tool calls in
// one answer (measured before the cap: 101 s).
func BenchmarkManyToolCalls(b *testing.B) {
	reply := manyCalls(10000)
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		b.StopTimer()
		a, _ := benchAgent(b, reply, agenttest.Text("done", 5))
		runtime.GC()
		b.StartTimer()
		peak = max(peak, peakHeap(func() {
			if _, err := a.Run(context.Background(), "read it all", func(Event) {}); err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}
