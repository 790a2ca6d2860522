package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
)

// oldSession is a session written as the first schema wrote it.
type oldSession struct {
	id, name string
	msgs     []chat.Message
}

// oldSessions returns sessions with enough messages of every kind to fill a
// segment and leave some pending.
func oldSessions() []oldSession {
	base := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	var out []oldSession
	for i := range 3 {
		created := base.Add(time.Duration(i) * time.Hour)
		id, err := newID(created)
		if err != nil {
			panic(err)
		}
		sess := oldSession{id: id, name: fmt.Sprintf("old-%d", i)}
		for j := range 120 {
			m := sampleMessage(j)
			m.Time = created.Add(time.Duration(j) * time.Minute)
			sess.msgs = append(sess.msgs, m)
		}
		sess.msgs = append(sess.msgs,
			chat.Message{Role: chat.RoleSystem, Content: "You are pincer.", Time: created},
			chat.Message{Role: chat.RoleSystem, Kind: chat.KindSummary, Content: fmt.Sprintf("Summary %d: the tokenizer rewrite landed.", i), Time: created})
		out = append(out, sess)
	}
	return out
}

// writeOldStore makes a store of schema 1 at path holding sessions, written
// as that schema's Create and Append wrote them: no index, no tasks.
func writeOldStore(t *testing.T, path string, sessions []oldSession) {
	t.Helper()
	if _, err := open(path, Options{}, migrations[:1]); err != nil {
		t.Fatal(err)
	}
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		for _, o := range sessions {
			rec := toSessionRecord(Session{ID: o.id, Name: o.name, Dir: "/work/old", Created: o.msgs[0].Time, Updated: o.msgs[0].Time})
			if err := claimName(tx, rec.Name, rec.ID); err != nil {
				return err
			}
			if err := insertSession(tx, rec); err != nil {
				return err
			}
			msgs, err := messageBucket(tx, o.id)
			if err != nil {
				return err
			}
			for _, m := range o.msgs {
				seq, err := msgs.NextSequence()
				if err != nil {
					return err
				}
				m.Seq = seq
				raw, err := json.Marshal(toMessageRecord(m))
				if err != nil {
					return err
				}
				if err := msgs.Put(seqKey(seq), raw); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if got := schemaOf(t, path); got != 1 {
		t.Fatalf("the old store has schema %d, want 1", got)
	}
}

func TestMigrationIndexesExistingMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("slow; go test without -short (or .ci/run) runs it")
	}
	sessions := oldSessions()
	oldPath := filepath.Join(t.TempDir(), fileName)
	writeOldStore(t, oldPath, sessions)

	// The same sessions, appended one message at a time by this version.
	newPath := filepath.Join(t.TempDir(), fileName)
	fresh, err := Open(newPath, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rawUpdate(t, newPath, func(tx *bolt.Tx) error {
		for _, o := range sessions {
			rec := toSessionRecord(Session{ID: o.id, Name: o.name, Dir: "/work/old", Created: o.msgs[0].Time, Updated: o.msgs[0].Time})
			if err := insertSession(tx, rec); err != nil {
				return err
			}
		}
		return nil
	})
	for _, o := range sessions {
		for _, m := range o.msgs {
			mustAppend(t, fresh, o.id, m)
		}
	}

	migrated, err := Open(oldPath, Options{})
	if err != nil {
		t.Fatalf("Open of a schema 1 store: %v", err)
	}
	if got := schemaOf(t, oldPath); got != uint64(len(migrations)) {
		t.Errorf("schema after Open = %d, want %d", got, len(migrations))
	}
	got, want := readIndex(t, oldPath), readIndex(t, newPath)
	if len(want.docs) != 3*121 {
		t.Fatalf("the appended store indexed %d messages, want %d (all but the system prompts)", len(want.docs), 3*121)
	}
	if !maps.Equal(got.docs, want.docs) || !maps.Equal(got.postings, want.postings) ||
		got.totals.docs != want.totals.docs || got.totals.length != want.totals.length {
		t.Errorf("the migrated index (%d messages, %d postings, %+v) differs from the appended one (%d, %d, %+v)",
			len(got.docs), len(got.postings), got.totals, len(want.docs), len(want.postings), want.totals)
	}

	hits, err := migrated.Search("tokenizer rewrite", SearchOptions{})
	if err != nil || len(hits) != 3 || hits[0].Kind != chat.KindSummary {
		t.Errorf("search of the migrated store = %+v, %v; want the three summaries", hits, err)
	}
	if _, err := migrated.AddTask(Task{Prompt: "check the build", Next: time.Now()}); err != nil {
		t.Errorf("AddTask on the migrated store: %v", err)
	}
	say(t, migrated, sessions[0].id, "a new message after the upgrade mentions zeppelin")
	if hits := mustSearch(t, migrated, "zeppelin", SearchOptions{}); len(hits) != 1 {
		t.Errorf("a message appended after the upgrade: hits %+v", hits)
	}
	checkIndex(t, oldPath)
}

func TestMigrationOfAnUnreadableMessageChangesNothing(t *testing.T) {
	sessions := oldSessions()[:1]
	path := filepath.Join(t.TempDir(), fileName)
	writeOldStore(t, path, sessions)
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		msgs, err := messageBucket(tx, sessions[0].id)
		if err != nil {
			return err
		}
		return msgs.Put(seqKey(5), []byte("{not json"))
	})
	before := readFile(t, path)

	_, err := Open(path, Options{})
	if err == nil {
		t.Fatal("Open indexed a store with an unreadable message")
	}
	for _, part := range []string{path, "schema 1 to 2", "message 5", sessions[0].id} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q should mention %q", err, part)
		}
	}
	if !bytes.Equal(before, readFile(t, path)) {
		t.Error("the failed upgrade changed the file")
	}
	if got := schemaOf(t, path); got != 1 {
		t.Errorf("schema after the failed upgrade = %d, want 1", got)
	}
}
