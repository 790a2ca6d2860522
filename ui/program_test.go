package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"pincer/agent/agenttest"
)

// TestProgramRunsATurn runs the screen as a real Bubble Tea program (with
// teatest) against the scripted server: typed text is sent, the answer and
// a tool card stream in, and the program quits on two Ctrl+C.
func TestProgramRunsATurn(t *testing.T) {
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "glob", Arguments: `{"pattern":"*.go"}`}),
		agenttest.Text("There is one Go file: main.go.", 6),
	)
	defer srv.Close()
	app, _ := programApp(t, srv)
	tm := teatest.NewTestModel(t, app, teatest.WithInitialTermSize(100, 30))
	tm.Type("which go files are there?")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		s := ansi.Strip(string(b))
		return strings.Contains(s, "main.go.") && strings.Contains(s, "glob")
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	final := tm.FinalModel(t).(*App)
	if !final.quit {
		t.Error("the program did not end through the quit path")
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}
