package docs_test

import (
	"errors"
	"path/filepath"
	"testing"

	"pincer/session"
)

// TestSessionNameExamples holds sessions.md's table of names to the store:
// each allowed name can name a session, each other one is refused as an
// invalid name.
func TestSessionNameExamples(t *testing.T) {
	tables := markedTables(readDoc(t, "sessions.md"), "names")
	if len(tables) != 1 || len(tables[0].rows) < 6 {
		t.Fatalf("sessions.md has %d <!-- names --> tables; want one with the examples", len(tables))
	}
	st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tables[0].rows {
		name, want := code(t, row[0]), row[1]
		_, err := st.Create(session.Session{Name: name, Dir: "/p"})
		switch {
		case want == "yes" && err != nil:
			t.Errorf("sessions.md allows the name %q; the store says %v", name, err)
		case want == "no" && !errors.Is(err, session.ErrInvalidName):
			t.Errorf("sessions.md refuses the name %q; the store says %v", name, err)
		case want != "yes" && want != "no":
			t.Errorf("sessions.md says %q for %q; write yes or no", want, name)
		}
	}
}
