package diffview

import (
	"fmt"
	"testing"
)

// BenchmarkScroll measures one key press and the view after it, scrolling
// through a 2,000-line file with 200 hunks; one op is one key and one View.
// Once a row has been drawn it is reused, so a key costs about the rows
// that come into view.
func BenchmarkScroll(b *testing.B) {
	before, after := longGoFile(2000)
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		for _, key := range []string{"down", "pgdown", "j"} {
			b.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], key), func(b *testing.B) {
				m := highlighted(newModel("long.go", before, after, size[0], size[1]))
				m.View()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					next := press(m, key)
					if next.top == m.top && next.current == m.current {
						next = press(m, "home") // at the end: start over
					}
					m = next
					m.View()
				}
			})
		}
	}
}

// BenchmarkToggle measures accepting or rejecting a hunk and the view
// after it: the hunk's rows are drawn in their new state once, then reused.
func BenchmarkToggle(b *testing.B) {
	before, after := longGoFile(2000)
	m := highlighted(newModel("long.go", before, after, 120, 40))
	m.View()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m = press(m, "space")
		m.View()
	}
}

// BenchmarkOpen measures what opening the dialog costs on the event loop:
// the diff, the rows and the first view; a change this large is lexed off
// the loop (BenchmarkHighlightCmd).
func BenchmarkOpen(b *testing.B) {
	before, after := longGoFile(2000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m := newModel("long.go", before, after, 120, 40)
		m.View()
	}
}

// BenchmarkHighlightCmd measures the command that lexes a large change off
// the event loop.
func BenchmarkHighlightCmd(b *testing.B) {
	before, after := longGoFile(2000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m := newModel("long.go", before, after, 120, 40)
		m.Init()()
	}
}

// highlighted runs the command from Init, as the dialog does.
func highlighted(m Model) Model {
	if cmd := m.Init(); cmd != nil {
		m, _ = m.Update(cmd())
	}
	return m
}
