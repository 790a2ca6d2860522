package session

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// indexView is the content of a search index with session numbers replaced
// by session ids, so indexes built in different orders can be compared.
type indexView struct {
	postings map[string]string // "term session seq" → "wtf length"
	docs     map[string]string // "session seq" → "unixnano length"
	totals   totals
}

// readIndex reads the index of the store at path, failing the test on any
// broken invariant of the layout:
//   - ids and nums map sessions and numbers one to one, and only live sessions;
//   - every segment has its segmeta entry and the other way round, and the
//     entry counts the segment's messages;
//   - segsess lists exactly the sessions each segment holds;
//   - each message is in pending or in one segment, never twice, and exactly
//     the messages in docs are;
//   - every posting carries its message's length;
//   - the totals agree with docs and pending.
func readIndex(t *testing.T, path string) indexView {
	t.Helper()
	v := indexView{postings: map[string]string{}, docs: map[string]string{}}
	rawView(t, path, func(tx *bolt.Tx) error {
		ix, err := openIndex(tx)
		if err != nil {
			t.Fatal(err)
		}
		sessions := tx.Bucket([]byte(bucketSessions))
		ids := map[uint32]string{}
		ix.nums.ForEach(func(k, id []byte) error {
			num := binary.BigEndian.Uint32(k)
			ids[num] = string(id)
			if back := ix.ids.Get(id); !bytes.Equal(back, k) {
				t.Errorf("nums maps %d to %s but ids maps it to %x", num, id, back)
			}
			if sessions.Get(id) == nil {
				t.Errorf("index number %d belongs to %s, which is not a session", num, id)
			}
			return nil
		})
		if n := ix.ids.Stats().KeyN; n != len(ids) {
			t.Errorf("ids has %d entries, nums %d", n, len(ids))
		}
		name := func(num uint32) string {
			id, ok := ids[num]
			if !ok {
				t.Fatalf("index number %d belongs to no session", num)
			}
			return id
		}

		lengths := map[string]uint64{}
		var sum uint64
		ix.docs.ForEach(func(k, val []byte) error {
			num, seq, ok := splitDocKey(k)
			if !ok {
				t.Fatalf("malformed docs key %x", k)
			}
			tm, l, err := decodeDoc(val)
			if err != nil {
				t.Fatal(err)
			}
			key := fmt.Sprintf("%s %d", name(num), seq)
			v.docs[key] = fmt.Sprintf("%d %d", tm, l)
			lengths[key] = l
			sum += l
			return nil
		})

		seen := map[string]string{} // message → where its postings are
		add := func(where, term string, num uint32, seq, wtf, length uint64) {
			doc := fmt.Sprintf("%s %d", name(num), seq)
			if w, ok := seen[doc]; ok && w != where {
				t.Errorf("message %s is in both %s and %s", doc, w, where)
			}
			seen[doc] = where
			if l, ok := lengths[doc]; !ok || l != length {
				t.Errorf("posting of %q in %s says message %s has length %d; docs says %d (present %v)", term, where, doc, length, l, ok)
			}
			key := fmt.Sprintf("%s %s", term, doc)
			if _, dup := v.postings[key]; dup {
				t.Errorf("posting %s appears twice", key)
			}
			v.postings[key] = fmt.Sprintf("%d %d", wtf, length)
		}

		pending := 0
		ix.pending.ForEach(func(k, val []byte) error {
			num, seq, ok := splitDocKey(k)
			if !ok {
				t.Fatalf("malformed pending key %x", k)
			}
			pending++
			var terms []termFreq
			length, err := eachPendingTerm(val, func(term []byte, wtf uint64) {
				terms = append(terms, termFreq{string(term), wtf})
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, tf := range terms {
				add("pending", tf.term, num, seq, tf.wtf, length)
			}
			return nil
		})

		segsess := map[string]bool{}
		ix.segsess.ForEach(func(k, _ []byte) error {
			segsess[fmt.Sprintf("%d %d", binary.BigEndian.Uint32(k), binary.BigEndian.Uint32(k[4:]))] = true
			return nil
		})
		metaSegs := map[uint32]segmentMeta{}
		ix.segmeta.ForEach(func(k, val []byte) error {
			m, err := decodeMeta(val)
			if err != nil {
				t.Fatal(err)
			}
			metaSegs[binary.BigEndian.Uint32(k)] = m
			return nil
		})
		wantSegsess := map[string]bool{}
		ix.segments.ForEach(func(k, _ []byte) error {
			id := binary.BigEndian.Uint32(k)
			meta, ok := metaSegs[id]
			if !ok {
				t.Errorf("segment %d has no segmeta entry", id)
			}
			delete(metaSegs, id)
			docs := map[string]bool{}
			where := fmt.Sprintf("segment %d", id)
			ix.segments.Bucket(k).ForEach(func(term, val []byte) error {
				return decodePosts(val, func(p post) {
					wantSegsess[fmt.Sprintf("%d %d", p.num, id)] = true
					docs[fmt.Sprintf("%d %d", p.num, p.seq)] = true
					add(where, string(term), p.num, p.seq, p.wtf, p.length)
				})
			})
			if uint64(len(docs)) != meta.docs {
				t.Errorf("segment %d holds %d messages; segmeta says %d", id, len(docs), meta.docs)
			}
			return nil
		})
		for id := range metaSegs {
			t.Errorf("segmeta lists segment %d, which does not exist", id)
		}
		if !maps.Equal(segsess, wantSegsess) {
			t.Errorf("segsess = %v, want %v", slices.Sorted(maps.Keys(segsess)), slices.Sorted(maps.Keys(wantSegsess)))
		}
		for doc := range lengths {
			if _, ok := seen[doc]; !ok {
				t.Errorf("message %s is in docs but has no postings", doc)
			}
		}
		v.totals = ix.totals()
		if v.totals.docs != uint64(len(lengths)) || v.totals.length != sum || v.totals.pending != uint64(pending) {
			t.Errorf("totals = %+v; docs has %d messages of total length %d, pending %d", v.totals, len(lengths), sum, pending)
		}
		return nil
	})
	return v
}

// rebuiltIndex copies the store at path, builds its index again from the
// messages in the copy, and reads that.
func rebuiltIndex(t *testing.T, path string) indexView {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "rebuilt.db")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, cp, raw)
	rawUpdate(t, cp, func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bucketIndex)); err != nil {
			return err
		}
		return buildSearchIndex(tx)
	})
	return readIndex(t, cp)
}

// checkIndex fails the test unless the index of the store at path is sound
// and holds exactly what indexing its messages afresh gives.
func checkIndex(t *testing.T, path string) {
	t.Helper()
	got, want := readIndex(t, path), rebuiltIndex(t, path)
	if !maps.Equal(got.docs, want.docs) {
		t.Errorf("the index lists messages %v; the messages give %v", slices.Sorted(maps.Keys(got.docs)), slices.Sorted(maps.Keys(want.docs)))
	}
	if !maps.Equal(got.postings, want.postings) {
		var extra, missing []string
		for k, v := range got.postings {
			if want.postings[k] != v {
				extra = append(extra, k+" = "+v)
			}
		}
		for k, v := range want.postings {
			if got.postings[k] != v {
				missing = append(missing, k+" = "+v)
			}
		}
		slices.Sort(extra)
		slices.Sort(missing)
		t.Errorf("the index's postings differ from the messages': %d wrong or extra (%.5q…), %d wrong or missing (%.5q…)", len(extra), extra, len(missing), missing)
	}
	if got.totals.docs != want.totals.docs || got.totals.length != want.totals.length {
		t.Errorf("index totals %+v, the messages give %+v", got.totals, want.totals)
	}
}
