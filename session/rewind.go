package session

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"pincer/chat"
	"pincer/internal/human"
)

// Sentinel errors of Redo, matched with errors.Is; the errors Redo returns
// wrap them in a sentence that names the session.
var (
	// ErrNothingToRedo means the session has no rewind left to undo.
	ErrNothingToRedo = errors.New("nothing to redo: no rewind of this session is left to undo")
	// ErrRedoStale means the conversation went on after the last rewind
	// (a message was added or the session was compacted), so bringing the
	// rewound messages back would mix two histories.
	ErrRedoStale = errors.New("cannot redo: the conversation went on after the last rewind; rewind again to go back")
)

// Checkpoint ties a turn of a session to the snapshots of the project's
// files around it, so the turn's changes can be undone. The snapshots live
// in a store of their own; the session keeps only their ids.
type Checkpoint struct {
	// Seq is the user message that started the turn.
	Seq uint64 `json:"seq"`
	// Before is the id of the snapshot taken at the turn's start.
	Before string `json:"before"`
	// After is the id of the snapshot taken at the turn's end; "" while
	// the turn runs or when that snapshot failed.
	After string    `json:"after,omitempty"`
	Time  time.Time `json:"time"`
	// Skipped lists the files too large or unreadable to record, so the
	// person can be told they will not come back.
	Skipped []string `json:"skipped,omitempty"`
}

// Rewind is one rewind of a session's conversation: messages From..Through
// no longer go to the model. They stay stored and are read with Rewound
// set, so the history still shows them and Redo can bring them back.
type Rewind struct {
	// From is the first message dropped: the user message of the turn
	// rewound to.
	From uint64 `json:"from"`
	// Through is the last message dropped: the session's last message at
	// the time of the rewind.
	Through uint64    `json:"through"`
	Time    time.Time `json:"time"`
	// Code is the snapshot id the files were at just before a code rewind
	// restored them ("" when only the conversation was rewound), so a redo
	// can put them back.
	Code string `json:"code,omitempty"`
	// Summary and SummaryThrough are the session's summary before the
	// rewind, kept when the rewind dropped it because it covered a rewound
	// message; Redo puts them back.
	Summary        string `json:"summary,omitempty"`
	SummaryThrough uint64 `json:"summary_through,omitempty"`
}

// PutCheckpoint stores c for the session with the given id: it inserts it,
// or replaces the checkpoint with the same Seq (the turn's end fills in
// After). c.Seq must be a stored prompt of the session and c.Before a
// snapshot id; a zero c.Time is set to now.
func (s *Store) PutCheckpoint(sessionID string, c Checkpoint) error {
	if c.Seq == 0 {
		return fmt.Errorf("store checkpoint of session %s: it names no message; give the seq of the prompt that started the turn", sessionID)
	}
	if c.Before == "" {
		return fmt.Errorf("store checkpoint of message %d of session %s: it has no snapshot id; take the snapshot first", c.Seq, sessionID)
	}
	if c.Time.IsZero() {
		c.Time = s.now()
	}
	return s.update(func(tx *bolt.Tx) error {
		if _, err := loadSession(tx.Bucket([]byte(bucketSessions)), sessionID); err != nil {
			return err
		}
		if err := checkPrompt(tx, sessionID, c.Seq, "store checkpoint of"); err != nil {
			return err
		}
		b, err := createSessionBucket(tx, bucketCheckpoints, sessionID)
		if err != nil {
			return err
		}
		raw, err := json.Marshal(toCheckpointRecord(c))
		if err != nil {
			return fmt.Errorf("encode checkpoint of message %d of session %s: %w", c.Seq, sessionID, err)
		}
		if err := b.Put(seqKey(c.Seq), raw); err != nil {
			return fmt.Errorf("store checkpoint of message %d of session %s: %w", c.Seq, sessionID, err)
		}
		return nil
	})
}

// Checkpoints lists the checkpoints of the session with the given id by
// Seq, ascending; an empty list when it has none.
func (s *Store) Checkpoints(sessionID string) ([]Checkpoint, error) {
	out := []Checkpoint{}
	err := s.view(func(tx *bolt.Tx) error {
		if _, err := loadSession(tx.Bucket([]byte(bucketSessions)), sessionID); err != nil {
			return err
		}
		recs, err := readCheckpoints(tx, sessionID)
		for _, r := range recs {
			out = append(out, r.checkpoint())
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Rewind records r for the session with the given id and returns it as
// stored: Through is set to the session's last message, and Time to now
// when it is zero. r.From must be a stored prompt (a user message of kind
// "" or "task") that no rewind covers yet. A Through given by the caller
// must be the session's last message, so a rewind planned on a view
// another process has since added to fails instead of dropping messages
// nobody saw. When the session's summary covers From or later it is
// cleared (it speaks of rewound messages) and kept in the record's Summary
// and SummaryThrough for Redo; what the caller put there is ignored. All of
// it happens in one transaction.
func (s *Store) Rewind(sessionID string, r Rewind) (Rewind, error) {
	now := s.now()
	if r.Time.IsZero() {
		r.Time = now
	}
	r.Time = r.Time.UTC().Round(0) // as stored
	r.Summary, r.SummaryThrough = "", 0
	err := s.update(func(tx *bolt.Tx) error {
		rec, err := loadSession(tx.Bucket([]byte(bucketSessions)), sessionID)
		if err != nil {
			return err
		}
		if err := checkPrompt(tx, sessionID, r.From, "rewind"); err != nil {
			return err
		}
		done, err := readRewinds(tx, sessionID)
		if err != nil {
			return err
		}
		for _, d := range done {
			if d.From <= r.From && r.From <= d.Through {
				return fmt.Errorf("rewind session %s: message %d was already rewound (messages %d–%d, at %s); redo that rewind or choose an earlier prompt",
					sessionID, r.From, d.From, d.Through, stamp(d.Time))
			}
		}
		last := lastSeq(tx, sessionID)
		if r.Through != 0 && r.Through != last {
			return fmt.Errorf("rewind session %s: it now ends at message %d, not %d (it was added to meanwhile); look at it again and retry", sessionID, last, r.Through)
		}
		r.Through = last
		if rec.SummaryThrough >= r.From {
			summaries := tx.Bucket([]byte(bucketSummaries))
			r.Summary, r.SummaryThrough = string(summaries.Get([]byte(sessionID))), rec.SummaryThrough
			if err := summaries.Delete([]byte(sessionID)); err != nil {
				return fmt.Errorf("drop the summary of session %s: %w", sessionID, err)
			}
			rec.SummaryThrough = 0
		}
		stored := toRewindRecord(r)
		stored.SummaryAfter = rec.SummaryThrough
		b, err := createSessionBucket(tx, bucketRewinds, sessionID)
		if err != nil {
			return err
		}
		n, err := b.NextSequence()
		if err != nil {
			return fmt.Errorf("number rewind of session %s: %w", sessionID, err)
		}
		raw, err := json.Marshal(stored)
		if err != nil {
			return fmt.Errorf("encode rewind of session %s: %w", sessionID, err)
		}
		if err := b.Put(seqKey(n), raw); err != nil {
			return fmt.Errorf("store rewind of session %s: %w", sessionID, err)
		}
		rec.Updated = now.UTC()
		return putSession(tx, rec)
	})
	if err != nil {
		return Rewind{}, err
	}
	return r, nil
}

// Rewinds lists the rewinds of the session with the given id that are in
// force, oldest first; an empty list when it has none.
func (s *Store) Rewinds(sessionID string) ([]Rewind, error) {
	out := []Rewind{}
	err := s.view(func(tx *bolt.Tx) error {
		if _, err := loadSession(tx.Bucket([]byte(bucketSessions)), sessionID); err != nil {
			return err
		}
		recs, err := readRewinds(tx, sessionID)
		for _, r := range recs {
			out = append(out, r.rewind())
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Redo undoes the last rewind of the session with the given id and returns
// it, so the caller can put the files back to its Code snapshot. It fails
// with ErrNothingToRedo when the session has no rewind, and with
// ErrRedoStale when a message was added or the summary changed after the
// rewind. It restores the summary the rewind dropped.
func (s *Store) Redo(sessionID string) (Rewind, error) {
	var out Rewind
	err := s.update(func(tx *bolt.Tx) error {
		rec, err := loadSession(tx.Bucket([]byte(bucketSessions)), sessionID)
		if err != nil {
			return err
		}
		b := sessionBucket(tx, bucketRewinds, sessionID)
		var k, raw []byte
		if b != nil {
			k, raw = b.Cursor().Last()
		}
		if k == nil {
			return newError(ErrNothingToRedo, nil, "nothing to redo in session %s: it has no rewind left to undo", rec.session().Label())
		}
		last, err := decodeRewind(sessionID, k, raw)
		if err != nil {
			return err
		}
		if n := lastSeq(tx, sessionID); n > last.Through {
			return newError(ErrRedoStale, nil,
				"cannot redo the last rewind of session %s: %s came after it; rewind again to go back",
				rec.session().Label(), human.Plural(int(n-last.Through), "message"))
		}
		if rec.SummaryThrough != last.SummaryAfter {
			return newError(ErrRedoStale, nil,
				"cannot redo the last rewind of session %s: it was compacted after the rewind; rewind again to go back", rec.session().Label())
		}
		if err := b.Delete(k); err != nil {
			return fmt.Errorf("drop the last rewind of session %s: %w", sessionID, err)
		}
		if last.SummaryThrough != 0 {
			if last.Summary != "" {
				if err := tx.Bucket([]byte(bucketSummaries)).Put([]byte(sessionID), []byte(last.Summary)); err != nil {
					return fmt.Errorf("restore the summary of session %s: %w", sessionID, err)
				}
			}
			rec.SummaryThrough = last.SummaryThrough
		}
		rec.Updated = s.now().UTC()
		out = last.rewind()
		return putSession(tx, rec)
	})
	return out, err
}

// CheckpointIDs returns every snapshot id the session with the given id
// refers to (its checkpoints' Before and After, its rewinds' Code), sorted
// and without repeats, so the snapshot store can be told to forget them
// when the session is deleted. A session whose record is damaged still
// lists its ids.
func (s *Store) CheckpointIDs(sessionID string) ([]string, error) {
	var out []string
	err := s.view(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(bucketSessions)).Get([]byte(sessionID)) == nil {
			return newError(ErrNotFound, nil, "no session has the id %q", sessionID)
		}
		var err error
		out, err = snapshotIDs(tx, sessionID, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return sortedUnique(out), nil
}

// LiveSnapshots returns every snapshot id referred to by a session of the
// working directory dir, sorted and without repeats: the snapshots pruning
// must keep. A damaged checkpoint or rewind record fails it, since pruning
// without knowing what it refers to could lose files.
func (s *Store) LiveSnapshots(dir string) ([]string, error) {
	dir, err := cleanDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	err = s.view(func(tx *bolt.Tx) error {
		ids := tx.Bucket([]byte(bucketDirs)).Bucket([]byte(dir))
		if ids == nil {
			return nil
		}
		return ids.ForEach(func(id, _ []byte) error {
			var err error
			out, err = snapshotIDs(tx, string(id), out)
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return sortedUnique(out), nil
}

// snapshotIDs appends to ids the snapshot ids session id refers to.
func snapshotIDs(tx *bolt.Tx, id string, ids []string) ([]string, error) {
	cps, err := readCheckpoints(tx, id)
	if err != nil {
		return nil, err
	}
	for _, c := range cps {
		ids = append(ids, c.Before, c.After)
	}
	rws, err := readRewinds(tx, id)
	if err != nil {
		return nil, err
	}
	for _, r := range rws {
		ids = append(ids, r.Code)
	}
	return ids, nil
}

// sortedUnique sorts ids and drops repeats and empty ones.
func sortedUnique(ids []string) []string {
	slices.Sort(ids)
	ids = slices.Compact(ids)
	ids = slices.DeleteFunc(ids, func(id string) bool { return id == "" })
	if ids == nil {
		ids = []string{}
	}
	return ids
}

// checkPrompt makes sure message seq of session id is stored and is a
// prompt: a user message a person (or a scheduled task) sent.
func checkPrompt(tx *bolt.Tx, id string, seq uint64, doing string) error {
	msgs, err := messageBucket(tx, id)
	if err != nil {
		return err
	}
	if seq == 0 {
		return fmt.Errorf("%s session %s: no message given; name the prompt by its seq", doing, id)
	}
	raw := msgs.Get(seqKey(seq))
	if raw == nil && msgs.Sequence() == 0 {
		return fmt.Errorf("%s session %s: it has no message %d, nor any other yet", doing, id, seq)
	}
	if raw == nil {
		return fmt.Errorf("%s session %s: it has no message %d (its messages are 1–%d); choose one of its prompts", doing, id, seq, msgs.Sequence())
	}
	m, err := decodeMessage(raw)
	if err != nil {
		return fmt.Errorf("%s session %s: message %d cannot be read (%v); choose another prompt", doing, id, seq, err)
	}
	if !isPrompt(m.Role, m.Kind) {
		what := "role " + m.Role
		if m.Role == "" {
			what = "no role"
		}
		if m.Kind != "" {
			what += ", kind " + m.Kind
		}
		return fmt.Errorf("%s session %s: message %d (%s) is not a prompt; choose a message the person sent", doing, id, seq, what)
	}
	return nil
}

// isPrompt reports whether a message of this role and kind starts a turn.
func isPrompt(role, kind string) bool {
	return role == string(chat.RoleUser) && (kind == "" || kind == chat.KindTask)
}

// markRewound sets Rewound on the messages inside any of the rewinds.
func markRewound(msgs []chat.Message, rewinds []rewindRecord) {
	if len(rewinds) == 0 {
		return
	}
	for i := range msgs {
		msgs[i].Rewound = isRewound(rewinds, msgs[i].Seq)
	}
}

// isRewound reports whether message seq is inside one of the rewinds.
func isRewound(rewinds []rewindRecord, seq uint64) bool {
	for _, r := range rewinds {
		if r.From <= seq && seq <= r.Through {
			return true
		}
	}
	return false
}

// sessionBucket returns the bucket of session id inside the top-level
// bucket top, or nil when there is none (a store opened read-only before
// it was upgraded has no such top-level bucket at all).
func sessionBucket(tx *bolt.Tx, top, id string) *bolt.Bucket {
	b := tx.Bucket([]byte(top))
	if b == nil {
		return nil
	}
	return b.Bucket([]byte(id))
}

// createSessionBucket returns the bucket of session id inside top,
// creating it when missing.
func createSessionBucket(tx *bolt.Tx, top, id string) (*bolt.Bucket, error) {
	b := tx.Bucket([]byte(top))
	if b == nil {
		return nil, fmt.Errorf("the session store has no %s bucket; the store is inconsistent", top)
	}
	sub, err := b.CreateBucketIfNotExists([]byte(id))
	if err != nil {
		return nil, fmt.Errorf("create %s bucket of session %s: %w", top, id, err)
	}
	return sub, nil
}

// readCheckpoints decodes the checkpoints of session id in Seq order.
func readCheckpoints(tx *bolt.Tx, id string) ([]checkpointRecord, error) {
	b := sessionBucket(tx, bucketCheckpoints, id)
	if b == nil {
		return nil, nil
	}
	var out []checkpointRecord
	err := b.ForEach(func(k, raw []byte) error {
		var r checkpointRecord
		err := json.Unmarshal(raw, &r)
		switch {
		case err != nil:
		case len(k) != 8 || binary.BigEndian.Uint64(k) != r.Seq:
			err = fmt.Errorf("it is stored under key %x but names message %d", k, r.Seq)
		case r.V < 1:
			err = fmt.Errorf("its version %d is not one pincer writes", r.V)
		}
		if err != nil {
			return damagedHistory(id, "checkpoint", err)
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// readRewinds decodes the rewinds of session id, oldest first.
func readRewinds(tx *bolt.Tx, id string) ([]rewindRecord, error) {
	b := sessionBucket(tx, bucketRewinds, id)
	if b == nil {
		return nil, nil
	}
	var out []rewindRecord
	err := b.ForEach(func(k, raw []byte) error {
		r, err := decodeRewind(id, k, raw)
		if err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// decodeRewind decodes one rewind record of session id stored under k.
func decodeRewind(id string, k, raw []byte) (rewindRecord, error) {
	var r rewindRecord
	err := json.Unmarshal(raw, &r)
	switch {
	case err != nil:
	case len(k) != 8:
		err = fmt.Errorf("it is stored under the malformed key %x", k)
	case r.V < 1:
		err = fmt.Errorf("its version %d is not one pincer writes", r.V)
	case r.From == 0 || r.Through < r.From:
		err = fmt.Errorf("it covers messages %d–%d", r.From, r.Through)
	}
	if err != nil {
		return rewindRecord{}, damagedHistory(id, "rewind", err)
	}
	return r, nil
}

// damagedHistory reports an unreadable checkpoint or rewind record of
// session id. Without it pincer cannot tell which messages go to the model
// or which snapshots to keep, so it refuses rather than guess.
func damagedHistory(id, what string, cause error) error {
	e := newError(ErrDamagedRecord, cause,
		"a %s record of session %s cannot be read (%v); it was damaged on disk: delete the session with 'pincer sessions rm %s'",
		what, printableID(id), cause, printableID(id)).(*storeError)
	e.subject = id
	return e
}

// copySessionBucket copies the bucket of session from inside top, with its
// numbering, to session to (whose bucket must not exist yet).
func copySessionBucket(tx *bolt.Tx, top, from, to string) error {
	src := sessionBucket(tx, top, from)
	if src == nil {
		return nil
	}
	dst, err := createSessionBucket(tx, top, to)
	if err != nil {
		return err
	}
	err = src.ForEach(func(k, v []byte) error {
		return dst.Put(bytes.Clone(k), bytes.Clone(v))
	})
	if err != nil {
		return fmt.Errorf("copy %s of session %s: %w", top, from, err)
	}
	if err := dst.SetSequence(src.Sequence()); err != nil {
		return fmt.Errorf("copy %s numbering of session %s: %w", top, from, err)
	}
	return nil
}

// deleteSessionBucket removes the bucket of session id inside top.
func deleteSessionBucket(tx *bolt.Tx, top, id string) error {
	b := tx.Bucket([]byte(top))
	if b == nil {
		return nil
	}
	if err := b.DeleteBucket([]byte(id)); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
		return fmt.Errorf("delete %s of session %s: %w", top, id, err)
	}
	return nil
}
