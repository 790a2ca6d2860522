package main

import (
	"path/filepath"
	"strings"
	"testing"

	"pincer/session"
)

// TestChatTasks: /schedule in a chat adds a task to the chat's session,
// and /tasks lists that session's tasks only.
func TestChatTasks(t *testing.T) {
	st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{})
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
	said, err := ct.Schedule("tg-42", "every 1h check the build")
	if err != nil || said == "" {
		t.Fatalf("Schedule: %q, %v", said, err)
	}
	if _, err := ct.Schedule("tg-7", "in 10m other chat"); err != nil {
		t.Fatal(err)
	}
	if _, err := ct.Schedule("tg-42", "whenever you like"); err == nil {
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
}
