package transcript

import (
	"strings"
	"testing"

	"pincer/internal/safetext/safetexttest"
	"pincer/themes"
)

// TestRecalledLineExpands: the recall line is one dim line; enter on it
// shows the note as the model got it, every kind of control made visible.
func TestRecalledLineExpands(t *testing.T) {
	for _, c := range safetexttest.Cases() {
		m := New(themes.Dark())
		m.SetSize(80, 20)
		m.AddRecalled("recalled 1 note from 'db', 3 days ago", "Notes recalled automatically…\n- Session \"db\": port 5433 "+c.Raw)
		view := m.View()
		if !strings.Contains(view, "recalled 1 note from 'db', 3 days ago") || strings.Contains(view, "port 5433") {
			t.Fatalf("%s: collapsed:\n%s", c.Name, view)
		}
		m.s.setFocus(0)
		m.s.toggle()
		view = m.View()
		if !strings.Contains(view, "port 5433") {
			t.Errorf("%s: the expanded view lacks the note:\n%s", c.Name, view)
		}
		if err := safetexttest.Check(view); err != nil {
			t.Errorf("%s: the expanded view passes foreign control text through: %v", c.Name, err)
		}
	}
}
