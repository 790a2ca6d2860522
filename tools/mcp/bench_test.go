package mcp

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// peakHeap runs f and returns the most heap its objects took while it
// ran, sampled every few milliseconds.
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	return peak
}

// BenchmarkOversizedAnswer is issue 30's item 4 as found: a tool
// answers with 200 MB, as one JSON body or as one event of a stream. It
// reports the peak heap of the call (peak-MiB); the cap holds it near
// the 16 MiB limit instead of several times the answer.
func BenchmarkOversizedAnswer(b *testing.B) {
	for _, mode := range []string{"big", "bigevent"} {
		b.Run(mode, func(b *testing.B) {
			raw, url := rawHTTP(b, mode)
			raw.bigResult = 200 << 20
			var worst uint64
			for b.Loop() {
				m := started(b, Options{Servers: []Server{{Name: "huge", URL: url}}})
				tl := tool(b, m, "mcp__huge__ping")
				worst = max(worst, peakHeap(func() { _, _ = run(b, context.Background(), tl, `{}`) }))
				m.Close()
			}
			b.ReportMetric(float64(worst)/(1<<20), "peak-MiB")
		})
	}
}

// BenchmarkEndlessPaging is item 8 as found: a server whose tools/list
// pages never end (20 tools with 2 KB descriptions a page). It reports
// the peak heap until the server is ready or given up on.
func BenchmarkEndlessPaging(b *testing.B) {
	_, url := rawHTTP(b, "pages")
	var worst uint64
	for b.Loop() {
		worst = max(worst, peakHeap(func() {
			m := New(Options{Servers: []Server{{Name: "pager", URL: url}}, StartTimeout: 10 * time.Second, Getenv: func(string) string { return "" }})
			m.Start()
			_ = m.Wait(context.Background())
			b.Logf("%s: %s, %d tools", m.Servers()[0].Status, m.Servers()[0].Reason, len(m.Servers()[0].Tools))
			m.Close()
		}))
	}
	b.ReportMetric(float64(worst)/(1<<20), "peak-MiB")
}
