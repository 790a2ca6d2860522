package session

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/chat"
)

func TestCreateFillsIdentityAndTimes(t *testing.T) {
	s := newTestStore(t)
	a, err := s.Create(Session{Name: "alpha", Dir: "/work/a/", Model: "m1", Title: "ignored", MessageCount: 9, Summary: "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	b := mustCreate(t, s, "", "/work/a")
	if len(a.ID) != idLen || a.ID == b.ID || a.ID >= b.ID {
		t.Errorf("ids %q, %q: want distinct, increasing ULIDs", a.ID, b.ID)
	}
	if a.Dir != "/work/a" {
		t.Errorf("Dir = %q, want the cleaned /work/a", a.Dir)
	}
	if a.Created.IsZero() || !a.Updated.Equal(a.Created) {
		t.Errorf("Created %v, Updated %v: want both set and equal", a.Created, a.Updated)
	}
	if a.Title != "" || a.MessageCount != 0 || a.Summary != "" {
		t.Errorf("a new session carried over %q, %d, %q", a.Title, a.MessageCount, a.Summary)
	}
	got, err := s.Get("alpha")
	if err != nil {
		t.Fatal(err)
	}
	if !sameSessions([]Session{got}, []Session{a}) {
		t.Errorf("Get = %+v, want %+v", got, a)
	}
	if _, err := s.Create(Session{Name: "no-dir"}); err == nil {
		t.Error("Create without a directory succeeded")
	}
}

func TestNamesAreUnique(t *testing.T) {
	tests := []struct {
		name string
		act  func(s *Store, alpha, beta Session) error
	}{
		{"create with a taken name", func(s *Store, _, _ Session) error {
			_, err := s.Create(Session{Name: "alpha", Dir: "/w"})
			return err
		}},
		{"rename to a taken name", func(s *Store, _, beta Session) error {
			return s.Rename(beta.ID, "alpha")
		}},
		{"fork to a taken name", func(s *Store, _, beta Session) error {
			_, err := s.Fork(beta.ID, "alpha")
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			alpha := mustCreate(t, s, "alpha", "/w")
			beta := mustCreate(t, s, "beta", "/w")
			before, _ := s.List()

			err := tt.act(s, alpha, beta)
			if !errors.Is(err, ErrNameTaken) {
				t.Fatalf("got %v, want ErrNameTaken", err)
			}
			if !strings.Contains(err.Error(), `"alpha"`) {
				t.Errorf("error %q does not name the name", err)
			}
			after, _ := s.List()
			if !sameSessions(before, after) {
				t.Errorf("a refused change altered the store: %+v became %+v", before, after)
			}
			if got, _ := s.Get("alpha"); got.ID != alpha.ID {
				t.Errorf("alpha now resolves to %s, want %s", got.ID, alpha.ID)
			}
		})
	}
}

func TestNamesAreReleased(t *testing.T) {
	s := newTestStore(t)
	a := mustCreate(t, s, "alpha", "/w")
	if err := s.Rename("alpha", "gamma"); err != nil {
		t.Fatal(err)
	}
	if err := s.Rename("gamma", "gamma"); err != nil {
		t.Errorf("renaming a session to its own name: %v", err)
	}
	if _, err := s.Get("alpha"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the old name still resolves: %v", err)
	}
	if got, err := s.Get("gamma"); err != nil || got.ID != a.ID {
		t.Errorf("Get(gamma) = %s, %v; want %s", got.ID, err, a.ID)
	}
	reused := mustCreate(t, s, "alpha", "/w")
	if err := s.Delete("gamma"); err != nil {
		t.Fatal(err)
	}
	again := mustCreate(t, s, "gamma", "/w")
	if reused.ID == a.ID || again.ID == a.ID {
		t.Error("a released name did not get a new session")
	}
	if err := s.Rename("alpha", "bad name "); !errors.Is(err, ErrInvalidName) {
		t.Errorf("Rename to an invalid name = %v, want ErrInvalidName", err)
	}
	if _, err := s.Create(Session{Name: "   ", Dir: "/w"}); !errors.Is(err, ErrInvalidName) {
		t.Errorf("Create with a blank name = %v, want ErrInvalidName", err)
	}
}

func TestNotFound(t *testing.T) {
	s := newTestStore(t)
	known := mustCreate(t, s, "known", "/w")
	tests := []struct {
		name string
		act  func() error
	}{
		{"get by unknown name", func() error { _, err := s.Get("nope"); return err }},
		{"get with nothing", func() error { _, err := s.Get(""); return err }},
		{"get by a prefix too short", func() error { _, err := s.Get(known.ID[:minPrefixLen-1]); return err }},
		{"latest of an unused directory", func() error { _, err := s.Latest("/nowhere"); return err }},
		{"append to an unknown id", func() error {
			_, err := s.Append("01J00000000000000000000000", chat.Message{Role: chat.RoleUser})
			return err
		}},
		{"messages of an unknown id", func() error { _, err := s.Messages("nope", 0); return err }},
		{"set summary of an unknown id", func() error { return s.SetSummary("nope", "x", 0) }},
		{"set model of an unknown id", func() error { return s.SetModel("nope", "m") }},
		{"append by name rather than id", func() error { _, err := s.Append("known", chat.Message{Role: chat.RoleUser}); return err }},
		{"rename unknown", func() error { return s.Rename("nope", "new") }},
		{"delete unknown", func() error { return s.Delete("nope") }},
		{"fork unknown", func() error { _, err := s.Fork("nope", "new"); return err }},
		{"export unknown", func() error { return s.Export(&strings.Builder{}, "nope", FormatJSON) }},
	}
	for _, tt := range tests {
		if err := tt.act(); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: got %v, want ErrNotFound", tt.name, err)
		}
	}
}

func TestGetByIDAndPrefix(t *testing.T) {
	s := newTestStore(t)
	a := mustCreate(t, s, "alpha", "/w")
	b := mustCreate(t, s, "", "/w")
	// Ids made a second apart share their first ten characters (the time).
	if a.ID[:minPrefixLen] != b.ID[:minPrefixLen] {
		t.Fatalf("test assumes shared prefixes: %s %s", a.ID, b.ID)
	}
	unique := func(id, other string) string {
		n := 0
		for n < len(id) && id[n] == other[n] {
			n++
		}
		return id[:max(n+1, minPrefixLen)]
	}
	tests := []struct {
		ref     string
		want    string
		wantErr error
	}{
		{a.ID, a.ID, nil},
		{b.ID, b.ID, nil},
		{"alpha", a.ID, nil},
		{unique(b.ID, a.ID), b.ID, nil},
		{strings.ToLower(unique(a.ID, b.ID)), a.ID, nil},
		{a.ID[:minPrefixLen], "", ErrAmbiguous},
		{"ZZZZZZZZ", "", ErrNotFound},
	}
	for _, tt := range tests {
		got, err := s.Get(tt.ref)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Get(%q) = %v, want %v", tt.ref, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got.ID != tt.want {
			t.Errorf("Get(%q) = %s, %v; want %s", tt.ref, got.ID, err, tt.want)
		}
	}
}

func TestLatestIsPerDirectory(t *testing.T) {
	s := newTestStore(t)
	olderA := mustCreate(t, s, "", "/work/a")
	newerA := mustCreate(t, s, "", "/work/a")
	onlyB := mustCreate(t, s, "", "/work/b")
	mustCreate(t, s, "", "/work/a/sub")

	check := func(dir, want string) {
		t.Helper()
		got, err := s.Latest(dir)
		if err != nil || got.ID != want {
			t.Errorf("Latest(%q) = %s, %v; want %s", dir, got.ID, err, want)
		}
	}
	check("/work/a", newerA.ID)
	check("/work/b", onlyB.ID)
	mustAppend(t, s, olderA.ID, chat.Message{Role: chat.RoleUser, Content: "back to the old one"})
	check("/work/a", olderA.ID)
	check("/work/a/", olderA.ID)
	if err := s.SetSummary(newerA.ID, "summary", 0); err != nil {
		t.Fatal(err)
	}
	check("/work/a", newerA.ID)
	if err := s.Delete(newerA.ID); err != nil {
		t.Fatal(err)
	}
	check("/work/a", olderA.ID)
	if err := s.Delete(onlyB.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Latest("/work/b"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Latest of a directory whose sessions are gone = %v, want ErrNotFound", err)
	}
}

func TestListIsMostRecentFirst(t *testing.T) {
	s := newTestStore(t)
	first := mustCreate(t, s, "first", "/w")
	mustCreate(t, s, "second", "/w")
	mustCreate(t, s, "third", "/x")
	mustAppend(t, s, first.ID, chat.Message{Role: chat.RoleUser, Content: "again"})
	if err := s.SetSummary(first.ID, "long summary text", 1); err != nil {
		t.Fatal(err)
	}

	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sess := range list {
		got = append(got, sess.Name)
	}
	if strings.Join(got, ",") != "first,third,second" {
		t.Errorf("List order = %v, want first,third,second", got)
	}
	if list[0].MessageCount != 1 || list[0].Title != "again" || list[0].SummaryThrough != 1 || list[0].Summary != "" {
		t.Errorf("List entry = %+v: want count 1, title, summary_through 1 and no summary text", list[0])
	}
	empty, err := newTestStore(t).List()
	if err != nil || len(empty) != 0 {
		t.Errorf("List of a new store = %v, %v", empty, err)
	}
}

func TestAppendKeepsTheSessionUpToDate(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "work", "/w")
	msgs := []chat.Message{
		{Role: chat.RoleSystem, Content: "you are pincer"},
		{Role: chat.RoleUser, Content: "\n  Fix the login bug\nit fails on empty passwords", Seq: 99},
		{Role: chat.RoleAssistant, Content: "looking", Usage: &chat.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120, CachedTokens: 50}, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a.go"}`}}},
		{Role: chat.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "package a", IsError: true},
		{Role: chat.RoleUser, Content: "second prompt", Kind: "task"},
		{Role: chat.RoleAssistant, Content: "done", Reasoning: "easy", Usage: &chat.Usage{PromptTokens: 150, CompletionTokens: 5, TotalTokens: 155, ReasoningTokens: 3}},
	}
	fixed := time.Date(2024, 12, 24, 18, 0, 0, 0, time.UTC)
	msgs[3].Time = fixed
	for i, m := range msgs {
		if seq := mustAppend(t, s, sess.ID, m); seq != uint64(i+1) {
			t.Errorf("message %d got seq %d", i, seq)
		}
	}
	got, err := s.Get(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.MessageCount != len(msgs) {
		t.Errorf("MessageCount = %d, want %d", got.MessageCount, len(msgs))
	}
	if got.Title != "Fix the login bug" {
		t.Errorf("Title = %q, want the first line of the first user message", got.Title)
	}
	if want := (chat.Usage{PromptTokens: 250, CompletionTokens: 25, TotalTokens: 275, ReasoningTokens: 3, CachedTokens: 50}); got.Usage != want {
		t.Errorf("Usage = %+v, want %+v", got.Usage, want)
	}
	if !got.Updated.After(sess.Updated) {
		t.Errorf("Updated %v did not move past %v", got.Updated, sess.Updated)
	}

	stored, err := s.Messages(sess.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range msgs {
		want := msgs[i]
		want.Seq = uint64(i + 1)
		if want.Time.IsZero() {
			want.Time = stored[i].Time
			if stored[i].Time.IsZero() {
				t.Errorf("message %d has no time", i+1)
			}
		}
		if !sameMessage(stored[i], want) {
			t.Errorf("message %d = %+v, want %+v", i+1, stored[i], want)
		}
	}
	if !stored[3].Time.Equal(fixed) {
		t.Errorf("a given time was replaced: %v", stored[3].Time)
	}

	tail, err := s.Messages(sess.ID, 4)
	if err != nil || len(tail) != 2 || tail[0].Seq != 5 || tail[1].Seq != 6 {
		t.Errorf("Messages after 4 = %+v, %v; want messages 5 and 6", tail, err)
	}
	none, err := s.Messages(sess.ID, 6)
	if err != nil || len(none) != 0 {
		t.Errorf("Messages after the last = %+v, %v; want none", none, err)
	}
}

func TestAppendRefusesAnUnknownRole(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "", "/w")
	for _, role := range []chat.Role{"", "robot", "User"} {
		if _, err := s.Append(sess.ID, chat.Message{Role: role, Content: "x"}); err == nil || !strings.Contains(err.Error(), "use system, user, assistant or tool") {
			t.Errorf("Append with role %q = %v, want an error naming the valid roles", role, err)
		}
	}
	if msgs, _ := s.Messages(sess.ID, 0); len(msgs) != 0 {
		t.Errorf("refused messages were stored: %+v", msgs)
	}
}

func TestSummaryAndModel(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "work", "/w")
	for i := range 4 {
		mustAppend(t, s, sess.ID, sampleMessage(i))
	}
	tests := []struct {
		summary string
		through uint64
		wantErr bool
	}{
		{"goal: fix the parser", 3, false},
		{"covers everything", 4, false},
		{"covers more than there is", 5, true},
		{"", 2, true},
	}
	for _, tt := range tests {
		err := s.SetSummary(sess.ID, tt.summary, tt.through)
		if (err != nil) != tt.wantErr {
			t.Errorf("SetSummary(%q, %d) = %v, want error %v", tt.summary, tt.through, err, tt.wantErr)
		}
	}
	got, _ := s.Get("work")
	if got.Summary != "covers everything" || got.SummaryThrough != 4 {
		t.Errorf("summary = %q through %d, want the last accepted one", got.Summary, got.SummaryThrough)
	}
	if err := s.SetSummary(sess.ID, "", 0); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get("work"); got.Summary != "" || got.SummaryThrough != 0 {
		t.Errorf("cleared summary = %q through %d", got.Summary, got.SummaryThrough)
	}

	if err := s.SetModel(sess.ID, "deepseek-chat"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get("work"); got.Model != "deepseek-chat" {
		t.Errorf("Model = %q after SetModel", got.Model)
	}
}

func TestForkIsIndependent(t *testing.T) {
	s := newTestStore(t)
	orig := mustCreate(t, s, "orig", "/w")
	for i := range 5 {
		mustAppend(t, s, orig.ID, sampleMessage(i))
	}
	if err := s.SetSummary(orig.ID, "the story so far", 3); err != nil {
		t.Fatal(err)
	}
	orig, _ = s.Get("orig")
	origMsgs, _ := s.Messages(orig.ID, 0)

	fork, err := s.Fork("orig", "try-b")
	if err != nil {
		t.Fatal(err)
	}
	if fork.ID == orig.ID || fork.Name != "try-b" || fork.ForkOf != orig.ID {
		t.Errorf("fork = %+v: want a new id, the new name and ForkOf the original", fork)
	}
	if fork.Summary != orig.Summary || fork.SummaryThrough != 3 || fork.MessageCount != 5 ||
		fork.Title != orig.Title || fork.Usage != orig.Usage || fork.Dir != orig.Dir || fork.Model != orig.Model {
		t.Errorf("fork %+v did not copy %+v", fork, orig)
	}
	if latest, _ := s.Latest("/w"); latest.ID != fork.ID {
		t.Errorf("Latest after a fork = %s, want the fork %s", latest.ID, fork.ID)
	}
	forkMsgs, _ := s.Messages(fork.ID, 0)
	if !sameMessages(forkMsgs, origMsgs) {
		t.Errorf("fork messages differ from the original's")
	}

	if seq := mustAppend(t, s, fork.ID, chat.Message{Role: chat.RoleUser, Content: "only in the fork"}); seq != 6 {
		t.Errorf("first message of the fork got seq %d, want 6", seq)
	}
	if err := s.SetSummary(fork.ID, "fork summary", 6); err != nil {
		t.Fatal(err)
	}
	after, _ := s.Get(orig.ID)
	afterMsgs, _ := s.Messages(orig.ID, 0)
	if !sameSessions([]Session{after}, []Session{orig}) || !sameMessages(afterMsgs, origMsgs) {
		t.Errorf("changing the fork changed the original: %+v", after)
	}

	mustAppend(t, s, orig.ID, chat.Message{Role: chat.RoleUser, Content: "only in the original"})
	if err := s.Delete(orig.ID); err != nil {
		t.Fatal(err)
	}
	forkAfter, err := s.Get("try-b")
	if err != nil {
		t.Fatal(err)
	}
	forkMsgs, _ = s.Messages(fork.ID, 0)
	if len(forkMsgs) != 6 || forkMsgs[5].Content != "only in the fork" || forkAfter.Summary != "fork summary" {
		t.Errorf("fork after the original was changed and deleted: %d messages, summary %q", len(forkMsgs), forkAfter.Summary)
	}

	unnamed, err := s.Fork("try-b", "")
	if err != nil || unnamed.Name != "" || unnamed.MessageCount != 6 {
		t.Errorf("unnamed fork = %+v, %v", unnamed, err)
	}
}

func TestDeleteRemovesEverything(t *testing.T) {
	s := newTestStore(t)
	gone := mustCreate(t, s, "gone", "/w")
	kept := mustCreate(t, s, "kept", "/w")
	mustAppend(t, s, gone.ID, chat.Message{Role: chat.RoleUser, Content: "bye"})
	mustAppend(t, s, kept.ID, chat.Message{Role: chat.RoleUser, Content: "stay"})
	if err := s.SetSummary(gone.ID, "s", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Messages(gone.ID, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("messages of a deleted session: %v", err)
	}
	list, _ := s.List()
	if len(list) != 1 || list[0].ID != kept.ID {
		t.Errorf("List after Delete = %+v", list)
	}
	if msgs, _ := s.Messages(kept.ID, 0); len(msgs) != 1 {
		t.Errorf("Delete touched another session's messages: %+v", msgs)
	}
}

func TestConcurrentUseFromOneProcess(t *testing.T) {
	// Two Store values on one file behave like two processes (each opens its
	// own descriptor and takes the file lock); goroutines share each Store.
	path := newTestStore(t).Path()
	stores := make([]*Store, 2)
	for i := range stores {
		var err error
		if stores[i], err = Open(path, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	sess := mustCreate(t, stores[0], "shared", "/w")
	const writers, each = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each*2)
	for w := range writers {
		st := stores[w%2]
		wg.Go(func() {
			for range each {
				if _, err := st.Append(sess.ID, chat.Message{Role: chat.RoleUser, Content: "x"}); err != nil {
					errs <- err
				}
				if _, err := st.List(); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	msgs, err := stores[1].Messages(sess.ID, 0)
	if err != nil || len(msgs) != writers*each {
		t.Fatalf("got %d messages, %v; want %d", len(msgs), err, writers*each)
	}
	for i, m := range msgs {
		if m.Seq != uint64(i+1) {
			t.Fatalf("message %d has seq %d: numbering has gaps or repeats", i+1, m.Seq)
		}
	}
}

// TestUnknownSessionSaysWhereTheListIs: a name that finds no session says
// so with the command that lists them (those of pincer run too).
func TestUnknownSessionSaysWhereTheListIs(t *testing.T) {
	s := newTestStore(t)
	mustCreate(t, s, "alpha", "/w")
	for _, ref := range []string{"alhpa", "01ZZZZZZ", "my stream"} {
		_, err := s.Get(ref)
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get(%q) = %v, want ErrNotFound", ref, err)
		}
		if !strings.Contains(err.Error(), "'pincer sessions --all' lists them") {
			t.Errorf("Get(%q): %q names no way to the list", ref, err)
		}
	}
}
