package agent

import (
	"path/filepath"
	"strings"
	"testing"

	"pincer/agent/agenttest"
	"pincer/session"
	"pincer/tools"
	"pincer/tools/sessiontools"
)

// TestRememberToolAsksWithTheExactText: the model's remember call is put
// to the person with the whole note; approved, it is stored; refused, it
// is not.
func TestRememberToolAsksWithTheExactText(t *testing.T) {
	const text = "The staging database listens on port 5433.\nNever 5432."
	for _, allow := range []bool{true, false} {
		st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, 5,
			agenttest.Tools("", agenttest.Call{ID: "r1", Name: "remember", Arguments: `{"text":"The staging database listens on port 5433.\nNever 5432."}`}),
			agenttest.Text("done", 4))
		tool, err := sessiontools.RememberTool(st, "/p")
		if err != nil {
			t.Fatal(err)
		}
		reg, err := tools.NewRegistry(tool)
		if err != nil {
			t.Fatal(err)
		}
		h.agent.opts.Tools = reg
		h.answer = func(Approval) Decision { return Decision{Allow: allow} }
		if _, err := h.run("remember the staging port"); err != nil {
			t.Fatal(err)
		}
		if len(h.asked) != 1 || h.asked[0].Kind != ApproveAction || !strings.Contains(h.asked[0].Summary, text) {
			t.Fatalf("asked %+v, want one action approval showing the whole note", h.asked)
		}
		// The reason says why it asks; it does not repeat the note (a note
		// ending in "." read "….: changes something").
		for _, r := range h.asked[0].Reasons {
			if strings.Contains(r, "5433") || strings.Contains(r, ".:") {
				t.Errorf("a reason repeats the note: %q", r)
			}
		}
		notes, err := st.Notes("/p")
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case allow && (len(notes) != 1 || notes[0].Text != text):
			t.Errorf("approved: notes %+v, want the note", notes)
		case !allow && len(notes) != 0:
			t.Errorf("refused: notes %+v, want none", notes)
		}
		h.checkStrict()
	}
}
