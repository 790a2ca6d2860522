package session

import (
	"encoding/binary"
	"fmt"
	"math"

	bolt "go.etcd.io/bbolt"
)

// The full-text index lives in the top-level bucket "index":
//
//	stats     "totals" → indexed messages ‖ sum of their lengths ‖ messages pending (three uint64)
//	ids       session id → the session's index number (uint32, big-endian)
//	nums      index number → session id
//	docs      number ‖ seq → message time (varint Unix ns) ‖ length (uvarint)
//	pending   number ‖ seq → the message's terms (see pending.go)
//	segments  segment id (uint32) → bucket of term → the term's postings in the segment (see segment.go)
//	segmeta   segment id → level ‖ number of messages (uvarints)
//	segsess   number ‖ segment id → empty: which segments hold which session
//
// Writes are log-structured, because a B+tree sorted by term makes one
// message's hundred-odd distinct terms land on a hundred-odd different
// pages, each rewritten and fsynced by the commit: about 1 MB per Append on
// a large store. Instead Append stores the new message's terms together, in
// pending, which costs a page or two. When pendingLimit messages are
// pending, the Append that adds the last one turns them into a segment: an
// immutable bucket of term → packed postings written in key order, so its
// pages are full and few. Segments of one level are merged into one of the
// next level when there are mergeFanIn of them, up to maxLevel, so a search
// reads a few dozen segments for 100,000 messages, not hundreds.
//
// A search reads, for each query term, one value per segment, and scans
// pending, which is small. Every posting carries the term frequency and the
// message length, so BM25 needs no further lookups. The index number (4
// bytes instead of a 26-byte id) keeps the postings short. Everything is
// written in the transaction of the Append, Delete or Fork that causes it,
// so the index never disagrees with the messages.
const (
	bucketIndex    = "index"
	bucketStats    = "stats"
	bucketIDs      = "ids"
	bucketNums     = "nums"
	bucketDocs     = "docs"
	bucketPending  = "pending"
	bucketSegments = "segments"
	bucketSegMeta  = "segmeta"
	bucketSegSess  = "segsess"
	keyTotals      = "totals"

	pendingLimit = 256 // messages pending before they become a segment
	mergeFanIn   = 8   // segments of one level merged into one of the next
	maxLevel     = 2   // segments of this level (up to 16,384 messages) are not merged
)

// indexBuckets are the buckets of the index in one transaction.
type indexBuckets struct {
	stats, ids, nums, docs, pending, segments, segmeta, segsess *bolt.Bucket
}

// indexBucketNames lists the buckets inside bucketIndex.
func indexBucketNames() []string {
	return []string{bucketStats, bucketIDs, bucketNums, bucketDocs, bucketPending, bucketSegments, bucketSegMeta, bucketSegSess}
}

// openIndex returns the index's buckets.
func openIndex(tx *bolt.Tx) (indexBuckets, error) {
	root := tx.Bucket([]byte(bucketIndex))
	if root == nil {
		return indexBuckets{}, fmt.Errorf("the store has no search index; it is inconsistent")
	}
	for _, name := range indexBucketNames() {
		if root.Bucket([]byte(name)) == nil {
			return indexBuckets{}, fmt.Errorf("the store's search index has no %s bucket; it is inconsistent", name)
		}
	}
	get := func(name string) *bolt.Bucket { return root.Bucket([]byte(name)) }
	return indexBuckets{
		stats:    get(bucketStats),
		ids:      get(bucketIDs),
		nums:     get(bucketNums),
		docs:     get(bucketDocs),
		pending:  get(bucketPending),
		segments: get(bucketSegments),
		segmeta:  get(bucketSegMeta),
		segsess:  get(bucketSegSess),
	}, nil
}

// createIndex creates the empty index buckets.
func createIndex(tx *bolt.Tx) error {
	root, err := tx.CreateBucketIfNotExists([]byte(bucketIndex))
	if err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketIndex, err)
	}
	for _, name := range indexBucketNames() {
		if _, err := root.CreateBucketIfNotExists([]byte(name)); err != nil {
			return fmt.Errorf("create bucket %s/%s: %w", bucketIndex, name, err)
		}
	}
	return nil
}

// number returns the index number of session id, giving it the next free
// number when it has none and create is set; 0 means it has none.
func (ix indexBuckets) number(id string, create bool) (uint32, error) {
	if raw := ix.ids.Get([]byte(id)); raw != nil {
		if len(raw) != 4 {
			return 0, fmt.Errorf("the index number of session %s is malformed; the store is inconsistent", id)
		}
		return binary.BigEndian.Uint32(raw), nil
	}
	if !create {
		return 0, nil
	}
	next, err := ix.nums.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("number session %s for the index: %w", id, err)
	}
	if next > math.MaxUint32 {
		return 0, fmt.Errorf("the search index has run out of session numbers")
	}
	num := uint32(next)
	if err := ix.ids.Put([]byte(id), numKey(num)); err != nil {
		return 0, fmt.Errorf("number session %s for the index: %w", id, err)
	}
	if err := ix.nums.Put(numKey(num), []byte(id)); err != nil {
		return 0, fmt.Errorf("number session %s for the index: %w", id, err)
	}
	return num, nil
}

// totals are the index's counters.
type totals struct {
	docs, length, pending uint64
}

// totals returns the index's counters.
func (ix indexBuckets) totals() totals {
	raw := ix.stats.Get([]byte(keyTotals))
	if len(raw) != 24 {
		return totals{}
	}
	return totals{binary.BigEndian.Uint64(raw), binary.BigEndian.Uint64(raw[8:]), binary.BigEndian.Uint64(raw[16:])}
}

// addTotals adds to the index's counters.
func (ix indexBuckets) addTotals(docs, length, pending int64) error {
	if docs == 0 && length == 0 && pending == 0 {
		return nil
	}
	t := ix.totals()
	add := func(v uint64, d int64) uint64 { return uint64(max(int64(v)+d, 0)) }
	v := binary.BigEndian.AppendUint64(nil, add(t.docs, docs))
	v = binary.BigEndian.AppendUint64(v, add(t.length, length))
	v = binary.BigEndian.AppendUint64(v, add(t.pending, pending))
	if err := ix.stats.Put([]byte(keyTotals), v); err != nil {
		return fmt.Errorf("update index totals: %w", err)
	}
	return nil
}

// putDoc records an indexed message's time and length.
func (ix indexBuckets) putDoc(d indexedDoc) error {
	v := binary.AppendVarint(nil, d.time)
	v = binary.AppendUvarint(v, d.length)
	if err := ix.docs.Put(docKey(d.num, d.seq), v); err != nil {
		return fmt.Errorf("index message %d: %w", d.seq, err)
	}
	return nil
}

// decodeDoc reads a docs value.
func decodeDoc(v []byte) (unixNano int64, length uint64, err error) {
	t, n := binary.Varint(v)
	if n <= 0 {
		return 0, 0, fmt.Errorf("malformed message entry in the search index")
	}
	l, m := binary.Uvarint(v[n:])
	if m <= 0 {
		return 0, 0, fmt.Errorf("malformed message entry in the search index")
	}
	return t, l, nil
}

// numKey encodes a session's index number.
func numKey(num uint32) []byte { return binary.BigEndian.AppendUint32(make([]byte, 0, 12), num) }

// docKey is the key of message seq of session num.
func docKey(num uint32, seq uint64) []byte { return binary.BigEndian.AppendUint64(numKey(num), seq) }

// splitDocKey takes a docKey apart.
func splitDocKey(k []byte) (uint32, uint64, bool) {
	if len(k) != 12 {
		return 0, 0, false
	}
	return binary.BigEndian.Uint32(k), binary.BigEndian.Uint64(k[4:]), true
}

// segKey encodes a segment id.
func segKey(id uint32) []byte { return binary.BigEndian.AppendUint32(nil, id) }
