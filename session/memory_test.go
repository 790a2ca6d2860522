package session

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
)

func TestRedactSecrets(t *testing.T) {
	tests := []struct {
		text   string
		secret string // "" when nothing may be taken out
	}{
		{"export OPENAI_API_KEY=sk-proj-AbCdEfGhIjKlMnOpQrStUv123456", "sk-proj-AbCdEfGhIjKlMnOpQrStUv123456"},
		{"token ghp_Zx8KqP2mW9vT4nR7sL1cY6bH3jD5fG0aE2uQ in the log", "ghp_Zx8KqP2mW9vT4nR7sL1cY6bH3jD5fG0aE2uQ"},
		{"aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU"},
		{"DB_PASSWORD=hunter2hunter2", "hunter2hunter2"},
		{`"password": "correct horse battery"`, "correct"},
		{"Authorization: Bearer abcdefghijklmnop1234567890", "abcdefghijklmnop1234567890"},
		{"postgres://app:s3cr3tpass@db.internal:5432/app", "s3cr3tpass"},
		{"slack xoxb-123456789012-abcdefghijkl", "xoxb-123456789012-abcdefghijkl"},
		{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJhbGciOiJIUzI1NiJ9"},
		{"key Q3vX9pL2mN8kR4tY7wZ1bC5dF6gH0jK2aS4e", "Q3vX9pL2mN8kR4tY7wZ1bC5dF6gH0jK2aS4e"},
		// Not secrets: hashes, ids, paths, identifiers, plain prose.
		{"commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it", ""},
		{"request 123e4567-e89b-12d3-a456-426614174000 failed", ""},
		{"see internal/safefile/safefile.go and TestAutoRecallOnTheTuningSetWithManyWords", ""},
		{"the staging database runs on port 5433", ""},
		{"the password reset page is broken", ""},
	}
	for _, tt := range tests {
		got, found := redactSecrets(tt.text)
		if tt.secret == "" {
			if found || got != tt.text {
				t.Errorf("redactSecrets(%q) = %q, %v; want it unchanged", tt.text, got, found)
			}
			continue
		}
		if !found || strings.Contains(got, tt.secret) {
			t.Errorf("redactSecrets(%q) = %q, %v; want %q taken out", tt.text, got, found, tt.secret)
		}
	}
}

func TestSecretsAreNeitherIndexedNorShown(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "deploy", "/p")
	mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleTool, ToolCallID: "c1", ToolName: "read_file",
		Content: "DEPLOY_TOKEN=ghp_Zx8KqP2mW9vT4nR7sL1cY6bH3jD5fG0aE2uQ\nDEPLOY_HOST=ibis.example"})
	if hits := mustSearch(t, s, "ghp_Zx8KqP2mW9vT4nR7sL1cY6bH3jD5fG0aE2uQ", SearchOptions{}); len(hits) != 0 {
		t.Errorf("the secret is searchable: %+v", hits)
	}
	hits := mustSearch(t, s, "ibis deploy", SearchOptions{})
	if len(hits) != 1 || strings.Contains(hits[0].Snippet, "Zx8KqP2") {
		t.Errorf("hits %+v: want the message, without its secret", hits)
	}
}

// TestRecalledNotesHideSecrets: a saved note may hold a key; recall
// finds the note by its other words and passes it on without the key.
func TestRecalledNotesHideSecrets(t *testing.T) {
	s := newTestStore(t)
	if _, err := s.AddNote("/p", "the ibis deploy uses DEPLOY_TOKEN=ghp_Zx8KqP2mW9vT4nR7sL1cY6bH3jD5fG0aE2uQ"); err != nil {
		t.Fatal(err)
	}
	hits, err := s.Recall("how does the ibis deploy work", RecallOptions{Dir: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].NoteID == 0 {
		t.Fatalf("hits %+v, want the note", hits)
	}
	if strings.Contains(hits[0].Snippet, "Zx8KqP2") || !strings.Contains(hits[0].Snippet, "ibis deploy") {
		t.Errorf("recalled note %q: want its words without the key", hits[0].Snippet)
	}
}

func TestNotes(t *testing.T) {
	s := newTestStore(t)
	a, err := s.AddNote("/p", "  the staging database listens on 5433  ")
	if err != nil || a.ID != 1 || a.Text != "the staging database listens on 5433" {
		t.Fatalf("AddNote = %+v, %v", a, err)
	}
	if _, err := s.AddNote("/q", "another project's note"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "   ", strings.Repeat("x", maxNoteBytes+1)} {
		if _, err := s.AddNote("/p", bad); err == nil {
			t.Errorf("AddNote(%d bytes) accepted", len(bad))
		}
	}
	if n, err := s.Notes("/p"); err != nil || len(n) != 1 || n[0].ID != 1 {
		t.Errorf("Notes(/p) = %+v, %v", n, err)
	}
	if n, err := s.Notes(""); err != nil || len(n) != 2 {
		t.Errorf("Notes(all) = %+v, %v", n, err)
	}
	if n, err := s.EditNote(1, "the staging database listens on 6543"); err != nil || n.Text != "the staging database listens on 6543" || !n.Updated.After(n.Created) {
		t.Errorf("EditNote = %+v, %v", n, err)
	}
	if err := s.DeleteNote(1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetNote(1); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetNote of a removed note: %v", err)
	}
	if err := s.DeleteNote(1); !errors.Is(err, ErrNotFound) {
		t.Errorf("DeleteNote twice: %v", err)
	}
	for _, in := range []string{"x", "0", "-1", ""} {
		if _, err := ParseNoteID(in); err == nil {
			t.Errorf("ParseNoteID(%q) accepted", in)
		}
	}
	if id, err := ParseNoteID("#7"); id != 7 || err != nil {
		t.Errorf("ParseNoteID(#7) = %d, %v", id, err)
	}
}

func TestForgottenAndPrivateSessionsLeaveTheIndex(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "airship", "/p")
	say(t, s, sess.ID, "the zeppelin hangar is in hall 3")
	found := func() int { return len(mustSearch(t, s, "zeppelin", SearchOptions{})) }
	if found() != 1 {
		t.Fatal("not indexed to begin with")
	}
	if _, err := s.SetForgotten("airship", true); err != nil {
		t.Fatal(err)
	}
	say(t, s, sess.ID, "a second zeppelin arrives")
	if n := found(); n != 0 {
		t.Errorf("forgotten session: %d hits", n)
	}
	checkIndex(t, s.path)
	if _, err := s.SetForgotten("airship", false); err != nil {
		t.Fatal(err)
	}
	if n := found(); n != 2 {
		t.Errorf("after unforget: %d hits, want both messages", n)
	}
	checkIndex(t, s.path)
	got, err := s.SetPrivate("airship", true)
	if err != nil || !got.Private {
		t.Fatal(got, err)
	}
	if n := found(); n != 0 {
		t.Errorf("private session: %d hits", n)
	}
	// Forgetting a private session and remembering it keeps it private.
	if _, err := s.SetForgotten("airship", true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetForgotten("airship", false); err != nil {
		t.Fatal(err)
	}
	if n := found(); n != 0 {
		t.Errorf("private session after unforget: %d hits", n)
	}
	priv, err := s.Create(Session{Name: "born-private", Dir: "/p", Private: true})
	if err != nil || !priv.Private {
		t.Fatal(priv, err)
	}
	say(t, s, priv.ID, "zeppelin secrets")
	if n := found(); n != 0 {
		t.Errorf("a session created private was indexed: %d hits", n)
	}
	fork, err := s.Fork("born-private", "fork-of-private")
	if err != nil || !fork.Private {
		t.Fatalf("the fork of a private session = %+v, %v; want private", fork, err)
	}
	if n := found(); n != 0 {
		t.Errorf("the fork of a private session was indexed: %d hits", n)
	}
	checkIndex(t, s.path)
}

func TestRecallRelevance(t *testing.T) {
	s := newTestStore(t)
	a := mustCreate(t, s, "db", "/p")
	say(t, s, a.ID, "the staging database listens on port 5433", "thanks, that works", "hello there")
	b := mustCreate(t, s, "other", "/q")
	say(t, s, b.ID, "the staging database of the other project listens on port 7000")
	for _, chat := range []string{"hi", "thanks!", "hello", "ok thanks", "what can you do?"} {
		if hits, err := s.Recall(chat, RecallOptions{Dir: "/p"}); err != nil || len(hits) != 0 {
			t.Errorf("Recall(%q) = %+v, %v; want nothing", chat, hits, err)
		}
	}
	hits, err := s.Recall("which port does the staging database listen on", RecallOptions{Dir: "/p"})
	if err != nil || len(hits) != 1 || hits[0].SessionName != "db" || hits[0].Relevance < 0.5 || hits[0].Terms < 3 {
		t.Fatalf("Recall = %+v, %v; want the db message, strongly", hits, err)
	}
	if hits, _ := s.Recall("which port does the staging database listen on", RecallOptions{Dir: "/p", ExcludeSession: a.ID}); len(hits) != 0 {
		t.Errorf("the excluded session was recalled: %+v", hits)
	}
	if hits, _ := s.Recall("which port does the staging database listen on", RecallOptions{}); len(hits) != 2 {
		t.Errorf("every project: %d hits, want 2", len(hits))
	}
	// A note that says the same ranks first.
	if _, err := s.AddNote("/p", "the staging database listens on port 5433"); err != nil {
		t.Fatal(err)
	}
	hits, _ = s.Recall("which port does the staging database listen on", RecallOptions{Dir: "/p"})
	if len(hits) != 2 || hits[0].NoteID != 1 || hits[0].Kind != KindNote || hits[0].Relevance < hits[1].Relevance {
		t.Errorf("with a note: %+v; want the note first", hits)
	}
	// One shared word of a longer prompt is not a match.
	if hits, _ := s.Recall("add a port scanner to the settings page", RecallOptions{Dir: "/p"}); len(hits) != 0 {
		t.Errorf("one shared word recalled %+v", hits)
	}
}

// TestMigrationToSchema5 upgrades a schema 4 store whose index holds a
// secret: afterwards the notes bucket exists, the secret is no longer
// indexed, and the rest of the message still is.
func TestMigrationToSchema5(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	old, err := open(path, Options{}, migrations[:4])
	if err != nil {
		t.Fatal(err)
	}
	sess := mustCreate(t, old, "deploy", "/p")
	const secret = "ghp_Zx8KqP2mW9vT4nR7sL1cY6bH3jD5fG0aE2uQ"
	// Written as schema 4 indexed it: every word, the secret too.
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		msgs, err := messageBucket(tx, sess.ID)
		if err != nil {
			return err
		}
		m := toMessageRecord(chat.Message{Role: chat.RoleTool, ToolCallID: "c1", Content: "DEPLOY_TOKEN=" + secret + " host ibis"})
		m.Seq = 1
		if err := putRaw(msgs, 1, m); err != nil {
			return err
		}
		ix, err := openIndex(tx)
		if err != nil {
			return err
		}
		num, err := ix.number(sess.ID, true)
		if err != nil {
			return err
		}
		tf, length := analyse(m.Content)
		d := indexedDoc{num: num, seq: 1, time: m.Time.UnixNano(), length: uint64(length)}
		for term, n := range tf {
			d.terms = append(d.terms, termFreq{term, uint64(n)})
		}
		sortTerms(d.terms)
		if err := ix.putDoc(d); err != nil {
			return err
		}
		if err := ix.putPending(d); err != nil {
			return err
		}
		return ix.addTotals(1, int64(length), 1)
	})
	if hits := mustSearch(t, old, secret, SearchOptions{}); len(hits) != 1 {
		t.Fatalf("the schema 4 index does not hold the secret (the test proves nothing): %+v", hits)
	}
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := schemaOf(t, path); got != 5 {
		t.Errorf("schema %d, want 5", got)
	}
	if hits := mustSearch(t, s, secret, SearchOptions{}); len(hits) != 0 {
		t.Errorf("the secret is still indexed after the upgrade: %+v", hits)
	}
	if hits := mustSearch(t, s, "ibis", SearchOptions{}); len(hits) != 1 {
		t.Errorf("the rest of the message left the index: %+v", hits)
	}
	if _, err := s.AddNote("/p", "notes work after the upgrade"); err != nil {
		t.Errorf("AddNote after the upgrade: %v", err)
	}
	checkIndex(t, path)
}

func putRaw(b *bolt.Bucket, seq uint64, m messageRecord) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return b.Put(seqKey(seq), raw)
}

func sortTerms(ts []termFreq) {
	slices.SortFunc(ts, func(a, b termFreq) int { return strings.Compare(a.term, b.term) })
}

// TestNotesMatchOtherWordForms: a note says "Deploys … Fridays", the
// question "deploy on friday"; neither word is in any message.
func TestNotesMatchOtherWordForms(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "x", "/p")
	say(t, s, sess.ID, "unrelated talk about the parser")
	if _, err := s.AddNote("/p", "Deploys go out on Thursdays only, never on Fridays."); err != nil {
		t.Fatal(err)
	}
	hits, err := s.Recall("can I deploy on friday?", RecallOptions{Dir: "/p"})
	if err != nil || len(hits) != 1 || hits[0].NoteID != 1 || hits[0].Relevance < 0.5 {
		t.Errorf("Recall = %+v, %v; want the note, strongly", hits, err)
	}
}

// TestRecallPrefersStatementsToQuestions: an earlier question with the
// same words ranks below the statement that answers it.
func TestRecallPrefersStatementsToQuestions(t *testing.T) {
	s := newTestStore(t)
	a := mustCreate(t, s, "fact", "/p")
	say(t, s, a.ID, "Our staging database runs on port 5433 because the old cluster still holds 5432.", "ok", "hi", "ok")
	b := mustCreate(t, s, "asked", "/p")
	say(t, s, b.ID, "which port does the staging database listen on?", "ok")
	hits, err := s.Recall("what port is the staging database on?", RecallOptions{Dir: "/p"})
	if err != nil || len(hits) != 2 || hits[0].SessionName != "fact" {
		t.Errorf("Recall = %+v, %v; want the statement first", hits, err)
	}
}

// TestRecallAndSearchWithinSessions: a chat that may recall only its own
// sessions gets nothing from another session of the same project, nor
// the project's notes, whichever way it asks.
func TestRecallAndSearchWithinSessions(t *testing.T) {
	s := newTestStore(t)
	own := mustCreate(t, s, "tg-1", "/p")
	other := mustCreate(t, s, "tg-2", "/p")
	mustAppend(t, s, own.ID, chat.Message{Role: chat.RoleUser, Content: "the heron codename is bluewater for the launch"})
	mustAppend(t, s, other.ID, chat.Message{Role: chat.RoleUser, Content: "the heron passphrase is granite-owl-seven for the launch"})
	if _, err := s.AddNote("/p", "the heron vault key lives in the launch binder"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		sessions []string
		want     []string
		not      []string
	}{
		{"own only", []string{own.ID}, []string{"bluewater"}, []string{"granite", "binder"}},
		{"none", []string{}, nil, []string{"bluewater", "granite", "binder"}},
		{"unrestricted", nil, []string{"bluewater", "granite", "binder"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := s.Recall("heron launch", RecallOptions{Dir: "/p", Sessions: tc.sessions, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			found, err := s.Search("heron launch", SearchOptions{Dir: "/p", Sessions: tc.sessions})
			if err != nil {
				t.Fatal(err)
			}
			var recalled, searched strings.Builder
			for _, h := range rec {
				recalled.WriteString(h.Snippet + "\n")
			}
			for _, h := range found {
				searched.WriteString(h.Snippet + "\n")
			}
			for _, w := range tc.want {
				if !strings.Contains(recalled.String(), w) {
					t.Errorf("recall lacks %q:\n%s", w, recalled.String())
				}
				if w != "binder" && !strings.Contains(searched.String(), w) {
					t.Errorf("search lacks %q:\n%s", w, searched.String())
				}
			}
			for _, w := range tc.not {
				if strings.Contains(recalled.String(), w) || strings.Contains(searched.String(), w) {
					t.Errorf("%q leaked:\nrecall: %s\nsearch: %s", w, recalled.String(), searched.String())
				}
			}
		})
	}
}
