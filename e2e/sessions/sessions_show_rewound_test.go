package sessions

import (
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"

	"pincer/agent/agenttest"
	"pincer/chat"
	"pincer/session"
)

// TestSessionsShowMarksRewoundMessages: what a rewind dropped stays in
// `sessions show`, marked, so a person sees what the model no longer gets.
func TestSessionsShowMarksRewoundMessages(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("answer", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	for _, prompt := range []string{"first prompt", "second prompt"} {
		if r := s.Run("", "run", "-s", "rw", prompt); r.Code != 0 {
			t.Fatal(r.Stderr)
		}
	}
	st, err := session.Open(filepath.Join(s.Home, "data", "pincer.db"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Get("rw")
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := st.Messages(sess.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var second uint64
	for _, m := range msgs {
		if m.Role == chat.RoleUser && m.Content == "second prompt" {
			second = m.Seq
		}
	}
	if second == 0 {
		t.Fatalf("no second prompt among %+v", msgs)
	}
	if _, err := st.Rewind(sess.ID, session.Rewind{From: second}); err != nil {
		t.Fatal(err)
	}

	r := s.Run("", "sessions", "show", "rw")
	if r.Code != 0 {
		t.Fatalf("sessions show: exit %d: %s", r.Code, r.Stderr)
	}
	_, turns, _ := strings.Cut(r.Stdout, "## Turn 1\n")
	turn1, turn2, _ := strings.Cut(turns, "## Turn 2")
	if !strings.Contains(turn1, "first prompt") || strings.Contains(turn1, "(rewound)") {
		t.Errorf("the first turn is missing or marked rewound:\n%s", r.Stdout)
	}
	if !strings.HasPrefix(turn2, " (rewound)\n") || !strings.Contains(turn2, "### User (rewound)") ||
		!strings.Contains(turn2, "second prompt") || !strings.Contains(turn2, "### Assistant (rewound)") {
		t.Errorf("the second turn is not marked rewound:\n%s", r.Stdout)
	}

	doc := s.Exported("rw")
	for _, m := range doc.Messages {
		if m.Rewound != (m.Seq >= second) {
			t.Errorf("show --json: message %d (%s) rewound %v", m.Seq, m.Role, m.Rewound)
		}
	}
}
