package transcript

import (
	"strings"
	"testing"
)

// TestFinishedBlocksRenderOnce: a finished block is rendered once per
// width, however often it is drawn: repeated in an answer, in another
// answer, or again at a width the pane had before. The lines are those of
// a render of the whole answer.
func TestFinishedBlocksRenderOnce(t *testing.T) {
	step := "## Step\n\nThe parser reads the whole file first, then walks each declaration.\n\n" +
		"- keep the **cache** small\n- drop entries\n\n```go\nfunc evict() {}\n```\n\n"
	answer := strings.Repeat(step, 6)
	for _, c := range []struct {
		name  string
		steps func(m *Model)
		// wantMax is how many renders of each block's source may happen.
		wantMax int
	}{
		{"streamed", func(m *Model) {
			for i := 0; i < len(answer); i += 40 {
				m.AppendText(answer[i:min(i+40, len(answer))])
				m.View()
			}
			m.FinishAssistant(false)
			m.View()
		}, 1},
		{"two answers", func(m *Model) {
			m.AppendText(answer)
			m.FinishAssistant(false)
			m.View()
			m.AddUser("again")
			m.AppendText(answer)
			m.FinishAssistant(false)
			m.View()
		}, 1},
		{"width and back", func(m *Model) {
			m.AppendText(answer)
			m.FinishAssistant(false)
			m.View()
			m.SetSize(70, 200)
			m.View()
			m.SetSize(100, 200)
			m.View()
		}, 2}, // once at each width
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newTestModel(100, 200)
			counts := countRenders(&m)
			m.AddUser("question")
			c.steps(&m)
			for src, n := range counts.bySrc {
				if n > c.wantMax && strings.HasSuffix(src, "\n\n") {
					t.Errorf("block %q rendered %d times, want at most %d", src, n, c.wantMax)
				}
			}
			whole := trimBlank(newGlamourRenderer(m.s.theme).Render(answer, m.s.contentWidth()))
			lines := m.s.items[len(m.s.items)-1].lines
			if diff := firstDiff(lines, whole); diff != "" {
				t.Errorf("the answer's lines differ from a render of the whole: %s", diff)
			}
		})
	}
}
