package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/session"
)

// recallSet is agent/testdata/recall_set.json.
type recallSet struct {
	Facts []struct {
		Session, User, Assistant string
	}
	Filler  []string
	Related []struct {
		Q, Want string
	}
	Unrelated []string
}

// loadRecallSet builds a store of the set's sessions in project dir: each
// fact in its own named session, the filler in two sessions of its own.
func loadRecallSet(t *testing.T, dir string) (*session.Store, recallSet) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "recall_set.json"))
	if err != nil {
		t.Fatal(err)
	}
	var set recallSet
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	add := func(name string, msgs ...session.Message) {
		s, err := st.Create(session.Session{Name: name, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			if _, err := st.Append(s.ID, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, f := range set.Facts {
		add(f.Session, session.Message{Role: session.RoleUser, Content: f.User}, session.Message{Role: session.RoleAssistant, Content: f.Assistant})
	}
	for i := range 2 {
		var msgs []session.Message
		for j, f := range set.Filler {
			role := session.RoleUser
			if j%2 == 1 {
				role = session.RoleAssistant
			}
			msgs = append(msgs, session.Message{Role: role, Content: f})
		}
		add(fmt.Sprintf("filler-%d", i), msgs...)
	}
	return st, set
}

// TestAutoRecallOnTheTuningSet holds auto recall's threshold to its
// purpose: every related question recalls its fact, and no chit-chat or
// unrelated request recalls anything. It logs precision and recall.
func TestAutoRecallOnTheTuningSet(t *testing.T) {
	st, set := loadRecallSet(t, "/p")
	r := StoreRecall{Store: st, Mode: RecallAuto, Scope: RecallScope{Dir: "/p"}}
	found, notes, right := 0, 0, 0
	for _, q := range set.Related {
		got := r.Recall(q.Q, nil)
		ok := false
		for _, n := range got {
			notes++
			if n.SessionName == q.Want {
				right++
				ok = true
			}
		}
		if ok {
			found++
		} else {
			t.Errorf("%q recalled %s, want a note from %q", q.Q, describe(got), q.Want)
		}
	}
	for _, q := range set.Unrelated {
		if got := r.Recall(q, nil); len(got) > 0 {
			notes += len(got)
			t.Errorf("%q recalled %s, want nothing", q, describe(got))
		}
	}
	precision := float64(right) / float64(max(notes, 1))
	t.Logf("related questions that found their fact: %d/%d (recall %.2f); notes added from the right session: %d/%d (precision %.2f); unrelated prompts: %d",
		found, len(set.Related), float64(found)/float64(len(set.Related)), right, notes, precision, len(set.Unrelated))
	if precision < 0.8 {
		t.Errorf("precision %.2f, want at least 0.8", precision)
	}
}

func describe(notes []RecalledNote) string {
	if len(notes) == 0 {
		return "nothing"
	}
	var parts []string
	for _, n := range notes {
		parts = append(parts, fmt.Sprintf("%s(%.2f)", n.Source(), n.Relevance))
	}
	return strings.Join(parts, ", ")
}

// TestRecallRelevanceSpread logs the relevance of every candidate of the
// tuning set, for tuning minRelevance by eye (go test -run Spread -v).
func TestRecallRelevanceSpread(t *testing.T) {
	st, set := loadRecallSet(t, "/p")
	show := func(kind, q, want string) {
		hits, err := st.Recall(q, session.RecallOptions{Dir: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, h := range hits[:min(3, len(hits))] {
			mark := ""
			if h.SessionName == want {
				mark = "*"
			}
			parts = append(parts, fmt.Sprintf("%s%s %.2f", mark, h.SessionName, h.Relevance))
		}
		t.Logf("%-9s %-70q %s", kind, q, strings.Join(parts, " | "))
	}
	for _, q := range set.Related {
		show("related", q.Q, q.Want)
	}
	for _, q := range set.Unrelated {
		show("unrelated", q, "")
	}
}
