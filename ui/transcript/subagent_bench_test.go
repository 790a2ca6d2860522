package transcript

import (
	"fmt"
	"testing"
)

// BenchmarkTaskStep measures one step of a running sub-agent (its call,
// start and result) and the frame after it, on a card that already holds
// few or many steps: the live card draws only its latest steps, so the
// two should cost the same.
func BenchmarkTaskStep(b *testing.B) {
	for _, prior := range []int{5, 500} {
		b.Run(fmt.Sprintf("steps=%d", prior), func(b *testing.B) {
			m := newTestModel(160, 45)
			m.ToolCall("t", "task", `{"description":"survey","prompt":"p"}`)
			m.ToolStarted("t", "task survey")
			for i := 0; i < prior; i++ {
				key := fmt.Sprint("k", i)
				m.SubCall("t", key, "read_file", `{"path":"a.go"}`)
				m.SubStarted("t", key, "read_file a.go")
				m.SubResult("t", key, false)
			}
			m.View()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				key := fmt.Sprint("n", i)
				m.SubCall("t", key, "grep", `{"pattern":"func"}`)
				m.SubStarted("t", key, "grep func in .")
				m.SubResult("t", key, false)
				m.View()
			}
		})
	}
}
