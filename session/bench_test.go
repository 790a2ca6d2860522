package session

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// BenchmarkAppend measures storing one finished message, including opening
// the file, the commit's fsyncs and closing it again. Target: under 5 ms.
func BenchmarkAppend(b *testing.B) {
	s := newTestStore(b)
	sess := mustCreate(b, s, "bench", "/work/project")
	i := 0
	for b.Loop() {
		mustAppend(b, s, sess.ID, sampleMessage(i))
		i++
	}
}

// BenchmarkResume measures reading a 5,000-message session back: the
// session by name, then every message. Target: under 100 ms.
func BenchmarkResume(b *testing.B) {
	s := newTestStore(b)
	seed(b, s.Path(), 1, 5000)
	for b.Loop() {
		sess, err := s.Get("session-0000")
		if err != nil {
			b.Fatal(err)
		}
		msgs, err := s.Messages(sess.ID, sess.SummaryThrough)
		if err != nil {
			b.Fatal(err)
		}
		if len(msgs) != 5000 {
			b.Fatalf("resumed %d messages, want 5000", len(msgs))
		}
	}
}

// BenchmarkResumeRewound is BenchmarkResume for a session rewound 50
// times: the cost of marking rewound messages as they are read.
func BenchmarkResumeRewound(b *testing.B) {
	s := newTestStore(b)
	ids := seed(b, s.Path(), 1, 5000)
	rawUpdate(b, s.Path(), func(tx *bolt.Tx) error {
		rw, err := tx.Bucket([]byte(bucketRewinds)).CreateBucket([]byte(ids[0]))
		if err != nil {
			return err
		}
		for i := range 50 {
			from := uint64(1 + i*99)
			raw, err := json.Marshal(rewindRecord{V: recordVersion, From: from, Through: from + 30})
			if err != nil {
				return err
			}
			if err := rw.Put(seqKey(uint64(i+1)), raw); err != nil {
				return err
			}
		}
		return nil
	})
	for b.Loop() {
		msgs, err := s.Messages(ids[0], 0)
		if err != nil {
			b.Fatal(err)
		}
		if len(msgs) != 5000 || !msgs[0].Rewound || msgs[31].Rewound {
			b.Fatalf("resumed %d messages, marks wrong", len(msgs))
		}
	}
}

// BenchmarkList measures listing 1,000 sessions for the picker. Target:
// under 50 ms.
func BenchmarkList(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, fileName)
	if _, err := Open(path, Options{}); err != nil {
		b.Fatal(err)
	}
	seed(b, path, 1000, 3)
	s, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		list, err := s.List()
		if err != nil {
			b.Fatal(err)
		}
		if len(list) != 1000 {
			b.Fatalf("listed %d sessions, want 1000", len(list))
		}
	}
}

// BenchmarkGet measures the smallest operation, which is almost all the
// cost of opening and closing the file around one read transaction.
func BenchmarkGet(b *testing.B) {
	s := newTestStore(b)
	mustCreate(b, s, "bench", "/work/project")
	for b.Loop() {
		if _, err := s.Get("bench"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearch measures Search over a store of 100,000 messages in 400
// sessions of generated coding conversations, indexed as Append indexes
// them: a term in 7 messages, a term in most of them, and a three-term
// query. Target: under 50 ms. The rare case also reports the size of the
// index and of the whole file.
func BenchmarkSearch(b *testing.B) {
	s := corpusStore(b)
	for _, q := range []struct{ name, query string }{
		{"rare", corpusRareTerm},
		{"common", "error"},
		{"three-terms", "parse config timeout"},
	} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				hits, err := s.Search(q.query, SearchOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if len(hits) == 0 {
					b.Fatalf("no hits for %q", q.query)
				}
			}
			if q.name == "rare" {
				index, file := storeSizes(b, s.Path())
				b.ReportMetric(float64(index)/(1<<20), "index-MB")
				b.ReportMetric(float64(file)/(1<<20), "file-MB")
			}
		})
	}
}

// BenchmarkAppendLargeStore measures Append into a store that already holds
// 100,000 indexed messages, so the index's upkeep is included: most appends
// add to pending, one in 256 writes a segment, and now and then segments
// merge. It reports the slowest append too. Target: well under 5 ms.
func BenchmarkAppendLargeStore(b *testing.B) {
	s := corpusStore(b)
	list, err := s.List()
	if err != nil {
		b.Fatal(err)
	}
	c := newCorpus()
	i := 0
	var worst time.Duration
	for b.Loop() {
		start := time.Now()
		mustAppend(b, s, list[i%len(list)].ID, c.message(i, time.Time{}))
		worst = max(worst, time.Since(start))
		i++
	}
	b.ReportMetric(float64(worst)/float64(time.Millisecond), "worst-ms")
}

// corpusStore opens a new store holding the 100,000-message corpus.
func corpusStore(b *testing.B) *Store {
	b.Helper()
	path := filepath.Join(b.TempDir(), fileName)
	s, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	seedCorpus(b, path, 400, 100_000)
	return s
}

// storeSizes returns the bytes the search index takes (its pages, used or
// not) and the bytes of the file in use.
func storeSizes(tb testing.TB, path string) (index, file int64) {
	tb.Helper()
	db, err := bolt.Open(path, fileMode, &bolt.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		st := tx.Bucket([]byte(bucketIndex)).Stats()
		index = int64(st.BranchAlloc + st.LeafAlloc)
		file = tx.Size()
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return index, file
}

// BenchmarkOpenLargeStore measures Open of a store holding the
// 100,000-message corpus, which includes checking its pages before the
// first write; it reports the file's size.
func BenchmarkOpenLargeStore(b *testing.B) {
	s := corpusStore(b)
	_, size := storeSizes(b, s.Path())
	for b.Loop() {
		if _, err := Open(s.Path(), Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size)/(1<<20), "MB")
}

// BenchmarkRecall measures auto recall's search before each prompt, over
// the 100,000-message corpus with 50 saved notes in the project: questions
// of a few words (common and rare ones), greetings (which look nothing
// up), and a pasted error with a long explanation. It reports the median
// and the 95th percentile of one call over the mix. Target: p95 under
// 15 ms, so recall never delays the first token noticeably.
func BenchmarkRecall(b *testing.B) {
	s := corpusStore(b)
	const dir = "/home/dev/project-3"
	for i := range 50 {
		if _, err := s.AddNote(dir, fmt.Sprintf("note %d: the %s handler retries the database query after a timeout", i, []string{"auth", "cache", "router", "store"}[i%4])); err != nil {
			b.Fatal(err)
		}
	}
	prompts := []string{
		"why does the parser panic with index out of range?",
		"the database migration fails with connection refused on 5432",
		"how did we fix the " + corpusRareTerm + " bug last time",
		"what timeout does the server handler use for requests?",
		"hi",
		"thanks!",
		"rename parseConfig to loadConfig in internal/config/config.go and update the callers",
		"I get this when I run the tests:\npanic: runtime error: index out of range [3] with length 3\ngoroutine 7 [running]:\nmain.parseArgs(...)\n\t/home/dev/project-3/cmd/main.go:42\n" +
			"It started after the merge of the lexer branch; the cache and the session store were changed there too. Can you look at the stack and the recent diff and tell me which change broke it?",
	}
	var times []time.Duration
	each := make([][]time.Duration, len(prompts))
	i := 0
	for b.Loop() {
		start := time.Now()
		if _, err := s.Recall(prompts[i%len(prompts)], RecallOptions{Dir: dir}); err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		times = append(times, took)
		each[i%len(prompts)] = append(each[i%len(prompts)], took)
		i++
	}
	for j, ts := range each {
		if len(ts) > 0 {
			slices.Sort(ts)
			b.Logf("median %6.2f ms  %.40q", float64(ts[len(ts)/2])/float64(time.Millisecond), prompts[j])
		}
	}
	slices.Sort(times)
	at := func(p float64) float64 {
		return float64(times[min(len(times)-1, int(p*float64(len(times))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
	b.ReportMetric(at(1), "max-ms")
}
