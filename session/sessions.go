package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/oklog/ulid/v2"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Create starts a new session from sess.Name, sess.Dir, sess.Model and
// sess.Headless and sess.Private; the other fields are ignored. It assigns the id and the times and returns the
// stored session. A name must be unique (ErrNameTaken) and valid
// (ErrInvalidName); the directory is required.
func (s *Store) Create(sess Session) (Session, error) {
	if sess.Name != "" {
		if err := validateName(sess.Name); err != nil {
			return Session{}, err
		}
	}
	dir, err := cleanDir(sess.Dir)
	if err != nil {
		return Session{}, err
	}
	now := s.now()
	id, err := newID(now)
	if err != nil {
		return Session{}, err
	}
	rec := toSessionRecord(Session{ID: id, Name: sess.Name, Dir: dir, Model: sess.Model, Created: now, Updated: now, Headless: sess.Headless, Private: sess.Private})
	err = s.update(func(tx *bolt.Tx) error {
		if err := claimName(tx, rec.Name, rec.ID); err != nil {
			return err
		}
		return insertSession(tx, rec)
	})
	if err != nil {
		return Session{}, err
	}
	return rec.session(), nil
}

// Get finds a session by name, by id, or by a unique id prefix of at least
// six characters, and returns it with its summary.
func (s *Store) Get(ref string) (Session, error) {
	var out Session
	err := s.view(func(tx *bolt.Tx) error {
		rec, err := resolve(tx, ref)
		if err != nil {
			return err
		}
		out = withSummary(tx, rec)
		return nil
	})
	return out, err
}

// Latest returns the most recently updated session of the working directory
// dir, so "continue" picks up where the person left off in this project.
func (s *Store) Latest(dir string) (Session, error) {
	dir, err := cleanDir(dir)
	if err != nil {
		return Session{}, err
	}
	var out Session
	err = s.view(func(tx *bolt.Tx) error {
		var best sessionRecord
		found := false
		ids := tx.Bucket([]byte(bucketDirs)).Bucket([]byte(dir))
		if ids != nil {
			sessions := tx.Bucket([]byte(bucketSessions))
			err := ids.ForEach(func(id, _ []byte) error {
				rec, err := loadSession(sessions, string(id))
				if errors.Is(err, ErrDamagedRecord) || errors.Is(err, ErrNotFound) {
					return nil // the latest readable one is the best there is
				}
				if err != nil {
					return err
				}
				if !found || newer(rec, best) {
					best, found = rec, true
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		if !found {
			return newError(ErrNotFound, nil, "no session has been started in %s yet", dir)
		}
		out = withSummary(tx, best)
		return nil
	})
	return out, err
}

// List returns the sessions a person works in, most recently updated
// first: every readable session but the Headless ones. To stay fast with
// many sessions it leaves Summary empty (SummaryThrough is set); Get
// returns a session with its summary. ListAll has the Headless ones too,
// and names the sessions whose records are damaged.
func (s *Store) List() ([]Session, error) {
	all, _, err := s.ListAll()
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(x Session) bool { return x.Headless }), nil
}

// SetHeadless sets or clears the Headless mark of the session with the
// given id.
func (s *Store) SetHeadless(id string, headless bool) error {
	return s.update(func(tx *bolt.Tx) error {
		rec, err := loadSession(tx.Bucket([]byte(bucketSessions)), id)
		if err != nil {
			return err
		}
		if rec.Headless == headless {
			return nil
		}
		rec.Headless = headless
		return putSession(tx, rec)
	})
}

// Unreadable is a stored session whose record cannot be decoded: a flipped
// bit on disk, say. Err says why and how to delete it.
type Unreadable struct {
	ID  string
	Err error
}

// ListAll returns every readable session, Headless ones included, most
// recently updated first like List, and the sessions whose records cannot
// be read, so a damaged record hides nothing else and can be named.
func (s *Store) ListAll() ([]Session, []Unreadable, error) {
	var recs []sessionRecord
	var bad []Unreadable
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketSessions)).ForEach(func(k, raw []byte) error {
			rec, err := decodeSession(string(k), raw)
			if err != nil {
				bad = append(bad, Unreadable{ID: string(k), Err: err})
				return nil
			}
			recs = append(recs, rec)
			return nil
		})
	})
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(recs, func(a, b sessionRecord) int {
		switch {
		case newer(a, b):
			return -1
		case newer(b, a):
			return 1
		}
		return 0
	})
	out := make([]Session, len(recs))
	for i, rec := range recs {
		out[i] = rec.session()
	}
	return out, bad, nil
}

// SetSummary stores the compressed history of the session with the given id,
// covering messages 1..through. An empty summary with through 0 removes it.
func (s *Store) SetSummary(id, summary string, through uint64) error {
	if summary == "" && through != 0 {
		return fmt.Errorf("set summary of session %s: an empty summary cannot cover messages 1..%d", id, through)
	}
	return s.update(func(tx *bolt.Tx) error {
		rec, err := loadSession(tx.Bucket([]byte(bucketSessions)), id)
		if err != nil {
			return err
		}
		if last := lastSeq(tx, id); through > last {
			return fmt.Errorf("set summary of session %s: it covers message %d but the session has only %d", id, through, last)
		}
		summaries := tx.Bucket([]byte(bucketSummaries))
		if summary == "" {
			err = summaries.Delete([]byte(id))
		} else {
			err = summaries.Put([]byte(id), []byte(summary))
		}
		if err != nil {
			return fmt.Errorf("store summary of session %s: %w", id, err)
		}
		rec.SummaryThrough = through
		rec.Updated = s.now().UTC()
		return putSession(tx, rec)
	})
}

// SetModel records the model the session now talks to, so resuming it picks
// the same one.
func (s *Store) SetModel(id, model string) error {
	return s.update(func(tx *bolt.Tx) error {
		rec, err := loadSession(tx.Bucket([]byte(bucketSessions)), id)
		if err != nil {
			return err
		}
		rec.Model = model
		return putSession(tx, rec)
	})
}

// Rename gives the session found by ref a new name, which must be valid and
// not belong to another session.
func (s *Store) Rename(ref, newName string) error {
	if err := validateName(newName); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		rec, err := resolve(tx, ref)
		if err != nil {
			return err
		}
		if rec.Name == newName {
			return nil
		}
		if err := claimName(tx, newName, rec.ID); err != nil {
			return err
		}
		if rec.Name != "" {
			if err := tx.Bucket([]byte(bucketNames)).Delete([]byte(rec.Name)); err != nil {
				return fmt.Errorf("release name %q: %w", rec.Name, err)
			}
		}
		rec.Name = newName
		rec.Headless = false // a named session is one to keep in view
		return putSession(tx, rec)
	})
}

// Delete removes the session found by ref with its messages, summary, search
// index entries, checkpoints, rewinds and scheduled tasks (which could no
// longer run in it). The snapshots its checkpoints name are not the store's
// to delete: ask CheckpointIDs first.
func (s *Store) Delete(ref string) error {
	return s.update(func(tx *bolt.Tx) error {
		rec, err := resolve(tx, ref)
		var se *storeError
		if errors.Is(err, ErrDamagedRecord) && errors.As(err, &se) {
			// The record cannot say its name or directory: look for the
			// entries that point at its id instead.
			return deleteDamaged(tx, se.subject)
		}
		if err != nil {
			return err
		}
		if rec.Name != "" {
			if err := tx.Bucket([]byte(bucketNames)).Delete([]byte(rec.Name)); err != nil {
				return fmt.Errorf("delete name %q: %w", rec.Name, err)
			}
		}
		if err := unlistDir(tx, rec.Dir, rec.ID); err != nil {
			return err
		}
		return deleteContents(tx, rec.ID)
	})
}

// unlistDir removes session id from the index of directory dir.
func unlistDir(tx *bolt.Tx, dir, id string) error {
	dirs := tx.Bucket([]byte(bucketDirs))
	ids := dirs.Bucket([]byte(dir))
	if ids == nil {
		return nil
	}
	if err := ids.Delete([]byte(id)); err != nil {
		return fmt.Errorf("unlist session %s from %s: %w", id, dir, err)
	}
	if k, _ := ids.Cursor().First(); k == nil {
		if err := dirs.DeleteBucket([]byte(dir)); err != nil {
			return fmt.Errorf("drop directory index %s: %w", dir, err)
		}
	}
	return nil
}

// deleteContents removes what is stored under a session's id: its search
// index entries, tasks, checkpoints, rewinds, messages, summary and record.
func deleteContents(tx *bolt.Tx, rawID string) error {
	id := []byte(rawID)
	if err := dropSessionIndex(tx, rawID); err != nil {
		return err
	}
	if err := dropSessionTasks(tx, rawID); err != nil {
		return err
	}
	for _, top := range []string{bucketCheckpoints, bucketRewinds} {
		if err := deleteSessionBucket(tx, top, rawID); err != nil {
			return err
		}
	}
	if err := tx.Bucket([]byte(bucketMessages)).DeleteBucket(id); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
		return fmt.Errorf("delete messages of session %s: %w", rawID, err)
	}
	if err := tx.Bucket([]byte(bucketSummaries)).Delete(id); err != nil {
		return fmt.Errorf("delete summary of session %s: %w", rawID, err)
	}
	if err := tx.Bucket([]byte(bucketSessions)).Delete(id); err != nil {
		return fmt.Errorf("delete session %s: %w", rawID, err)
	}
	return nil
}

// deleteDamaged removes a session whose record cannot be read, finding its
// name and directory entries by the id they point at.
func deleteDamaged(tx *bolt.Tx, id string) error {
	var names, dirs [][]byte
	err := tx.Bucket([]byte(bucketNames)).ForEach(func(name, owner []byte) error {
		if string(owner) == id {
			names = append(names, bytes.Clone(name))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("find the name of session %s: %w", id, err)
	}
	err = tx.Bucket([]byte(bucketDirs)).ForEachBucket(func(dir []byte) error {
		if tx.Bucket([]byte(bucketDirs)).Bucket(dir).Get([]byte(id)) != nil {
			dirs = append(dirs, bytes.Clone(dir))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("find the directory of session %s: %w", id, err)
	}
	for _, name := range names {
		if err := tx.Bucket([]byte(bucketNames)).Delete(name); err != nil {
			return fmt.Errorf("delete name %q: %w", name, err)
		}
	}
	for _, dir := range dirs {
		if err := unlistDir(tx, string(dir), id); err != nil {
			return err
		}
	}
	return deleteContents(tx, id)
}

// Fork copies the session found by ref — its metadata, summary, every
// message and their search index entries, its checkpoints and rewinds —
// into a new session with a new id and the given name (empty for none), so
// the person can try another path without losing the first. The fork
// refers to the same snapshots as the original.
func (s *Store) Fork(ref, newName string) (Session, error) {
	if newName != "" {
		if err := validateName(newName); err != nil {
			return Session{}, err
		}
	}
	now := s.now()
	id, err := newID(now)
	if err != nil {
		return Session{}, err
	}
	var out Session
	err = s.update(func(tx *bolt.Tx) error {
		src, err := resolve(tx, ref)
		if err != nil {
			return err
		}
		if err := claimName(tx, newName, id); err != nil {
			return err
		}
		rec := src
		rec.ID, rec.Name, rec.ForkOf = id, newName, src.ID
		rec.Headless = false
		rec.Created, rec.Updated = now.UTC(), now.UTC()
		if err := insertSession(tx, rec); err != nil {
			return err
		}
		if err := copyMessages(tx, src.ID, id); err != nil {
			return err
		}
		if err := indexSessions(tx, []string{id}); err != nil {
			return err
		}
		for _, top := range []string{bucketCheckpoints, bucketRewinds} {
			if err := copySessionBucket(tx, top, src.ID, id); err != nil {
				return err
			}
		}
		summaries := tx.Bucket([]byte(bucketSummaries))
		if summary := summaries.Get([]byte(src.ID)); summary != nil {
			if err := summaries.Put([]byte(id), bytes.Clone(summary)); err != nil {
				return fmt.Errorf("copy summary: %w", err)
			}
		}
		out = withSummary(tx, rec)
		return nil
	})
	return out, err
}

// newer orders sessions by last activity, then by id.
func newer(a, b sessionRecord) bool {
	if !a.Updated.Equal(b.Updated) {
		return a.Updated.After(b.Updated)
	}
	return a.ID > b.ID
}

// withSummary converts rec and adds its summary.
func withSummary(tx *bolt.Tx, rec sessionRecord) Session {
	sess := rec.session()
	sess.Summary = string(tx.Bucket([]byte(bucketSummaries)).Get([]byte(rec.ID)))
	return sess
}

// claimName reserves name for the session id; an empty name claims nothing.
func claimName(tx *bolt.Tx, name, id string) error {
	if name == "" {
		return nil
	}
	names := tx.Bucket([]byte(bucketNames))
	if owner := names.Get([]byte(name)); owner != nil && string(owner) != id {
		return newError(ErrNameTaken, nil, "the session name %q is already taken by session %s; choose another name", name, owner)
	}
	if err := names.Put([]byte(name), []byte(id)); err != nil {
		return fmt.Errorf("claim name %q: %w", name, err)
	}
	return nil
}

// insertSession stores a new session's record, its directory entry and its
// empty message bucket.
func insertSession(tx *bolt.Tx, rec sessionRecord) error {
	if tx.Bucket([]byte(bucketSessions)).Get([]byte(rec.ID)) != nil {
		return fmt.Errorf("create session: the id %s is already in use", rec.ID)
	}
	ids, err := tx.Bucket([]byte(bucketDirs)).CreateBucketIfNotExists([]byte(rec.Dir))
	if err != nil {
		return fmt.Errorf("index directory %s: %w", rec.Dir, err)
	}
	if err := ids.Put([]byte(rec.ID), nil); err != nil {
		return fmt.Errorf("index directory %s: %w", rec.Dir, err)
	}
	if _, err := tx.Bucket([]byte(bucketMessages)).CreateBucket([]byte(rec.ID)); err != nil {
		return fmt.Errorf("create message bucket of %s: %w", rec.ID, err)
	}
	return putSession(tx, rec)
}

// putSession writes a session record.
func putSession(tx *bolt.Tx, rec sessionRecord) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode session %s: %w", rec.ID, err)
	}
	if err := tx.Bucket([]byte(bucketSessions)).Put([]byte(rec.ID), raw); err != nil {
		return fmt.Errorf("store session %s: %w", rec.ID, err)
	}
	return nil
}

// cleanDir normalises a working directory for use as an index key.
func cleanDir(dir string) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("a session needs its working directory; none was given")
	}
	dir = filepath.Clean(dir)
	if len(dir) > bolt.MaxKeySize {
		return "", fmt.Errorf("the working directory path is longer than %d bytes and cannot be stored", bolt.MaxKeySize)
	}
	return dir, nil
}

// newID makes a session id that sorts by creation time.
func newID(now time.Time) (string, error) {
	id, err := ulid.New(ulid.Timestamp(now), ulid.DefaultEntropy())
	if err != nil {
		return "", fmt.Errorf("make session id: %w", err)
	}
	return id.String(), nil
}
