package session

import (
	"path/filepath"
	"testing"
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
