package docs_test

import (
	"path/filepath"
	"testing"

	"pincer/agent"
	"pincer/session"
	"pincer/tools/sessiontools"
)

// TestMemoryRecallExamples holds memory.md's examples to auto recall: for
// each row, a store whose project has that note saved, and the prompt
// recalls it or not as the page says.
func TestMemoryRecallExamples(t *testing.T) {
	tables := markedTables(readDoc(t, "memory.md"), "recall")
	if len(tables) != 1 || len(tables[0].rows) < 6 {
		t.Fatalf("memory.md has %d <!-- recall --> tables; want one with the examples", len(tables))
	}
	for _, row := range tables[0].rows {
		saved, prompt, want := code(t, row[0]), code(t, row[1]), row[2]
		st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddNote("/p", saved); err != nil {
			t.Fatal(err)
		}
		notes := agent.StoreRecall{Store: st, Mode: agent.RecallAuto, Scope: sessiontools.RecallScope{Dir: "/p"}}.Recall(prompt, nil)
		got := "no"
		if len(notes) > 0 {
			got = "yes"
		}
		if got != want {
			t.Errorf("memory.md says %q recalls the note %q: %s; pincer says %s", prompt, saved, want, got)
		}
	}
}
