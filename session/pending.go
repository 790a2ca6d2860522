package session

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// A pending value holds one message's terms, so that an Append writes them
// in one place: the message's length, the number of terms, then each term
// (its byte length, its bytes) with its weighted frequency, all uvarints
// but the term bytes, terms in order.

// encodePending encodes the terms of d.
func encodePending(d indexedDoc) []byte {
	v := binary.AppendUvarint(nil, d.length)
	v = binary.AppendUvarint(v, uint64(len(d.terms)))
	for _, t := range d.terms {
		v = binary.AppendUvarint(v, uint64(len(t.term)))
		v = append(v, t.term...)
		v = binary.AppendUvarint(v, t.wtf)
	}
	return v
}

// eachPendingTerm decodes a pending value, calling fn for each term; the
// term's bytes point into v.
func eachPendingTerm(v []byte, fn func(term []byte, wtf uint64)) (length uint64, err error) {
	bad := fmt.Errorf("malformed pending message in the search index")
	length, n := binary.Uvarint(v)
	if n <= 0 {
		return 0, bad
	}
	v = v[n:]
	count, n := binary.Uvarint(v)
	if n <= 0 {
		return 0, bad
	}
	v = v[n:]
	for range count {
		size, n := binary.Uvarint(v)
		if n <= 0 || uint64(len(v)-n) < size {
			return 0, bad
		}
		term := v[n : n+int(size)]
		v = v[n+int(size):]
		wtf, n := binary.Uvarint(v)
		if n <= 0 {
			return 0, bad
		}
		v = v[n:]
		fn(term, wtf)
	}
	return length, nil
}

// decodePending decodes the pending value of message seq of session num.
func decodePending(num uint32, seq uint64, v []byte) (indexedDoc, error) {
	d := indexedDoc{num: num, seq: seq}
	var err error
	d.length, err = eachPendingTerm(v, func(term []byte, wtf uint64) {
		d.terms = append(d.terms, termFreq{string(term), wtf})
	})
	return d, err
}

// putPending stores the terms of d until they go into a segment.
func (ix indexBuckets) putPending(d indexedDoc) error {
	if err := ix.pending.Put(docKey(d.num, d.seq), encodePending(d)); err != nil {
		return fmt.Errorf("index message %d: %w", d.seq, err)
	}
	return nil
}

// flushIfFull turns the pending messages into a segment once there are
// pendingLimit of them.
func (ix indexBuckets) flushIfFull() error {
	if ix.totals().pending < pendingLimit {
		return nil
	}
	var docs []indexedDoc
	err := ix.pending.ForEach(func(k, v []byte) error {
		num, seq, ok := splitDocKey(k)
		if !ok {
			return fmt.Errorf("malformed pending key in the search index")
		}
		d, err := decodePending(num, seq, v)
		docs = append(docs, d)
		return err
	})
	if err != nil {
		return err
	}
	if err := deletePrefix(ix.pending, nil); err != nil {
		return fmt.Errorf("clear pending messages of the search index: %w", err)
	}
	if err := ix.writeSegment(levelFor(len(docs)), docs); err != nil {
		return err
	}
	if err := ix.addTotals(0, 0, -int64(len(docs))); err != nil {
		return err
	}
	return ix.mergeSegments()
}

// deletePrefix deletes every key of b that starts with prefix.
func deletePrefix(b *bolt.Bucket, prefix []byte) error {
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
