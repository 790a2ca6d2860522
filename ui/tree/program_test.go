package tree

import (
	"bytes"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// host is the smallest root app: it sizes the pane, forwards messages and
// quits when a file is chosen.
type host struct {
	tree   *Model
	chosen string
}

func (h host) Init() tea.Cmd { return h.tree.Init() }

func (h host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.tree.SetSize(msg.Width, msg.Height)
		return h, nil
	case SelectMsg:
		h.chosen = msg.Path
		return h, tea.Quit
	}
	return h, h.tree.Update(msg)
}

func (h host) View() tea.View { return tea.NewView(h.tree.View()) }

// The pane inside a real Bubble Tea program: listings arrive through the
// program's own Cmd loop and Enter on a file reaches the root app.
func TestInProgram(t *testing.T) {
	root := makeProject(t, sample...)
	m := New(root)
	m.Focus()
	tm := teatest.NewTestModel(t, host{tree: &m}, teatest.WithInitialTermSize(30, 12))

	waitFor := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	waitFor("README.md")
	for _, k := range []string{"down", "down", "right"} {
		tm.Send(keyPress(k))
	}
	waitFor("sub/")
	for _, k := range []string{"down", "down", "enter"} {
		tm.Send(keyPress(k))
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(host)
	if final.chosen != "pkg/a.go" {
		t.Errorf("the program chose %q, want pkg/a.go", final.chosen)
	}
}
