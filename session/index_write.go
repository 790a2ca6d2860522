package session

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// bulkSegmentDocs is the size of the segments written when many messages
// are indexed at once: the largest level's, so they need no merging.
const bulkSegmentDocs = pendingLimit * mergeFanIn * mergeFanIn

// indexMessage adds one newly stored message of session id to the index:
// its terms go to pending, which becomes a segment when full.
func indexMessage(tx *bolt.Tx, id string, seq uint64, m messageRecord) error {
	ix, err := openIndex(tx)
	if err != nil {
		return err
	}
	d, ok := analyseMessage(0, seq, m)
	if !ok {
		return nil
	}
	if d.num, err = ix.number(id, true); err != nil {
		return err
	}
	if err := ix.putDoc(d); err != nil {
		return err
	}
	if err := ix.putPending(d); err != nil {
		return err
	}
	if err := ix.addTotals(1, int64(d.length), 1); err != nil {
		return err
	}
	return ix.flushIfFull()
}

// indexSessions indexes every message of the sessions ids, which must not
// be in the index yet. It writes full-size segments directly, so indexing a
// whole store (the migration that creates the index) or a forked session
// costs little more than reading the messages; what is left over goes to
// pending.
func indexSessions(tx *bolt.Tx, ids []string) error {
	ix, err := openIndex(tx)
	if err != nil {
		return err
	}
	var batch []indexedDoc
	docs, length := int64(0), int64(0)
	for _, id := range ids {
		if rec, err := loadSession(tx.Bucket([]byte(bucketSessions)), id); err == nil && rec.unrecalled() {
			continue
		}
		msgs, err := messageBucket(tx, id)
		if err != nil {
			return err
		}
		var num uint32
		err = msgs.ForEach(func(k, raw []byte) error {
			seq := binary.BigEndian.Uint64(k)
			rec, err := decodeMessage(raw)
			if err != nil {
				return fmt.Errorf("read message %d of session %s: %w", seq, id, err)
			}
			d, ok := analyseMessage(0, seq, rec)
			if !ok {
				return nil
			}
			if num == 0 {
				if num, err = ix.number(id, true); err != nil {
					return err
				}
			}
			d.num = num
			if err := ix.putDoc(d); err != nil {
				return err
			}
			docs++
			length += int64(d.length)
			batch = append(batch, d)
			if len(batch) == bulkSegmentDocs {
				if err := ix.writeSegment(maxLevel, batch); err != nil {
					return err
				}
				batch = nil
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for _, d := range batch {
		if err := ix.putPending(d); err != nil {
			return err
		}
	}
	if err := ix.addTotals(docs, length, int64(len(batch))); err != nil {
		return err
	}
	return ix.flushIfFull()
}

// dropSessionIndex removes session id from the index.
func dropSessionIndex(tx *bolt.Tx, id string) error {
	ix, err := openIndex(tx)
	if err != nil {
		return err
	}
	num, err := ix.number(id, false)
	if err != nil || num == 0 {
		return err
	}
	prefix := numKey(num)
	docs, length := int64(0), int64(0)
	c := ix.docs.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		_, l, err := decodeDoc(v)
		if err != nil {
			return fmt.Errorf("unindex session %s: %w", id, err)
		}
		docs++
		length += int64(l)
	}
	pending := int64(0)
	c = ix.pending.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		pending++
	}
	var segs []uint32
	c = ix.segsess.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) != 8 {
			return fmt.Errorf("unindex session %s: malformed segment entry in the search index", id)
		}
		segs = append(segs, binary.BigEndian.Uint32(k[4:]))
	}
	for _, seg := range segs {
		if err := ix.removeFromSegment(seg, num); err != nil {
			return fmt.Errorf("unindex session %s: %w", id, err)
		}
	}
	for _, b := range []*bolt.Bucket{ix.docs, ix.pending, ix.segsess} {
		if err := deletePrefix(b, prefix); err != nil {
			return fmt.Errorf("unindex session %s: %w", id, err)
		}
	}
	if err := ix.ids.Delete([]byte(id)); err != nil {
		return fmt.Errorf("unindex session %s: %w", id, err)
	}
	if err := ix.nums.Delete(prefix); err != nil {
		return fmt.Errorf("unindex session %s: %w", id, err)
	}
	return ix.addTotals(-docs, -length, -pending)
}
