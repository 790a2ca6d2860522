package cli

import (
	"path/filepath"
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
	s := newSandbox(t, srv.BaseURL())
	st, err := session.Open(filepath.Join(s.home, "data", "pincer.db"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Create(session.Session{Name: "poisoned", Dir: s.dir, Model: "test-model"})
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
		r := s.run("", "run", "-c", "go on")
		if r.code != 0 || !strings.Contains(r.stdout, "all good") {
			t.Fatalf("run -c #%d on a session with a nameless call: exit %d, stdout %q, stderr %q", i+1, r.code, r.stdout, r.stderr)
		}
		if i == 0 && !strings.Contains(r.stderr, "without a name") {
			t.Errorf("the repair was not said: %q", r.stderr)
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
	s := newSandbox(t, srv.BaseURL())
	if r := s.run("", "run", "-s", "x", "read a.txt"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	srv.SetResponder(func(r agenttest.Request) (agenttest.Reply, bool) {
		if r.Strict != nil {
			return agenttest.Error(400, "Invalid request: "+r.Strict.Error()), true
		}
		return agenttest.Reply{}, false
	})
	if r := s.run("", "run", "-s", "x", "again"); r.code != 0 {
		t.Fatalf("the next run in the session: exit %d: %s", r.code, r.stderr)
	}
	for _, m := range exported(t, s, "x").Messages {
		for _, c := range m.ToolCalls {
			if c.Name == "" {
				t.Errorf("a nameless call was stored: %+v", c)
			}
		}
	}
}
