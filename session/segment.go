package session

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// A segment's bucket maps each term to its postings in the segment's
// messages: their count, then one posting per message in order of session
// number and sequence number: the session number (as the difference to the
// previous posting's), the sequence number (as the difference to the
// previous posting's when the session is the same), the weighted term
// frequency and the message's length, all uvarints. Segments are written in
// key order with full pages and never changed, except to take out a deleted
// session.

// post is one posting: a message that has a term.
type post struct {
	num    uint32
	seq    uint64
	wtf    uint64
	length uint64
}

func comparePosts(a, b post) int {
	if c := cmp.Compare(a.num, b.num); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// encodePosts encodes postings that are in message order.
func encodePosts(posts []post) []byte {
	v := binary.AppendUvarint(make([]byte, 0, 1+len(posts)*5), uint64(len(posts)))
	var prev post
	for _, p := range posts {
		v = binary.AppendUvarint(v, uint64(p.num-prev.num))
		seq := p.seq
		if p.num == prev.num {
			seq -= prev.seq
		}
		v = binary.AppendUvarint(v, seq)
		v = binary.AppendUvarint(v, p.wtf)
		v = binary.AppendUvarint(v, p.length)
		prev = p
	}
	return v
}

// postCount returns the number of postings in an encoded value without
// decoding them.
func postCount(v []byte) (uint64, error) {
	n, size := binary.Uvarint(v)
	if size <= 0 {
		return 0, errMalformedPosting
	}
	return n, nil
}

// errMalformedPosting reports postings that cannot be decoded.
var errMalformedPosting = errors.New("malformed postings in the search index")

// decodePosts calls fn for each posting of an encoded value, in order.
func decodePosts(v []byte, fn func(post)) error {
	count, n := binary.Uvarint(v)
	if n <= 0 {
		return errMalformedPosting
	}
	v = v[n:]
	var p post
	var fields [4]uint64
	for range count {
		for i := range fields {
			x, n := binary.Uvarint(v)
			if n <= 0 {
				return errMalformedPosting
			}
			fields[i], v = x, v[n:]
		}
		if fields[0] > 0 {
			p.seq = 0
		}
		if fields[0] > math.MaxUint32-uint64(p.num) {
			return errMalformedPosting
		}
		p.num += uint32(fields[0])
		p.seq += fields[1]
		p.wtf, p.length = fields[2], fields[3]
		fn(p)
	}
	return nil
}

// levelFor is the level of a segment of that many messages: 0 up to
// pendingLimit, one more for each factor of mergeFanIn, at most maxLevel.
func levelFor(docs int) int {
	level, size := 0, pendingLimit
	for level < maxLevel && docs > size {
		level++
		size *= mergeFanIn
	}
	return level
}

// segmentMeta is what segmeta records of a segment.
type segmentMeta struct {
	level int
	docs  uint64
}

func encodeMeta(m segmentMeta) []byte {
	return binary.AppendUvarint(binary.AppendUvarint(nil, uint64(m.level)), m.docs)
}

func decodeMeta(v []byte) (segmentMeta, error) {
	level, n := binary.Uvarint(v)
	if n <= 0 {
		return segmentMeta{}, fmt.Errorf("malformed segment entry in the search index")
	}
	docs, m := binary.Uvarint(v[n:])
	if m <= 0 {
		return segmentMeta{}, fmt.Errorf("malformed segment entry in the search index")
	}
	return segmentMeta{int(level), docs}, nil
}

// segmentWriter writes one new segment, term by term in key order.
type segmentWriter struct {
	ix   indexBuckets
	id   uint32
	b    *bolt.Bucket
	nums map[uint32]bool
}

// newSegment starts a new, empty segment.
func (ix indexBuckets) newSegment() (*segmentWriter, error) {
	next, err := ix.segments.NextSequence()
	if err != nil {
		return nil, fmt.Errorf("number a search index segment: %w", err)
	}
	if next > math.MaxUint32 {
		return nil, fmt.Errorf("the search index has run out of segment numbers")
	}
	id := uint32(next)
	b, err := ix.segments.CreateBucket(segKey(id))
	if err != nil {
		return nil, fmt.Errorf("create search index segment %d: %w", id, err)
	}
	// Keys go in in order, so pages can be filled completely.
	b.FillPercent = 1
	return &segmentWriter{ix: ix, id: id, b: b, nums: map[uint32]bool{}}, nil
}

// put writes the postings of one term; terms must come in key order.
func (w *segmentWriter) put(term []byte, posts []post) error {
	for _, p := range posts {
		w.nums[p.num] = true
	}
	if err := w.b.Put(term, encodePosts(posts)); err != nil {
		return fmt.Errorf("write search index segment %d: %w", w.id, err)
	}
	return nil
}

// finish records the segment's level and size and which sessions it holds.
func (w *segmentWriter) finish(level int, docs uint64) error {
	if err := w.ix.segmeta.Put(segKey(w.id), encodeMeta(segmentMeta{level, docs})); err != nil {
		return fmt.Errorf("record search index segment %d: %w", w.id, err)
	}
	for _, num := range slices.Sorted(maps.Keys(w.nums)) {
		if err := w.ix.segsess.Put(append(numKey(num), segKey(w.id)...), []byte{}); err != nil {
			return fmt.Errorf("record search index segment %d: %w", w.id, err)
		}
	}
	return nil
}

// writeSegment writes docs as a new segment of the given level.
func (ix indexBuckets) writeSegment(level int, docs []indexedDoc) error {
	slices.SortFunc(docs, func(a, b indexedDoc) int {
		return comparePosts(post{num: a.num, seq: a.seq}, post{num: b.num, seq: b.seq})
	})
	posts := map[string][]post{}
	for _, d := range docs {
		for _, t := range d.terms {
			posts[t.term] = append(posts[t.term], post{d.num, d.seq, t.wtf, d.length})
		}
	}
	w, err := ix.newSegment()
	if err != nil {
		return err
	}
	for _, term := range slices.Sorted(maps.Keys(posts)) {
		if err := w.put([]byte(term), posts[term]); err != nil {
			return err
		}
	}
	return w.finish(level, uint64(len(docs)))
}

// mergeSegments merges the segments of each level below maxLevel into one
// of the next level once there are mergeFanIn of them.
func (ix indexBuckets) mergeSegments() error {
	for level := 0; level < maxLevel; level++ {
		var ids []uint32
		var docs uint64
		err := ix.segmeta.ForEach(func(k, v []byte) error {
			m, err := decodeMeta(v)
			if err != nil {
				return err
			}
			if m.level == level {
				ids = append(ids, binary.BigEndian.Uint32(k))
				docs += m.docs
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(ids) >= mergeFanIn {
			if err := ix.merge(ids, level+1, docs); err != nil {
				return err
			}
		}
	}
	return nil
}

// merge writes one segment of the given level holding the postings of the
// segments ids, and removes those. It walks the segments' terms together in
// key order, so it holds only one term's postings at a time.
func (ix indexBuckets) merge(ids []uint32, level int, docs uint64) error {
	type source struct {
		id   uint32
		c    *bolt.Cursor
		k, v []byte
		nums map[uint32]bool
	}
	sources := make([]*source, len(ids))
	for i, id := range ids {
		b := ix.segments.Bucket(segKey(id))
		if b == nil {
			return fmt.Errorf("search index segment %d is missing; the store is inconsistent", id)
		}
		src := &source{id: id, c: b.Cursor(), nums: map[uint32]bool{}}
		src.k, src.v = src.c.First()
		sources[i] = src
	}
	w, err := ix.newSegment()
	if err != nil {
		return err
	}
	var posts []post
	for {
		var term []byte
		for _, src := range sources {
			if src.k != nil && (term == nil || bytes.Compare(src.k, term) < 0) {
				term = src.k
			}
		}
		if term == nil {
			break
		}
		term = bytes.Clone(term)
		posts = posts[:0]
		from := 0
		for _, src := range sources {
			if !bytes.Equal(src.k, term) {
				continue
			}
			from++
			err := decodePosts(src.v, func(p post) {
				src.nums[p.num] = true
				posts = append(posts, p)
			})
			if err != nil {
				return err
			}
			src.k, src.v = src.c.Next()
		}
		if from > 1 {
			slices.SortFunc(posts, comparePosts)
		}
		if err := w.put(term, posts); err != nil {
			return err
		}
	}
	if err := w.finish(level, docs); err != nil {
		return err
	}
	for _, src := range sources {
		if err := ix.dropSegment(src.id, src.nums); err != nil {
			return err
		}
	}
	return nil
}

// dropSegment removes segment id, which holds postings of the sessions
// nums.
func (ix indexBuckets) dropSegment(id uint32, nums map[uint32]bool) error {
	if err := ix.segments.DeleteBucket(segKey(id)); err != nil {
		return fmt.Errorf("remove search index segment %d: %w", id, err)
	}
	if err := ix.segmeta.Delete(segKey(id)); err != nil {
		return fmt.Errorf("remove search index segment %d: %w", id, err)
	}
	for num := range nums {
		if err := ix.segsess.Delete(append(numKey(num), segKey(id)...)); err != nil {
			return fmt.Errorf("remove search index segment %d: %w", id, err)
		}
	}
	return nil
}

// removeFromSegment takes the postings of session num out of segment id,
// and the segment itself once it holds no message.
func (ix indexBuckets) removeFromSegment(id, num uint32) error {
	b := ix.segments.Bucket(segKey(id))
	raw := ix.segmeta.Get(segKey(id))
	if b == nil || raw == nil {
		return fmt.Errorf("search index segment %d is missing; the store is inconsistent", id)
	}
	meta, err := decodeMeta(raw)
	if err != nil {
		return err
	}
	type change struct{ k, v []byte }
	var changes []change
	removed := map[uint64]bool{}
	err = b.ForEach(func(k, v []byte) error {
		var kept []post
		found := false
		err := decodePosts(v, func(p post) {
			if p.num == num {
				found = true
				removed[p.seq] = true
				return
			}
			kept = append(kept, p)
		})
		if err != nil || !found {
			return err
		}
		c := change{k: bytes.Clone(k)}
		if len(kept) > 0 {
			c.v = encodePosts(kept)
		}
		changes = append(changes, c)
		return nil
	})
	if err != nil {
		return fmt.Errorf("search index segment %d: %w", id, err)
	}
	meta.docs -= min(meta.docs, uint64(len(removed)))
	if meta.docs == 0 {
		return ix.dropSegment(id, map[uint32]bool{num: true})
	}
	for _, c := range changes {
		if c.v == nil {
			err = b.Delete(c.k)
		} else {
			err = b.Put(c.k, c.v)
		}
		if err != nil {
			return fmt.Errorf("update search index segment %d: %w", id, err)
		}
	}
	if err := ix.segmeta.Put(segKey(id), encodeMeta(meta)); err != nil {
		return fmt.Errorf("update search index segment %d: %w", id, err)
	}
	return ix.segsess.Delete(append(numKey(num), segKey(id)...))
}
