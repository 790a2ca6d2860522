package setup

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// bigList is a model list the size of OpenRouter's.
func bigList(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("vendor-%d/model-%d-instruct", i%40, i)
	}
	return out
}

// listScreen is the model list at 80×24 with n models.
func listScreen(b *testing.B, n int) Model {
	m := New(Options{Presets: testPresets(), ListModels: (&lister{replies: []reply{{models: bigList(n)}}}).list, Getenv: env{}.get})
	d := &driver{t: b, m: m}
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	d.down(atOllama)
	d.press("enter")
	if d.m.step != stepModel {
		b.Fatalf("step %v, want the model list", d.m.step)
	}
	return d.m
}

// BenchmarkFilterKeystroke is one key typed into the filter of a long
// model list, and the redraw after it.
func BenchmarkFilterKeystroke(b *testing.B) {
	m := listScreen(b, 1000)
	keys := []tea.KeyPressMsg{keyMsg("7"), keyMsg("backspace")}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		next, _ := m.Update(keys[i%2])
		m = next.(Model)
		_ = m.View()
	}
}

// BenchmarkView is one redraw of a long model list.
func BenchmarkView(b *testing.B) {
	m := listScreen(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}
