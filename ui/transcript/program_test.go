package transcript

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"pincer/themes"
)

// host is a minimal root model: it sizes the pane from window messages,
// applies feed messages (standing in for agent events) and forwards the
// rest, as pincer's root model does.
type host struct{ tr Model }

// feed is a change to the transcript, sent into the program.
type feed func(m *Model)

func (h host) Init() tea.Cmd { return nil }

func (h host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.tr.SetSize(msg.Width, msg.Height)
		return h, nil
	case feed:
		msg(&h.tr)
		return h, nil
	}
	var cmd tea.Cmd
	h.tr, cmd = h.tr.Update(msg)
	return h, cmd
}

func (h host) View() tea.View { return tea.NewView(h.tr.View()) }

func TestInAProgram(t *testing.T) {
	tm := teatest.NewTestModel(t, host{tr: New(themes.Dark())}, teatest.WithInitialTermSize(70, 12))
	onScreen := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			return strings.Contains(ansi.Strip(string(b)), s)
		}, teatest.WithDuration(5*time.Second))
	}

	tm.Send(feed(func(m *Model) { m.AddUser("Why does it panic?") }))
	for _, d := range []string{"Let me ", "look at the ", "parser.\n\nFirst paragraph done.\n"} {
		tm.Send(feed(func(m *Model) { m.AppendText(d) }))
	}
	onScreen("First paragraph done.")
	tm.Send(feed(func(m *Model) { m.ToolCallDelta(0, "c1", "read_file", `{"path": "wire/hea`) }))
	onScreen("read_file  wire/hea")
	tm.Send(feed(func(m *Model) {
		m.FinishAssistant(false)
		for i := 0; i < 20; i++ {
			m.AddNotice("line of output")
		}
	}))
	tm.Send(tea.MouseWheelMsg{X: 3, Y: 3, Button: tea.MouseWheelUp})
	tm.Send(feed(func(m *Model) { m.AddNotice("arrived while scrolled") }))
	onScreen("↓ new output")
	tm.Send(tea.WindowSizeMsg{Width: 50, Height: 10})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnd})

	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(host)
	if !final.tr.AtBottom() || final.tr.NewBelow() {
		t.Errorf("after End: AtBottom %v, NewBelow %v", final.tr.AtBottom(), final.tr.NewBelow())
	}
	checkFrame(t, final.tr, 50, 10)
	if indexOf(viewLines(final.tr), "arrived while scrolled") < 0 {
		t.Errorf("the last notice is not in view:\n%s", strings.Join(viewLines(final.tr), "\n"))
	}
}
