package telegram

import (
	"context"
	"strings"
	"testing"
	"time"

	"pincer/agent"
	"pincer/agent/agenttest"
)

// TestChatCannotEnterAnotherChatsSession is the attack as found: an
// allowed user (42) switched into another user's chat session (tg-43),
// by name, by what /new kept of it or by its id, and into a session
// started with --private. Each is refused, saying why, nothing is opened,
// and /sessions does not offer them.
func TestChatCannotEnterAnotherChatsSession(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New()
	defer model.Close()
	r := startBot(t, api, model, "")
	for _, tc := range []struct{ name, why string }{
		{"tg-43", "is another chat"},
		{"tg-43-20261201-0900", "is another chat"},
		{"01TG43", "is another chat"},
		{"tg--1001", "is another chat"},
		{"diary", "--private"},
		{"01DIARY", "--private"},
	} {
		id := api.text(owner, "/session "+tc.name)
		r.handled(t, id)
		waitFor(t, "the refusal of "+tc.name, func() bool { return strings.Contains(lastText(api), tc.why) })
	}
	if got := r.opened(); len(got) != 0 {
		t.Errorf("sessions opened: %q", got)
	}
	api.text(owner, "/sessions")
	var kb map[string]string
	waitFor(t, "the list", func() bool { kb = buttons(api, "refactor"); return kb != nil })
	for _, hidden := range []string{"tg-43", "tg-43-20261201-0900", "diary"} {
		if _, ok := kb[hidden]; ok {
			t.Errorf("/sessions offers %s: %v", hidden, kb)
		}
	}
	if _, ok := kb["tg-42"]; !ok {
		t.Errorf("/sessions does not offer the chat's own session: %v", kb)
	}
	// Its own, and a shared one, still open.
	api.text(owner, "/session refactor")
	waitFor(t, "the switch", func() bool { return strings.Contains(lastText(api), "now in the session refactor") })
}

// TestChatsFileCannotKeepAChatInAnotherChatsSession: a switch recorded
// before the rule (chat 42 in tg-43) is not restored.
func TestChatsFileCannotKeepAChatInAnotherChatsSession(t *testing.T) {
	t.Parallel()
	offset := t.TempDir() + "/bot.offset"
	b := &Bot{opts: Options{ChatsFile: chatsFileFor(offset), Log: &syncBuffer{}}}
	b.sessions = map[int64]string{}
	b.rememberSession(42, "tg-43")
	b.rememberSession(43, "refactor")
	got := b.loadSessions()
	if _, ok := got[42]; ok || got[43] != "refactor" {
		t.Errorf("restored %v; want chat 42 back in its own session, 43 kept in refactor", got)
	}
}

// TestGroupGetsNoRecalledText: in a group (members who are not on the
// allowlist read it) neither what automatic recall added nor what the
// recall tool found is posted; a private chat gets both.
func TestGroupGetsNoRecalledText(t *testing.T) {
	t.Parallel()
	const secret = "the vault code is 1234-ZETA"
	for _, group := range []bool{true, false} {
		api := newFakeAPI(t)
		model := agenttest.New()
		r := startBot(t, api, model, "")
		chat := int64(-1001)
		if !group {
			chat = owner
		}
		s := newStream(context.Background(), r.bot, chat)
		s.group = group
		s.event(agent.Recalled{Notes: []agent.RecalledNote{{SessionName: "tg-42", When: time.Now(), Text: secret}}, Text: "Notes recalled: " + secret})
		s.event(agent.ToolStarted{Call: "c1", ID: "c1", Name: "recall", Summary: "recall vault code"})
		s.event(agent.ToolResult{Call: "c1", ID: "c1", Name: "recall", Content: "1 match:\n" + secret})
		all := strings.Join(api.texts(), "\n")
		if group && (strings.Contains(all, "1234-ZETA") || !strings.Contains(all, "not shown in a group")) {
			t.Errorf("a group was sent:\n%s", all)
		}
		if !group && strings.Count(all, "1234-ZETA") < 2 {
			t.Errorf("a private chat was not shown what was recalled:\n%s", all)
		}
		model.Close()
	}
}

// TestChatOf: the chat a session name belongs to.
func TestChatOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		id   int64
		ok   bool
	}{
		{"tg-42", 42, true}, {"tg-42-20261201-0900", 42, true}, {"tg--1001", -1001, true}, {"tg--1001-20261201-0900", -1001, true},
		{"tg-", 0, false}, {"tg-abc", 0, false}, {"refactor", 0, false}, {"tg-42x", 0, false}, {"xtg-42", 0, false},
	} {
		if id, ok := ChatOf(tc.name); id != tc.id || ok != tc.ok {
			t.Errorf("ChatOf(%q) = %d, %v; want %d, %v", tc.name, id, ok, tc.id, tc.ok)
		}
	}
}

// TestRefusedCallSaysWhatItWas: a call refused before it started gets the
// agent's summary of it (with "(recovered from text)" for a call written as
// text) above its ✗, as a started call's message has.
func TestRefusedCallSaysWhatItWas(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t)
	model := agenttest.New()
	defer model.Close()
	r := startBot(t, api, model, "")
	s := newStream(context.Background(), r.bot, owner)
	s.event(agent.ToolResult{Call: "c1", ID: "c1", Name: "run_command", Summary: "run_command touch a (recovered from text)", Content: "User cancelled the operation", IsError: true})
	all := strings.Join(api.texts(), "\n")
	if !strings.Contains(all, "▸ run_command touch a (recovered from text)\n✗ User cancelled") {
		t.Errorf("sent:\n%s", all)
	}
}
