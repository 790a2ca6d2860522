package ui

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"pincer/agent"
)

// history is n messages of a realistic session: prompts, markdown answers
// with code, tool calls and their results.
func history(n int) []agent.Message {
	var out []agent.Message
	for i := 0; len(out) < n; i++ {
		out = append(out,
			agent.Message{Role: agent.RoleUser, Content: fmt.Sprintf("Please look at handler %d and fix the bug in it.", i)},
			agent.Message{Role: agent.RoleAssistant, Content: "Let me read it.", ToolCalls: []agent.ToolCall{{ID: fmt.Sprintf("c%d", i), Name: "read_file", Arguments: fmt.Sprintf(`{"path":"handlers/h%d.go"}`, i)}}},
			agent.Message{Role: agent.RoleTool, ToolCallID: fmt.Sprintf("c%d", i), ToolName: "read_file", Content: strings.Repeat("     1\tfunc handle() error {\n", 20)},
			agent.Message{Role: agent.RoleAssistant, Content: fmt.Sprintf("## Fix %d\n\nThe handler returned **nil** on error. Changed:\n\n```go\nif err != nil {\n\treturn fmt.Errorf(\"handle %d: %%w\", err)\n}\n```\n\n- tests pass\n- vet is clean\n", i, i)},
		)
	}
	return out[:n]
}

// benchApp is the screen at 160×45 with a resumed session of n messages,
// scrolled to the bottom and drawn once.
func benchApp(b *testing.B, n int) *App {
	b.Helper()
	t := &testing.T{}
	a := newTestApp(t, 160, 45)
	a.loadHistory(history(n))
	a.render()
	return a
}

// BenchmarkStreamDelta is one batch of streamed text plus a frame, with 10
// and with 2,000 earlier messages: the cost must not grow with the session.
func BenchmarkStreamDelta(b *testing.B) {
	for _, n := range []int{10, 2000} {
		b.Run(fmt.Sprintf("prior=%d", n), func(b *testing.B) {
			a := benchApp(b, n)
			a.Update(eventsMsg{agent.TextDelta{Text: "Starting the answer. "}})
			words := strings.Fields("the handler now wraps its error with context and the caller checks it; tests cover both paths")
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				a.Update(eventsMsg{agent.TextDelta{Text: words[i%len(words)] + " "}})
				if i%40 == 39 {
					a.Update(eventsMsg{agent.TextDelta{Text: "\n\n"}})
				}
				_ = a.render()
				i++
			}
		})
	}
}

// BenchmarkIdleView is a frame when nothing changed.
func BenchmarkIdleView(b *testing.B) {
	a := benchApp(b, 200)
	b.ReportAllocs()
	for b.Loop() {
		_ = a.View()
	}
}

// BenchmarkKeystroke is typing one character into the input and drawing.
func BenchmarkKeystroke(b *testing.B) {
	a := benchApp(b, 2000)
	b.ReportAllocs()
	for b.Loop() {
		a.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
		_ = a.render()
	}
}

// BenchmarkSession5000 loads a 5,000-message session and draws the
// screen; it reports the heap the loaded screen keeps.
func BenchmarkSession5000(b *testing.B) {
	msgs := history(5000)
	var kept uint64
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		a := newTestApp(&testing.T{}, 160, 45)
		a.loadHistory(msgs)
		_ = a.render()
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept = after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc)
		runtime.KeepAlive(a)
	}
	b.ReportMetric(float64(kept)/(1<<20), "MB-kept")
}

// BenchmarkInputKeystroke is what marking the input's line starts costs
// after a keystroke in an input of eight long lines: the line with the
// cursor is measured by the input, the others come from the cache.
func BenchmarkInputKeystroke(b *testing.B) {
	a := newTestApp(&testing.T{}, 100, 40)
	a.setInput(strings.TrimSuffix(strings.Repeat(strings.Repeat("word ", 40)+"\n", 8), "\n"), -1)
	a.inputPrompt(textarea.PromptInfo{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.inputRows.valid = false // as after a keystroke
		a.inputPrompt(textarea.PromptInfo{})
	}
}

// BenchmarkInputMeasureAll is the cost without the cache: every long line
// measured by a probe (after a paste or a history recall).
func BenchmarkInputMeasureAll(b *testing.B) {
	text := strings.Repeat(strings.Repeat("word ", 40)+"\n", 8)
	for i := 0; i < b.N; i++ {
		lineStarts(text, 98)
	}
}
