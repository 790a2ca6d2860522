package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"pincer/themes"
)

// TestGolden compares whole panes, without colours, with the files in
// testdata/TestGolden (go test -update writes them). Each line is padded to
// the pane's width and closed with "|", so a file shows the pane's exact
// shape. Key properties are asserted separately in the other tests; the
// files catch layout changes.
func TestGolden(t *testing.T) {
	scenes := []struct {
		name string
		w, h int
		play func(m *Model)
	}{
		{"conversation_80x24", 80, 24, conversation},
		{"conversation_60x15", 60, 15, conversation},
		{"top_80x24", 80, 24, func(m *Model) {
			conversation(m)
			*m = press(*m, "home")
		}},
		{"new_output_60x15", 60, 15, func(m *Model) {
			conversation(m)
			*m = press(*m, "pgup")
			m.AppendText("Writing the test now.")
		}},
		{"expanded_card_80x24", 80, 24, func(m *Model) {
			conversation(m)
			for i := 0; i < 20; i++ {
				if text, _ := m.FocusedText(); strings.HasPrefix(text, "--- FAIL") {
					break
				}
				*m = press(*m, "ctrl+up")
			}
			*m = press(*m, "enter")
		}},
		{"streaming_60x15", 60, 15, func(m *Model) {
			m.AddUser("Show me how to read a file in Go.")
			m.AppendReasoning("A short example will do.\nUse os.ReadFile.\n")
			m.AppendText("Use `os.ReadFile`:\n\n```go\ndata, err := os.ReadFile(\"notes.txt\")\nif err != nil {\n")
			m.ToolCallDelta(0, "c1", "write_file", `{"path": "examples/read`)
		}},
	}
	for _, sc := range scenes {
		t.Run(sc.name, func(t *testing.T) {
			m := New(themes.Dark())
			m.SetSize(sc.w, sc.h)
			sc.play(&m)
			checkFrame(t, m, sc.w, sc.h)
			golden.RequireEqual(t, framed(m.View(), sc.w))
		})
	}
}

// framed strips colours and pads each line to width, closing it with "|".
func framed(view string, width int) string {
	var b strings.Builder
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		b.WriteString(l)
		b.WriteString(strings.Repeat(" ", max(width-ansi.StringWidth(l), 0)))
		b.WriteString("|\n")
	}
	return b.String()
}

// TestViewIsColoured checks what the golden files cannot: that the pane
// draws in the theme's colours.
func TestViewIsColoured(t *testing.T) {
	m := newTestModel(80, 40)
	conversation(&m)
	m = press(m, "ctrl+up")
	v := m.View()
	p := themes.Dark().Palette
	for name, c := range map[string]interface{ RGBA() (r, g, b, a uint32) }{
		"text": p.Foreground, "user": p.User, "assistant marker": p.Assistant, "reasoning": p.Reasoning,
		"tool border": p.ToolBorder, "success": p.Success, "error": p.Error, "warning": p.Warning,
		"inline code": p.Code, "muted": p.Muted, "focus": p.Accent,
	} {
		if !strings.Contains(v, sgrFg(c)) {
			t.Errorf("the %s colour is not drawn", name)
		}
	}
}

// TestLinksStayLinks checks that links keep their hyperlink sequences whole:
// clickable in terminals that support them, invisible in the others.
func TestLinksStayLinks(t *testing.T) {
	m := newTestModel(60, 10)
	m.AppendText("See [the docs](https://example.com/x) and https://go.dev now.")
	m.FinishAssistant(false)
	v := m.View()
	if !strings.Contains(v, "\x1b]8;id=") || !strings.Contains(v, "https://example.com/x\a") || !strings.Contains(v, "\x1b]8;;\a") {
		t.Errorf("hyperlink sequences missing: %q", v)
	}
	text := ansi.Strip(v)
	if strings.Contains(text, "]8;") {
		t.Errorf("a hyperlink sequence leaks into the text: %q", text)
	}
	if !strings.Contains(text, "See the docs https://example.com/x and") {
		t.Errorf("link text garbled: %q", text)
	}
}
