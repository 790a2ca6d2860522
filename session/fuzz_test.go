package session

import (
	"errors"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
)

// FuzzDamagedRecord stores arbitrary bytes as one session's record (what a
// flipped bit on disk leaves) next to a good session: listing never fails
// or panics, the good session is always listed, and the damaged one is
// either read back under its own id or named as unreadable.
func FuzzDamagedRecord(f *testing.F) {
	s, err := Open(filepath.Join(f.TempDir(), fileName), Options{})
	if err != nil {
		f.Fatal(err)
	}
	good, err := s.Create(Session{Name: "good", Dir: "/work"})
	if err != nil {
		f.Fatal(err)
	}
	victim, err := s.Create(Session{Dir: "/work"})
	if err != nil {
		f.Fatal(err)
	}
	var raw []byte
	if err := s.view(func(tx *bolt.Tx) error {
		raw = append(raw, tx.Bucket([]byte(bucketSessions)).Get([]byte(victim.ID))...)
		return nil
	}); err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	for i := range raw {
		b := append([]byte(nil), raw...)
		b[i] ^= 1 << (i % 8)
		f.Add(b)
	}
	f.Add([]byte{})
	f.Add([]byte("null"))
	f.Add([]byte(`{"v":1,"id":"` + victim.ID + `","message_count":-1,"created":"0000-01-01T00:00:00Z"}`))

	f.Fuzz(func(t *testing.T, record []byte) {
		_, _ = decodeMessage(record) // must not panic
		err := s.update(func(tx *bolt.Tx) error {
			return tx.Bucket([]byte(bucketSessions)).Put([]byte(victim.ID), record)
		})
		if err != nil {
			t.Fatal(err)
		}
		list, bad, err := s.ListAll()
		if err != nil {
			t.Fatalf("ListAll with one damaged record: %v", err)
		}
		seen := map[string]bool{}
		for _, sess := range list {
			seen[sess.ID] = true
		}
		if !seen[good.ID] {
			t.Fatalf("the good session is missing from %v", list)
		}
		switch {
		case len(bad) == 1 && bad[0].ID == victim.ID && errors.Is(bad[0].Err, ErrDamagedRecord):
			if seen[victim.ID] {
				t.Fatal("the damaged session is both listed and named unreadable")
			}
		case len(bad) == 0 && seen[victim.ID] && len(list) == 2:
		default:
			t.Fatalf("ListAll = %d sessions, unreadable %v", len(list), bad)
		}
		if _, err := s.Get(victim.ID); err != nil && !errors.Is(err, ErrDamagedRecord) {
			t.Fatalf("Get of the damaged session = %v, want ErrDamagedRecord", err)
		}
	})
}

// FuzzDamagedRewind stores arbitrary bytes as a session's rewind record and
// as its checkpoint record: reading the session either works or fails with
// ErrDamagedRecord naming it, never panics, and other sessions read on.
func FuzzDamagedRewind(f *testing.F) {
	s, err := Open(filepath.Join(f.TempDir(), fileName), Options{})
	if err != nil {
		f.Fatal(err)
	}
	good, err := s.Create(Session{Name: "good", Dir: "/work"})
	if err != nil {
		f.Fatal(err)
	}
	victim, err := s.Create(Session{Dir: "/work"})
	if err != nil {
		f.Fatal(err)
	}
	for _, id := range []string{good.ID, victim.ID} {
		for _, m := range []chat.Message{{Role: chat.RoleUser, Content: "a"}, {Role: chat.RoleAssistant, Content: "b"}} {
			if _, err := s.Append(id, m); err != nil {
				f.Fatal(err)
			}
		}
	}
	f.Add([]byte(`{"v":1,"from":1,"through":2,"time":"2025-01-01T00:00:00Z","code":"x"}`))
	f.Add([]byte(`{"v":1,"from":1,"through":18446744073709551615,"summary_after":3}`))
	f.Add([]byte(`{"v":1,"seq":1,"before":"a","after":"b","skipped":["x"]}`))
	f.Add([]byte("null"))
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, record []byte) {
		err := s.update(func(tx *bolt.Tx) error {
			for _, top := range []string{bucketRewinds, bucketCheckpoints} {
				b, err := tx.Bucket([]byte(top)).CreateBucketIfNotExists([]byte(victim.ID))
				if err != nil {
					return err
				}
				if err := b.Put(seqKey(1), record); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string, err error) {
			if err != nil && !errors.Is(err, ErrDamagedRecord) && !errors.Is(err, ErrRedoStale) && !errors.Is(err, ErrNothingToRedo) {
				t.Fatalf("%s with a damaged record = %v", what, err)
			}
		}
		_, err = s.Messages(victim.ID, 0)
		check("Messages", err)
		_, err = s.Checkpoints(victim.ID)
		check("Checkpoints", err)
		_, err = s.LiveSnapshots("/work")
		check("LiveSnapshots", err)
		_, err = s.Redo(victim.ID)
		check("Redo", err)
		if msgs, err := s.Messages(good.ID, 0); err != nil || len(msgs) != 2 || msgs[0].Rewound {
			t.Fatalf("the good session: %+v, %v", msgs, err)
		}
	})
}
