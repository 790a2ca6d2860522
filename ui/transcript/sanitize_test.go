package transcript

import (
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestToolNameStaysOnOneLine checks that a tool name from the model with a
// line break cannot add a line to its card's header.
func TestToolNameStaysOnOneLine(t *testing.T) {
	head := cardHeader(&toolState{name: "run\ncommand\x1b[2J"}, 60, lipgloss.NewStyle(), lipgloss.NewStyle(), lipgloss.NewStyle())
	if got, want := ansi.Strip(head), "run␊command␛[2J  …"; got != want {
		t.Errorf("header %q, want %q", got, want)
	}
}
