package session

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
)

// Append stores one finished message of the session with the given id in its
// own transaction, fsynced before Append returns, and returns the message's
// sequence number. It also moves the session's Updated time, counts the
// message, adds its usage, takes the title from the first user message, and
// adds the message to the search index in the same transaction, so the index
// never disagrees with the messages. m.Seq is ignored; a zero m.Time is set
// to now.
func (s *Store) Append(id string, m chat.Message) (uint64, error) {
	switch m.Role {
	case chat.RoleSystem, chat.RoleUser, chat.RoleAssistant, chat.RoleTool:
	default:
		return 0, fmt.Errorf("append to session %s: unknown message role %q; use system, user, assistant or tool", id, m.Role)
	}
	now := s.now()
	if m.Time.IsZero() {
		m.Time = now
	}
	var seq uint64
	err := s.update(func(tx *bolt.Tx) error {
		rec, err := loadSession(tx.Bucket([]byte(bucketSessions)), id)
		if err != nil {
			return err
		}
		msgs, err := messageBucket(tx, id)
		if err != nil {
			return err
		}
		if seq, err = msgs.NextSequence(); err != nil {
			return fmt.Errorf("number message of session %s: %w", id, err)
		}
		m.Seq = seq
		mrec := toMessageRecord(m)
		raw, err := json.Marshal(mrec)
		if err != nil {
			return fmt.Errorf("encode message %d of session %s: %w", seq, id, err)
		}
		if err := msgs.Put(seqKey(seq), raw); err != nil {
			return fmt.Errorf("store message %d of session %s: %w", seq, id, err)
		}
		if !rec.unrecalled() {
			if err := indexMessage(tx, id, seq, mrec); err != nil {
				return fmt.Errorf("index message %d of session %s: %w", seq, id, err)
			}
		}
		rec.MessageCount++
		rec.Updated = now.UTC()
		if m.Usage != nil {
			rec.Usage = toUsageRecord(rec.Usage.usage().Plus(*m.Usage))
		}
		if rec.Title == "" && m.Role == chat.RoleUser {
			rec.Title = makeTitle(m.Content)
		}
		return putSession(tx, rec)
	})
	if err != nil {
		return 0, err
	}
	return seq, nil
}

// Messages returns the messages of the session with the given id whose
// sequence number is greater than afterSeq, in order. Pass 0 for all of
// them, or a summary's SummaryThrough for those the summary does not cover.
// Messages a rewind dropped are among them with Rewound set; they are not
// to be sent to the model.
func (s *Store) Messages(id string, afterSeq uint64) ([]chat.Message, error) {
	var out []chat.Message
	err := s.view(func(tx *bolt.Tx) error {
		if _, err := loadSession(tx.Bucket([]byte(bucketSessions)), id); err != nil {
			return err
		}
		var err error
		out, err = readMessages(tx, id, afterSeq)
		return err
	})
	return out, err
}

// readMessages decodes the messages of session id after afterSeq and marks
// those a rewind took out of the conversation.
func readMessages(tx *bolt.Tx, id string, afterSeq uint64) ([]chat.Message, error) {
	msgs, err := messageBucket(tx, id)
	if err != nil || afterSeq == math.MaxUint64 {
		return nil, err
	}
	var out []chat.Message
	c := msgs.Cursor()
	for k, raw := c.Seek(seqKey(afterSeq + 1)); k != nil; k, raw = c.Next() {
		seq := binary.BigEndian.Uint64(k)
		rec, err := decodeMessage(raw)
		if err != nil {
			// One damaged record does not hide the rest of the session: it
			// is handed out as a marker that says so.
			out = append(out, chat.Message{Seq: seq, Role: chat.RoleSystem, Kind: chat.KindDamaged,
				Content: fmt.Sprintf("Message %d of this session could not be read (it was damaged on disk: %v) and is left out.", seq, err)})
			continue
		}
		m := rec.message()
		m.Seq = seq
		out = append(out, m)
	}
	rewinds, err := readRewinds(tx, id)
	if err != nil {
		return nil, err
	}
	markRewound(out, rewinds)
	return out, nil
}

// messageBucket returns the bucket holding the messages of session id.
func messageBucket(tx *bolt.Tx, id string) (*bolt.Bucket, error) {
	b := tx.Bucket([]byte(bucketMessages)).Bucket([]byte(id))
	if b == nil {
		return nil, fmt.Errorf("session %s has no message bucket; the store is inconsistent", id)
	}
	return b, nil
}

// lastSeq is the sequence number of the last message of session id.
func lastSeq(tx *bolt.Tx, id string) uint64 {
	b := tx.Bucket([]byte(bucketMessages)).Bucket([]byte(id))
	if b == nil {
		return 0
	}
	return b.Sequence()
}

// copyMessages copies every message of session from into the (new, empty)
// message bucket of session to, keeping sequence numbers.
func copyMessages(tx *bolt.Tx, from, to string) error {
	src, err := messageBucket(tx, from)
	if err != nil {
		return err
	}
	dst, err := messageBucket(tx, to)
	if err != nil {
		return err
	}
	err = src.ForEach(func(k, v []byte) error {
		return dst.Put(bytes.Clone(k), bytes.Clone(v))
	})
	if err != nil {
		return fmt.Errorf("copy messages of session %s: %w", from, err)
	}
	if err := dst.SetSequence(src.Sequence()); err != nil {
		return fmt.Errorf("copy message numbering of session %s: %w", from, err)
	}
	return nil
}

// seqKey encodes a sequence number so that keys sort in message order.
func seqKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), seq)
}
