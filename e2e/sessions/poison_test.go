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

// strictServer answers 400, as strict providers do, to any request whose
// history breaks their rules, and with text otherwise.
func strictServer(t *testing.T) *agenttest.Server {
	srv := agenttest.New()
	t.Cleanup(srv.Close)
	srv.SetResponder(func(r agenttest.Request) (agenttest.Reply, bool) {
		if r.Strict != nil {
			return agenttest.Error(400, "Invalid request: "+r.Strict.Error()), true
		}
		return agenttest.Text("all good", 5), true
	})
	return srv
}

// TestAPoisonedSessionCanBeContinued stores a session the way older
// pincers did, with a tool call that has no name: continuing it works
// against a strict server.
func TestAPoisonedSessionCanBeContinued(t *testing.T) {
	srv := strictServer(t)
	s := e2etest.NewSandbox(t, srv.BaseURL())
	st, err := session.Open(filepath.Join(s.Home, "data", "pincer.db"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Create(session.Session{Name: "poisoned", Dir: s.Dir, Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []chat.Message{
		{Role: chat.RoleUser, Content: "read a.txt"},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "call_1", Name: "", Arguments: `{"path":"a.txt"}`}}},
		{Role: chat.RoleTool, ToolCallID: "call_1", Content: "The tool call has no name.", IsError: true},
		{Role: chat.RoleAssistant, Content: "sorry"},
	} {
		if _, err := st.Append(sess.ID, m); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 2; i++ {
		r := s.Run("", "run", "-c", "go on")
		if r.Code != 0 || !strings.Contains(r.Stdout, "all good") {
			t.Fatalf("run -c #%d on a session with a nameless call: exit %d, stdout %q, stderr %q", i+1, r.Code, r.Stdout, r.Stderr)
		}
		if i == 0 && !strings.Contains(r.Stderr, "without a name") {
			t.Errorf("the repair was not said: %q", r.Stderr)
		}
	}
}

// TestANamelessCallIsAnsweredAndNotStored: the model's nameless call gets
// an error result in the same turn, and the session stays usable.
func TestANamelessCallIsAnsweredAndNotStored(t *testing.T) {
	srv := strictServer(t)
	srv.SetResponder(nil)
	srv.Add(agenttest.Tools("", agenttest.Call{ID: "c1", Name: "", Arguments: `{"path":"a.txt"}`}))
	srv.SetFallback(agenttest.Text("done", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	if r := s.Run("", "run", "-s", "x", "read a.txt"); r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	srv.SetResponder(func(r agenttest.Request) (agenttest.Reply, bool) {
		if r.Strict != nil {
			return agenttest.Error(400, "Invalid request: "+r.Strict.Error()), true
		}
		return agenttest.Reply{}, false
	})
	if r := s.Run("", "run", "-s", "x", "again"); r.Code != 0 {
		t.Fatalf("the next run in the session: exit %d: %s", r.Code, r.Stderr)
	}
	for _, m := range s.Exported("x").Messages {
		for _, c := range m.ToolCalls {
			if c.Name == "" {
				t.Errorf("a nameless call was stored: %+v", c)
			}
		}
	}
}
