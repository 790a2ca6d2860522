package session

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bucketMemory holds the notes people asked pincer to remember: big-endian
// note id → JSON note record.
const bucketMemory = "memory"

// maxNoteBytes bounds one note: memory is for facts and decisions, not for
// files.
const maxNoteBytes = 4 << 10

// Note is one thing a person (or the model, with the person's approval)
// asked pincer to remember for a project. Notes are always considered by
// recall, ranked above old messages.
type Note struct {
	ID      uint64    `json:"id"`
	Dir     string    `json:"dir"`
	Text    string    `json:"text"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

type noteRecord struct {
	V       int       `json:"v"`
	ID      uint64    `json:"id"`
	Dir     string    `json:"dir"`
	Text    string    `json:"text"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

// createMemory creates the bucket of notes.
func createMemory(tx *bolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists([]byte(bucketMemory)); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketMemory, err)
	}
	return nil
}

// rebuildSearchIndex drops the full-text index and indexes every message
// again, for a change to what is indexed: schema 5 leaves out text that
// looks like a secret, so an older index may hold some.
func rebuildSearchIndex(tx *bolt.Tx) error {
	if tx.Bucket([]byte(bucketIndex)) != nil {
		if err := tx.DeleteBucket([]byte(bucketIndex)); err != nil {
			return fmt.Errorf("drop the search index: %w", err)
		}
	}
	return buildSearchIndex(tx)
}

// createMemoryAndReindex is the step to schema 5: the notes bucket, and an
// index without secrets.
func createMemoryAndReindex(tx *bolt.Tx) error {
	if err := createMemory(tx); err != nil {
		return err
	}
	return rebuildSearchIndex(tx)
}

// checkNote refuses an empty or oversized note.
func checkNote(text string) (string, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return "", fmt.Errorf("the note is empty; write what to remember")
	case len(text) > maxNoteBytes:
		return "", fmt.Errorf("the note is %d bytes, more than the %d a note may hold; keep it to the fact or decision to remember", len(text), maxNoteBytes)
	}
	return text, nil
}

// AddNote stores a note for the project in dir and returns it.
func (s *Store) AddNote(dir, text string) (Note, error) {
	text, err := checkNote(text)
	if err != nil {
		return Note{}, err
	}
	if dir, err = cleanDir(dir); err != nil {
		return Note{}, err
	}
	now := s.now().UTC()
	rec := noteRecord{V: recordVersion, Dir: dir, Text: text, Created: now, Updated: now}
	err = s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketMemory))
		id, err := b.NextSequence()
		if err != nil {
			return fmt.Errorf("number note: %w", err)
		}
		rec.ID = id
		return putNote(b, rec)
	})
	if err != nil {
		return Note{}, fmt.Errorf("remember note: %w", err)
	}
	return rec.note(), nil
}

// Notes returns the notes of the project in dir, or of every project when
// dir is "", oldest first.
func (s *Store) Notes(dir string) ([]Note, error) {
	if dir != "" {
		var err error
		if dir, err = cleanDir(dir); err != nil {
			return nil, err
		}
	}
	var out []Note
	err := s.view(func(tx *bolt.Tx) error {
		return eachNote(tx, func(r noteRecord) error {
			if dir == "" || r.Dir == dir {
				out = append(out, r.note())
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list notes: %w", err)
	}
	return out, nil
}

// GetNote returns the note with the given id.
func (s *Store) GetNote(id uint64) (Note, error) {
	var rec noteRecord
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		rec, err = loadNote(tx, id)
		return err
	})
	return rec.note(), err
}

// EditNote replaces the text of the note with the given id.
func (s *Store) EditNote(id uint64, text string) (Note, error) {
	text, err := checkNote(text)
	if err != nil {
		return Note{}, err
	}
	var rec noteRecord
	err = s.update(func(tx *bolt.Tx) error {
		if rec, err = loadNote(tx, id); err != nil {
			return err
		}
		rec.Text, rec.Updated = text, s.now().UTC()
		return putNote(tx.Bucket([]byte(bucketMemory)), rec)
	})
	return rec.note(), err
}

// DeleteNote removes the note with the given id.
func (s *Store) DeleteNote(id uint64) error {
	return s.update(func(tx *bolt.Tx) error {
		if _, err := loadNote(tx, id); err != nil {
			return err
		}
		return tx.Bucket([]byte(bucketMemory)).Delete(noteKey(id))
	})
}

// ParseNoteID reads a note id as people type it ("3" or "#3").
func ParseNoteID(s string) (uint64, error) {
	id, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(s), "#"), 10, 64)
	if err != nil || id == 0 {
		return 0, newError(ErrNotFound, nil, "%q is not a note id; 'pincer memory list' shows the ids", s)
	}
	return id, nil
}

func (r noteRecord) note() Note {
	return Note{ID: r.ID, Dir: r.Dir, Text: r.Text, Created: r.Created, Updated: r.Updated}
}

func noteKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

func putNote(b *bolt.Bucket, rec noteRecord) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode note %d: %w", rec.ID, err)
	}
	if err := b.Put(noteKey(rec.ID), raw); err != nil {
		return fmt.Errorf("store note %d: %w", rec.ID, err)
	}
	return nil
}

func loadNote(tx *bolt.Tx, id uint64) (noteRecord, error) {
	raw := tx.Bucket([]byte(bucketMemory)).Get(noteKey(id))
	if raw == nil {
		return noteRecord{}, newError(ErrNotFound, nil, "there is no note %d; 'pincer memory list' shows the notes", id)
	}
	var rec noteRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return noteRecord{}, fmt.Errorf("note %d is damaged (%v); remove it with 'pincer memory rm %d'", id, err, id)
	}
	return rec, nil
}

// eachNote calls fn for every readable note, in id order; a damaged note
// is skipped so that it hides nothing else.
func eachNote(tx *bolt.Tx, fn func(noteRecord) error) error {
	return tx.Bucket([]byte(bucketMemory)).ForEach(func(_, raw []byte) error {
		var rec noteRecord
		if json.Unmarshal(raw, &rec) != nil {
			return nil
		}
		return fn(rec)
	})
}

// SetPrivate marks the session ref private (never indexed, so never
// searched or recalled) or clears the mark, and returns the session. Its
// messages leave or join the index in the same transaction.
func (s *Store) SetPrivate(ref string, private bool) (Session, error) {
	return s.setRecallFlag(ref, func(r *sessionRecord) { r.Private = private })
}

// SetForgotten takes the session ref out of search and recall without
// deleting it, or brings it back, and returns the session.
func (s *Store) SetForgotten(ref string, forgotten bool) (Session, error) {
	return s.setRecallFlag(ref, func(r *sessionRecord) { r.Forgotten = forgotten })
}

func (s *Store) setRecallFlag(ref string, set func(*sessionRecord)) (Session, error) {
	var out Session
	err := s.update(func(tx *bolt.Tx) error {
		rec, err := resolve(tx, ref)
		if err != nil {
			return err
		}
		was := rec.unrecalled()
		set(&rec)
		if err := putSession(tx, rec); err != nil {
			return err
		}
		switch now := rec.unrecalled(); {
		case now && !was:
			err = dropSessionIndex(tx, rec.ID)
		case !now && was:
			err = indexSessions(tx, []string{rec.ID})
		}
		out = rec.session()
		return err
	})
	return out, err
}
