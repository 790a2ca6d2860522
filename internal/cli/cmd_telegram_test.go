package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pincer/agent"
	"pincer/chat"
	"pincer/session"
	"pincer/tools/sessiontools"
)

// TestChatTasks: /schedule in a chat adds a task to the chat's session,
// and /tasks lists that session's tasks only.
func TestChatTasks(t *testing.T) {
	st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, name := range []string{"tg-42", "tg-7"} {
		if _, err := st.Create(session.Session{Name: name, Dir: root}); err != nil {
			t.Fatal(err)
		}
	}
	ct := chatTasks{st: st, root: root}
	said, err := ct.Schedule(42, "@bob", "tg-42", "every 1h check the build")
	if err != nil || said == "" {
		t.Fatalf("Schedule: %q, %v", said, err)
	}
	if _, err := ct.Schedule(7, "", "tg-7", "in 10m other chat"); err != nil {
		t.Fatal(err)
	}
	if _, err := ct.Schedule(42, "@bob", "tg-42", "whenever you like"); err == nil {
		t.Error("a spec without a time was accepted")
	}
	lines, err := ct.List("tg-42")
	if err != nil || len(lines) != 1 || !strings.Contains(lines[0], "check the build") {
		t.Errorf("List(tg-42) = %q, %v", lines, err)
	}
	all, _ := st.Tasks()
	if len(all) != 2 || all[0].Dir != root {
		t.Errorf("tasks stored: %+v", all)
	}
	// Who scheduled a task is kept with it, for its approvals to say.
	var bys []string
	for _, task := range all {
		bys = append(bys, task.By)
	}
	if slices.Sort(bys); !slices.Equal(bys, []string{"", "@bob"}) {
		t.Errorf("tasks scheduled by %q, want \"\" and @bob", bys)
	}
}

// TestTaskReportsInTheChatThatScheduledIt is the attack as found: user
// 43 got into the session tg-42 and scheduled a task there; its output
// and questions went to chat 42, a stranger's. A task reports in the chat
// that scheduled it, whichever session it runs in; one scheduled at the
// computer for tg-42 reports in chat 42; one of another project, or
// scheduled outside any chat for a shared session, in none.
func TestTaskReportsInTheChatThatScheduledIt(t *testing.T) {
	st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, name := range []string{"tg-42", "refactor"} {
		if _, err := st.Create(session.Session{Name: name, Dir: root}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := (chatTasks{st: st, root: root}).Schedule(43, "@eve", "tg-42", "in 1m report the build"); err != nil {
		t.Fatal(err)
	}
	add := func(task session.Task) session.Task {
		task.Prompt, task.Next = "p", time.Now()
		got, err := st.AddTask(task)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	all, _ := st.Tasks()
	cases := []struct {
		name string
		task session.Task
		chat int64
		ok   bool
	}{
		{"scheduled by chat 43 in tg-42", all[0], 43, true},
		{"the model's, in chat 43's turn", add(session.Task{Session: "tg-42", Dir: root, Chat: 43, ByModel: true}), 43, true},
		{"at the computer, for tg-42", add(session.Task{Session: "tg-42", Dir: root}), 42, true},
		{"at the computer, for a shared session", add(session.Task{Session: "refactor", Dir: root}), 0, false},
		{"another project's", add(session.Task{Session: "tg-42", Dir: t.TempDir(), Chat: 43}), 0, false},
	}
	for _, tc := range cases {
		chat, _, ok := taskChat(st, root, tc.task)
		if chat != tc.chat || ok != tc.ok {
			t.Errorf("%s: chat %d, %v; want %d, %v", tc.name, chat, ok, tc.chat, tc.ok)
		}
	}
}

// TestChatRecallIsTheChatsOwn is the attack as found: a note from the
// owner's private chat was recalled into a group chat and into another
// allowed user's chat. A chat recalls only its own sessions (tg-<id> and
// what /new kept of it), never another chat's, the desk's sessions or the
// project's notes, unless telegram.recall_scope widens it.
func TestChatRecallIsTheChatsOwn(t *testing.T) {
	st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	say := func(name, text string) {
		s, err := st.Create(session.Session{Name: name, Dir: root})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Append(s.ID, chat.Message{Role: chat.RoleUser, Content: text}); err != nil {
			t.Fatal(err)
		}
	}
	say("tg-42", "the harbor alarm code is owner-private-4411")
	say("tg--1001", "the harbor alarm code is group-notice-7")
	say("desk", "the harbor alarm code is desk-only-9")
	say("tg-43-20261201-0900", "the harbor alarm code is ann-old-chat-3")
	if _, err := st.AddNote(root, "the harbor alarm code is in the safe note-5"); err != nil {
		t.Fatal(err)
	}
	current, err := st.Create(session.Session{Name: "tg-43", Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	recalled := func(scope sessiontools.RecallScope) string {
		r := agent.StoreRecall{Store: st, Mode: agent.RecallAlways, Scope: scope, Current: func() string { return current.ID }}
		var b strings.Builder
		for _, n := range r.Recall("harbor alarm code", nil) {
			b.WriteString(n.Text + "\n")
		}
		return b.String()
	}
	p := &project{root: root}
	got := recalled(chatRecall(p, st, 43))
	if !strings.Contains(got, "ann-old-chat-3") {
		t.Errorf("chat 43 does not recall its own earlier session:\n%s", got)
	}
	for _, other := range []string{"owner-private", "group-notice", "desk-only", "note-5"} {
		if strings.Contains(got, other) {
			t.Errorf("chat 43 recalled %q:\n%s", other, got)
		}
	}
	p.cfg.Telegram.RecallScope = "project"
	if got := recalled(chatRecall(p, st, 43)); !strings.Contains(got, "note-5") || !strings.Contains(got, "desk-only") {
		t.Errorf("telegram.recall_scope project does not widen it:\n%s", got)
	}
}
