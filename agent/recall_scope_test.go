package agent

import (
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/session"
	"pincer/tools/sessiontools"
)

// recallWorld is a store with a session of another project that holds a
// secret, and one of this project (/p).
func recallWorld(t *testing.T) (st *session.Store, current string) {
	t.Helper()
	st = newTaskStore(t, &clock{t: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)})
	add := func(name, dir, text string) string {
		s, err := st.Create(session.Session{Name: name, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Append(s.ID, Message{Role: RoleUser, Content: text}); err != nil {
			t.Fatal(err)
		}
		return s.ID
	}
	add("vault", "/elsewhere", "the launch codename is nightjar and the passphrase is copper-lantern-nine")
	return st, add("now", "/p", "starting work on the parser")
}

// recallHarness runs a model that calls recall with args, in an agent
// whose recall tool has scope.
func recallHarness(t *testing.T, st *session.Store, current string, scope sessiontools.RecallScope, args string) *harness {
	t.Helper()
	h := newHarness(t, 30,
		agenttest.Tools("", agenttest.Call{ID: "r1", Name: "recall", Arguments: args}),
		agenttest.Text("done", 10))
	tool, err := sessiontools.RecallTool(st, scope, func() string { return current })
	if err != nil {
		t.Fatal(err)
	}
	reg, err := newRegistryWith(h.agent.opts.Tools.List(), tool)
	if err != nil {
		t.Fatal(err)
	}
	h.agent.opts.Tools = reg
	return h
}

// TestRecallToolKeepsToTheRecallScope is the attack as found: in a
// project whose recall_scope is "project" (the default, and all an
// untrusted project can have), the model asks recall for every project
// unprompted. It is asked about, naming what would be crossed; refused,
// nothing of the other project reaches the model. Held to a chat's own
// sessions, the same call is refused without a question. recall_scope
// "all", which only the person grants, runs it unasked.
func TestRecallToolKeepsToTheRecallScope(t *testing.T) {
	const secret = "copper-lantern-nine"
	args := `{"query":"launch codename passphrase","scope":"all"}`
	t.Run("asked, and refused", func(t *testing.T) {
		st, current := recallWorld(t)
		h := recallHarness(t, st, current, sessiontools.RecallScope{Dir: "/p"}, args)
		h.answer = func(Approval) Decision { return Decision{} }
		if _, err := h.run("what were we doing?"); err != nil {
			t.Fatal(err)
		}
		if len(h.asked) != 1 {
			t.Fatalf("asked %d times, want once: %+v", len(h.asked), h.asked)
		}
		a := h.asked[0]
		if a.Kind != ApproveAction || !strings.Contains(a.Summary, "every project") || !strings.Contains(strings.Join(a.Reasons, " "), "every project") {
			t.Errorf("the approval does not name the crossing: kind %s, summary %q, reasons %q", a.Kind, a.Summary, a.Reasons)
		}
		if got := h.toolMessages(1)[0]["content"].(string); strings.Contains(got, secret) || !strings.Contains(got, Cancelled) {
			t.Errorf("refused, the model still got: %q", got)
		}
	})
	t.Run("asked, and allowed", func(t *testing.T) {
		st, current := recallWorld(t)
		h := recallHarness(t, st, current, sessiontools.RecallScope{Dir: "/p"}, args)
		if _, err := h.run("what was the launch passphrase in the vault project?"); err != nil {
			t.Fatal(err)
		}
		if len(h.asked) != 1 || !strings.Contains(h.toolMessages(1)[0]["content"].(string), secret) {
			t.Errorf("approved: asked %d, got %q", len(h.asked), h.toolMessages(1)[0]["content"])
		}
	})
	t.Run("held to a chat's sessions: refused unasked", func(t *testing.T) {
		st, current := recallWorld(t)
		own := func() ([]string, error) { return []string{current}, nil }
		h := recallHarness(t, st, current, sessiontools.RecallScope{Dir: "/p", Sessions: own, Narrowed: "this chat's own sessions"}, args)
		if _, err := h.run("what were we doing?"); err != nil {
			t.Fatal(err)
		}
		got := h.toolMessages(1)[0]["content"].(string)
		if len(h.asked) != 0 || strings.Contains(got, secret) || !strings.Contains(got, "this chat's own sessions") {
			t.Errorf("asked %d, got %q; want a refusal naming the chat's sessions, unasked", len(h.asked), got)
		}
	})
	t.Run("recall_scope all: unasked", func(t *testing.T) {
		st, current := recallWorld(t)
		h := recallHarness(t, st, current, sessiontools.RecallScope{Dir: "/p", AllProjects: true}, args)
		if _, err := h.run("what was the launch passphrase?"); err != nil {
			t.Fatal(err)
		}
		if len(h.asked) != 0 || !strings.Contains(h.toolMessages(1)[0]["content"].(string), secret) {
			t.Errorf("granted by recall_scope: asked %d, got %q", len(h.asked), h.toolMessages(1)[0]["content"])
		}
	})
	t.Run("the project scope does not suggest widening", func(t *testing.T) {
		st, current := recallWorld(t)
		h := recallHarness(t, st, current, sessiontools.RecallScope{Dir: "/p"}, `{"query":"launch passphrase"}`)
		if _, err := h.run("what was the passphrase?"); err != nil {
			t.Fatal(err)
		}
		got := h.toolMessages(1)[0]["content"].(string)
		if len(h.asked) != 0 || strings.Contains(got, secret) || strings.Contains(got, `"all"`) || strings.Contains(got, "scope") {
			t.Errorf("asked %d; the answer %q leaks or suggests another scope", len(h.asked), got)
		}
	})
}

// TestAutoRecallKeepsToItsScope: automatic recall held to a chat's own
// sessions brings nothing from another session of the same project, nor
// the project's notes.
func TestAutoRecallKeepsToItsScope(t *testing.T) {
	st, current := recallWorld(t)
	other, err := st.Create(session.Session{Name: "tg-2", Dir: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(other.ID, Message{Role: RoleUser, Content: "the deploy passphrase for staging is granite-owl-seven"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddNote("/p", "the deploy passphrase for production is in the binder"); err != nil {
		t.Fatal(err)
	}
	wide := StoreRecall{Store: st, Mode: RecallAlways, Scope: sessiontools.RecallScope{Dir: "/p"}}
	if notes := wide.Recall("deploy passphrase staging production", nil); len(notes) < 2 {
		t.Fatalf("the project scope recalls %+v; the test needs both", notes)
	}
	own := StoreRecall{Store: st, Mode: RecallAlways, Scope: sessiontools.RecallScope{Dir: "/p", Sessions: func() ([]string, error) { return []string{current}, nil }}}
	if notes := own.Recall("deploy passphrase staging production", nil); len(notes) != 0 {
		t.Errorf("held to its own sessions, recall brought %+v", notes)
	}
}
