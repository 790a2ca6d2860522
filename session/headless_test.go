package session

import (
	"testing"

	"pincer/chat"
)

func labels(list []Session) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Label())
	}
	return out
}

// TestHeadlessSessionsAreKeptApart: a headless run's session is stored and
// found by Latest (so --continue works after a run), but List leaves it
// out until it is named, forked or unmarked; ListAll shows it.
func TestHeadlessSessionsAreKeptApart(t *testing.T) {
	s := newTestStore(t)
	dir := t.TempDir()
	kept := mustCreate(t, s, "work", dir)
	run, err := s.Create(Session{Dir: dir, Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, run.ID, chat.Message{Role: chat.RoleUser, Content: "one-off"})
	if !run.Headless {
		t.Fatal("Create dropped the Headless mark")
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != kept.ID {
		t.Errorf("List = %v, want only %s", labels(list), kept.Label())
	}
	all, _, err := s.ListAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].ID != run.ID || !all[0].Headless {
		t.Errorf("ListAll = %+v, want the headless run first, marked", all)
	}
	if latest, err := s.Latest(dir); err != nil || latest.ID != run.ID {
		t.Errorf("Latest = %s, %v; want the headless run", latest.Label(), err)
	}

	fork, err := s.Fork(run.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if fork.Headless {
		t.Error("a fork of a headless run is still headless")
	}
	if err := s.Rename(run.ID, "keep-this"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get("keep-this"); got.Headless {
		t.Error("a named session is still headless")
	}
	other, err := s.Create(Session{Dir: dir, Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetHeadless(other.ID, false); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.List(); len(list) != 4 {
		t.Errorf("List after naming, forking and unmarking = %v, want all 4", labels(list))
	}
}
