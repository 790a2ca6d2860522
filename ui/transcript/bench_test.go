package transcript

import (
	"fmt"
	"pincer/ui/transcript/transcripttest"
	"runtime"
	"strings"
	"testing"
	"time"

	"pincer/themes"
)

// streamFrames cuts an answer into the pieces one frame receives when the
// root model coalesces deltas at about 30 frames a second: 4,400 chunks
// over 8.8 s is about 17 chunks, some 135 bytes, per frame.
func streamFrames(answer string, perFrame int) []string {
	var out []string
	for i := 0; i < len(answer); i += perFrame {
		out = append(out, answer[i:min(i+perFrame, len(answer))])
	}
	return out
}

// BenchmarkStreamDelta measures one coalesced delta and the frame after it
// with a short and a long session above. The two should cost the same.
func BenchmarkStreamDelta(b *testing.B) {
	frames := streamFrames(longAnswer(35_000), 135)
	for _, prior := range []int{10, 2000} {
		b.Run(fmt.Sprintf("prior=%d", prior), func(b *testing.B) {
			m := newTestModel(160, 45)
			liveSession(&m, prior)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := i % len(frames)
				if k == 0 && i > 0 {
					b.StopTimer()
					m.FinishAssistant(false)
					m.View()
					b.StartTimer()
				}
				m.AppendText(frames[k])
				m.View()
			}
		})
	}
}

// BenchmarkStreamAnswer streams a whole 35 KB answer in frames and reports
// the rendering time per second of streaming (8.8 s for this answer).
func BenchmarkStreamAnswer(b *testing.B) {
	frames := streamFrames(longAnswer(35_000), 135)
	const streamSeconds = 8.8
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m := newTestModel(160, 45)
		liveSession(&m, 10)
		b.StartTimer()
		for _, f := range frames {
			m.AppendText(f)
			m.View()
		}
		m.FinishAssistant(false)
		m.View()
	}
	b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N)/streamSeconds, "core-s/s")
}

// BenchmarkViewIdle measures a frame when nothing changed.
func BenchmarkViewIdle(b *testing.B) {
	m := newTestModel(160, 45)
	liveSession(&m, 200)
	m.View()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.View()
	}
}

// BenchmarkScrollPage measures a page up and the frame after it, deep in a
// long session, everything rendered before.
func BenchmarkScrollPage(b *testing.B) {
	m := newTestModel(160, 45)
	liveSession(&m, 2000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%40 == 0 {
			m.s.toBottom()
		}
		m.s.scrollUp(44)
		m.View()
	}
}

// BenchmarkLoadSession loads a 5,000-message session and draws its last
// screen, and reports the heap it keeps.
func BenchmarkLoadSession(b *testing.B) {
	entries := sessionEntries(5000)
	b.ReportAllocs()
	var heap uint64
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m := newTestModel(160, 45)
		m.Load(entries...)
		m.View()
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(m)
	}
	b.ReportMetric(float64(heap), "heap-B")
}

// BenchmarkRenderedSession reports the heap a 5,000-message session keeps
// once every entry has been rendered (scrolled through from top to bottom).
func BenchmarkRenderedSession(b *testing.B) {
	entries := sessionEntries(5000)
	var heap uint64
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m := newTestModel(160, 45)
		m.Load(entries...)
		for k := range m.s.items {
			m.s.itemLines(m.s.items[k])
		}
		m.View()
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(m)
	}
	b.ReportMetric(float64(heap), "heap-B")
}

// BenchmarkStreamCodeBlock streams an answer that is mostly one 8 KB code
// block: while its fence is open the block is the tail, the worst case for
// re-rendering. It reports the mean cost of a frame, the final render of
// the closed block included.
func BenchmarkStreamCodeBlock(b *testing.B) {
	var code strings.Builder
	code.WriteString("Here is the file:\n\n```go\n")
	for i := 0; code.Len() < 8000; i++ {
		fmt.Fprintf(&code, "func handler%d(w http.ResponseWriter, r *http.Request) { // route %d\n\tfmt.Fprintf(w, \"%%d\", %d)\n}\n", i, i, i)
	}
	code.WriteString("```\n\nDone.\n")
	frames := streamFrames(code.String(), 135)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m := newTestModel(160, 45)
		liveSession(&m, 10)
		b.StartTimer()
		for _, f := range frames {
			m.AppendText(f)
			m.View()
		}
		m.FinishAssistant(false)
		m.View()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(frames)), "ns/frame")
}

// BenchmarkResize is a width change with a 35 KB answer (prose and code)
// at the bottom of the pane, and the frame after it: what each step of
// dragging a window's edge costs. Code's tokens are kept, as on the
// screen (themes.CacheHighlighting).
func BenchmarkResize(b *testing.B) {
	themes.CacheHighlighting()
	for _, how := range []string{"streamed", "loaded"} {
		b.Run(how, func(b *testing.B) {
			m := newTestModel(160, 45)
			liveSession(&m, 10)
			answer := longAnswer(35_000)
			if how == "loaded" {
				m.Load(Entry{Kind: KindAssistant, Text: answer})
			} else {
				for _, f := range streamFrames(answer, 135) {
					m.AppendText(f)
				}
				m.FinishAssistant(false)
			}
			m.View()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.SetSize(150+10*(i%2), 45)
				m.View()
			}
		})
	}
}

// BenchmarkStreamRenders streams a 35 KB answer into the transcript as
// the screen does at 160×45 beside the tree (124 columns of text, a frame
// every 1/15 s on a clock of the benchmark's own), and reports what does
// not depend on the machine: the markdown rendered per byte of answer
// (md-bytes/answer-byte: 1 is every byte once; the growing end rendered
// every frame pushes it up), glamour calls per KB, and the allocations
// per KB of answer. Pieces of 530 bytes a frame are a fast model (8 KB/s),
// 96 a slow one (1.4 KB/s); stepped is the view beside the tree on a
// terminal without left and right margins (tmux), following the others;
// repeated is an answer that repeats its steps, varied one whose blocks
// all differ.
func BenchmarkStreamRenders(b *testing.B) {
	varied := transcripttest.VariedAnswer(35_000)
	repeated := strings.Repeat(strings.SplitAfter(varied, "## ")[1], 200)
	repeated = "## " + repeated[:35_000]
	for _, c := range []struct {
		name    string
		answer  string
		piece   int
		stepped bool
	}{
		{"fast/stepped/repeated", repeated, 530, true},
		{"fast/stepped/varied", varied, 530, true},
		{"fast/following/varied", varied, 530, false},
		{"slow/stepped/varied", varied, 96, true},
		{"slow/following/varied", varied, 96, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			themes.RegisterCodeStyles() // as the screen does
			themes.CacheHighlighting()
			var rendered, calls int
			var ms0, ms1 runtime.MemStats
			var mallocs, bytes uint64
			for b.Loop() {
				b.StopTimer()
				now := time.Unix(1000, 0)
				m := newTestModel(127, 42)
				m.s.now = func() time.Time { return now }
				m.SetSteppedScroll(c.stepped)
				counts := countRenders(&m)
				m.AddUser("question")
				m.View()
				runtime.ReadMemStats(&ms0)
				b.StartTimer()
				for _, f := range streamFrames(c.answer, c.piece) {
					now = now.Add(time.Second / 15)
					m.AppendText(f)
					m.View()
				}
				m.FinishAssistant(false)
				m.View()
				b.StopTimer()
				runtime.ReadMemStats(&ms1)
				mallocs += ms1.Mallocs - ms0.Mallocs
				bytes += ms1.TotalAlloc - ms0.TotalAlloc
				rendered += counts.bytes
				calls += counts.calls
				b.StartTimer()
			}
			kb := float64(b.N) * float64(len(c.answer)) / 1000
			b.ReportMetric(float64(rendered)/kb/1000, "md-bytes/answer-byte")
			b.ReportMetric(float64(calls)/kb, "renders/KB")
			b.ReportMetric(float64(mallocs)/kb, "allocs/KB")
			b.ReportMetric(float64(bytes)/kb, "B/KB")
		})
	}
}
