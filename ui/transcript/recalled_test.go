package transcript

import (
	"strings"
	"testing"

	"pincer/themes"
)

// TestRecalledLineExpands: the recall line is one dim line; enter on it
// shows the note as the model got it, control characters made visible.
func TestRecalledLineExpands(t *testing.T) {
	m := New(themes.Dark())
	m.SetSize(80, 20)
	m.AddRecalled("recalled 1 note from 'db', 3 days ago", "Notes recalled automatically…\n- Session \"db\": port 5433\x1b[2J")
	view := m.View()
	if !strings.Contains(view, "recalled 1 note from 'db', 3 days ago") || strings.Contains(view, "port 5433") {
		t.Fatalf("collapsed:\n%s", view)
	}
	m.s.setFocus(0)
	m.s.toggle()
	view = m.View()
	if !strings.Contains(view, "port 5433") || strings.Contains(view, "\x1b[2J") {
		t.Errorf("expanded view lacks the note or passes its escape through:\n%q", view)
	}
}
