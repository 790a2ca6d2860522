package session

import (
	"bytes"
	"container/heap"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Ranking. BM25's usual constants; hitsPerSession keeps one long session
// from filling the whole list.
const (
	bm25K1             = 1.2
	bm25B              = 0.75
	defaultSearchLimit = 10
	hitsPerSession     = 3
)

// SearchOptions narrows a Search. The zero value searches every session and
// returns up to ten hits.
type SearchOptions struct {
	// Dir keeps only the sessions whose working directory is Dir; "" means
	// every session.
	Dir string
	// Limit is the most hits to return; 0 means 10.
	Limit int
	// ExcludeSession leaves out the session with this id, typically the one
	// doing the recalling, whose messages the model already has.
	ExcludeSession string
	// Since leaves out messages finished before it; the zero time leaves out
	// nothing.
	Since time.Time
	// Sessions, when not nil, keeps only the messages of these sessions
	// (ids), within Dir: a Telegram chat's own sessions. An empty list
	// finds nothing.
	Sessions []string
}

// Hit is one stored message that matches a search, with what a person or a
// model needs to judge it: where it is, when it was said, and the words
// around the match.
type Hit struct {
	SessionID   string
	SessionName string
	Dir         string
	Title       string
	Seq         uint64
	Role        string
	// Kind is the message's kind; "summary" marks a compressed history.
	Kind string
	Time time.Time
	// Snippet is about 200 characters of the message around its best match,
	// on one line, with the matching words marked **like this**.
	Snippet string
	// Score is the message's BM25 score; higher is better.
	Score float64
	// Rewound marks a message a rewind took out of its conversation.
	Rewound bool
	// Relevance, set by Recall only, is the share of the prompt's weight
	// the message matches, from 0 to 1 (see Recall).
	Relevance float64
	// Terms is how many of the query's distinct search terms the message
	// holds (of its first 32).
	Terms int
	// NoteID is set on a hit that is a note of the project's memory
	// (Kind KindNote) rather than a message; its Snippet is the whole note.
	NoteID uint64
}

// Search finds the stored messages that best match the words of query,
// ranked by BM25 over the full-text index, at most o.Limit of them and at
// most three from any one session. Words are matched whole after
// lowercasing (identifiers also by their parts, so "config" finds
// "parseConfig"); very common English words are ignored, and a query with
// nothing else fails with ErrEmptyQuery.
func (s *Store) Search(query string, o SearchOptions) ([]Hit, error) {
	terms := queryTerms(query)
	if len(terms) == 0 {
		return nil, newError(ErrEmptyQuery, nil,
			"the search %q has no words to look for, only punctuation or words too common to index; search for more specific words", query)
	}
	limit := o.Limit
	switch {
	case limit < 0:
		return nil, fmt.Errorf("search: the limit %d is negative; give a positive number of hits, or 0 for %d", limit, defaultSearchLimit)
	case limit == 0:
		limit = defaultSearchLimit
	}
	dir := ""
	if o.Dir != "" {
		var err error
		if dir, err = cleanDir(o.Dir); err != nil {
			return nil, err
		}
	}
	var hits []Hit
	err := s.view(func(tx *bolt.Tx) error {
		ix, err := openIndex(tx)
		if err != nil {
			return err
		}
		sel, err := newSelector(tx, ix, dir, o.ExcludeSession)
		if err == nil && o.Sessions != nil {
			sel, err = sel.within(ix, o.Sessions)
		}
		if err != nil {
			return err
		}
		scores, idf, err := scoreDocs(ix, terms, nil, sel)
		if err != nil || len(scores) == 0 {
			return err
		}
		c := collector{tx: tx, ix: ix, idf: idf, since: o.Since, limit: limit, sessions: map[uint32]*sessionRecord{}, taken: map[uint32]int{}, rewinds: map[uint32][]rewindRecord{}}
		hits, err = c.collect(scores)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("search for %q: %w", query, err)
	}
	return hits, nil
}

// docID names one indexed message.
type docID struct {
	num uint32
	seq uint64
}

// selector says which sessions a search may return, by index number.
type selector struct {
	only    map[uint32]bool // nil: every session
	exclude uint32          // 0: none
}

func (sel selector) allows(num uint32) bool {
	return num != sel.exclude && (sel.only == nil || sel.only[num])
}

// newSelector turns the directory and the excluded session into index
// numbers, so postings of other sessions are skipped while scoring.
func newSelector(tx *bolt.Tx, ix indexBuckets, dir, exclude string) (selector, error) {
	var sel selector
	var err error
	if exclude != "" {
		if sel.exclude, err = ix.number(exclude, false); err != nil {
			return sel, err
		}
	}
	if dir != "" {
		sel.only = map[uint32]bool{}
		if ids := tx.Bucket([]byte(bucketDirs)).Bucket([]byte(dir)); ids != nil {
			err := ids.ForEach(func(id, _ []byte) error {
				num, err := ix.number(string(id), false)
				if num != 0 {
					sel.only[num] = true
				}
				return err
			})
			if err != nil {
				return sel, err
			}
		}
	}
	return sel, nil
}

// within narrows the selector to the sessions ids: only those that it
// allowed already and are among ids.
func (sel selector) within(ix indexBuckets, ids []string) (selector, error) {
	only := make(map[uint32]bool, len(ids))
	for _, id := range ids {
		num, err := ix.number(id, false)
		if err != nil {
			return sel, err
		}
		if num != 0 && (sel.only == nil || sel.only[num]) {
			only[num] = true
		}
	}
	sel.only = only
	return sel, nil
}

// scoreDocs computes the BM25 score of every allowed message that has at
// least one of terms, and the idf of each term found. Document frequencies
// and lengths are over the whole index, whatever the selector allows, so a
// message scores the same whichever filter finds it.
//
// The first pass counts each term's documents (a segment's value starts
// with its count; pending is scanned once), which gives the idf; the second
// scores. Within a segment each term's postings are in message order, so
// their scores are summed by merging sorted lists; a message is in one
// segment or in pending only, so the segments' results are simply joined.
//
// known, when not nil, holds each term's document frequency already
// counted (by termWeights), which saves the first pass over the segments.
func scoreDocs(ix indexBuckets, terms []string, known []uint64, sel selector) ([]scored, map[string]float64, error) {
	t := ix.totals()
	if t.docs == 0 {
		return nil, nil, nil
	}
	avgLen := float64(t.length) / float64(t.docs)
	bm25 := func(wtf, length uint64) float64 {
		tf := float64(wtf) / weightScale
		return tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(length)/avgLen))
	}

	var segs []*bolt.Bucket
	err := ix.segmeta.ForEach(func(k, _ []byte) error {
		b := ix.segments.Bucket(k)
		if b == nil {
			return fmt.Errorf("a search index segment is missing; the store is inconsistent")
		}
		segs = append(segs, b)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	keys := make([][]byte, len(terms))
	for i, term := range terms {
		keys[i] = []byte(term)
	}
	df := make([]uint64, len(terms))
	for _, b := range segs {
		if known != nil {
			break
		}
		for i, k := range keys {
			if v := b.Get(k); v != nil {
				n, err := postCount(v)
				if err != nil {
					return nil, nil, err
				}
				df[i] += n
			}
		}
	}
	type pendingMatch struct {
		id          docID
		term        int
		wtf, length uint64
	}
	var pending []pendingMatch
	err = ix.pending.ForEach(func(k, v []byte) error {
		num, seq, ok := splitDocKey(k)
		if !ok {
			return fmt.Errorf("malformed pending key in the search index")
		}
		var found []pendingMatch
		length, err := eachPendingTerm(v, func(term []byte, wtf uint64) {
			for i, k := range keys {
				if bytes.Equal(term, k) {
					df[i]++
					found = append(found, pendingMatch{docID{num, seq}, i, wtf, 0})
				}
			}
		})
		for _, m := range found {
			m.length = length
			pending = append(pending, m)
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	if known != nil {
		copy(df, known)
	}

	idf := map[string]float64{}
	weights := make([]float64, len(terms))
	for i, term := range terms {
		if df[i] > 0 {
			n := float64(t.docs)
			weights[i] = math.Log(1 + (n-float64(df[i])+0.5)/(float64(df[i])+0.5))
			idf[term] = weights[i]
		}
	}

	var all, acc, parts, merged []scored
	for _, b := range segs {
		acc = acc[:0]
		for i, k := range keys {
			v := b.Get(k)
			if v == nil {
				continue
			}
			parts = parts[:0]
			err := decodePosts(v, func(p post) {
				if sel.allows(p.num) {
					parts = append(parts, scored{docID{p.num, p.seq}, weights[i] * bm25(p.wtf, p.length), termBit(i)})
				}
			})
			if err != nil {
				return nil, nil, err
			}
			merged = mergeScores(merged[:0], acc, parts)
			acc, merged = merged, acc
		}
		all = append(all, acc...)
	}
	fromPending := len(all)
	for _, m := range pending {
		if !sel.allows(m.id.num) {
			continue
		}
		score := weights[m.term] * bm25(m.wtf, m.length)
		if n := len(all); n > fromPending && all[n-1].id == m.id {
			all[n-1].score += score
			all[n-1].terms |= termBit(m.term)
		} else {
			all = append(all, scored{m.id, score, termBit(m.term)})
		}
	}
	return all, idf, nil
}

// mergeScores appends to out the union of a and b, both in message order,
// adding the scores of a message found in both.
func mergeScores(out, a, b []scored) []scored {
	out = slices.Grow(out, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch x, y := a[i].id, b[j].id; {
		case x == y:
			out = append(out, scored{x, a[i].score + b[j].score, a[i].terms | b[j].terms})
			i++
			j++
		case x.num < y.num || (x.num == y.num && x.seq < y.seq):
			out = append(out, a[i])
			i++
		default:
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// collector turns scored messages into hits, best first.
type collector struct {
	tx    *bolt.Tx
	ix    indexBuckets
	idf   map[string]float64
	since time.Time
	limit int
	// perSession is the most hits of one session; 0 means hitsPerSession.
	perSession int
	sessions   map[uint32]*sessionRecord // nil value: the session is gone
	taken      map[uint32]int            // hits so far per session
	// rewinds caches each session's rewinds; a session whose rewinds
	// cannot be read has none here, so one damaged record does not fail
	// a search (Messages reports it).
	rewinds map[uint32][]rewindRecord
}

// collect walks the messages from the best score down, skipping those
// before since and those of sessions that already have hitsPerSession
// hits, until it has limit hits. It reorders scores.
func (c *collector) collect(scores []scored) ([]Hit, error) {
	ranked := ranking(scores)
	heap.Init(&ranked)
	var hits []Hit
	for len(ranked) > 0 && len(hits) < c.limit {
		d := heap.Pop(&ranked).(scored)
		perSession := c.perSession
		if perSession == 0 {
			perSession = hitsPerSession
		}
		if c.taken[d.id.num] >= perSession {
			continue
		}
		if !c.since.IsZero() {
			unixNano, _, err := decodeDoc(c.ix.docs.Get(docKey(d.id.num, d.id.seq)))
			if err != nil {
				return nil, err
			}
			if unixNano < c.since.UnixNano() {
				continue
			}
		}
		hit, ok, err := c.hit(d)
		if err != nil {
			return nil, err
		}
		if ok {
			c.taken[d.id.num]++
			hits = append(hits, hit)
		}
	}
	return hits, nil
}

// hit builds the hit for one message; ok is false when the message or its
// session is no longer there.
func (c *collector) hit(d scored) (Hit, bool, error) {
	rec, ok := c.sessions[d.id.num]
	if !ok {
		if id := c.ix.nums.Get(numKey(d.id.num)); id != nil {
			if r, err := loadSession(c.tx.Bucket([]byte(bucketSessions)), string(id)); err == nil {
				rec = &r
			}
		}
		c.sessions[d.id.num] = rec
	}
	if rec == nil {
		return Hit{}, false, nil
	}
	msgs := c.tx.Bucket([]byte(bucketMessages)).Bucket([]byte(rec.ID))
	if msgs == nil {
		return Hit{}, false, nil
	}
	raw := msgs.Get(seqKey(d.id.seq))
	if raw == nil {
		return Hit{}, false, nil
	}
	m, err := decodeMessage(raw)
	if err != nil {
		return Hit{}, false, fmt.Errorf("read message %d of session %s: %w", d.id.seq, rec.ID, err)
	}
	text, _ := indexedText(m)
	rewinds, ok := c.rewinds[d.id.num]
	if !ok {
		rewinds, _ = readRewinds(c.tx, rec.ID)
		c.rewinds[d.id.num] = rewinds
	}
	return Hit{
		Rewound:     isRewound(rewinds, d.id.seq),
		SessionID:   rec.ID,
		SessionName: rec.Name,
		Dir:         rec.Dir,
		Title:       rec.Title,
		Seq:         d.id.seq,
		Role:        m.Role,
		Kind:        m.Kind,
		Time:        m.Time,
		Snippet:     snippet(text, c.idf),
		Score:       d.score,
		Terms:       bits.OnesCount32(d.terms),
	}, true, nil
}

// scored is a message with its score and which of the query's terms it
// holds (bit i for term i, the first 32 terms only).
type scored struct {
	id    docID
	score float64
	terms uint32
}

// termBit is the bit of query term i in scored.terms.
func termBit(i int) uint32 {
	if i >= 32 {
		return 0
	}
	return 1 << i
}

// ranking is a heap of scored messages, best first; among equal scores the
// later session and the later message come first.
type ranking []scored

func (r ranking) Len() int { return len(r) }
func (r ranking) Less(i, j int) bool {
	a, b := r[i], r[j]
	if a.score != b.score {
		return a.score > b.score
	}
	if a.id.num != b.id.num {
		return a.id.num > b.id.num
	}
	return a.id.seq > b.id.seq
}
func (r ranking) Swap(i, j int) { r[i], r[j] = r[j], r[i] }
func (r *ranking) Push(x any)   { *r = append(*r, x.(scored)) }
func (r *ranking) Pop() any {
	old := *r
	x := old[len(old)-1]
	*r = old[:len(old)-1]
	return x
}
