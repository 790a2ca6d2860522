package acp

import (
	"io"
	"strings"
	"testing"

	"pincer/agent"
)

// BenchmarkTextDelta is the cost of one streamed piece of the answer: the
// session/update it becomes, encoded and written.
func BenchmarkTextDelta(b *testing.B) {
	srv := &server{o: Options{Log: io.Discard}, sessions: map[string]*session{}}
	srv.conn = newConn(strings.NewReader(""), io.Discard, srv, func(string, ...any) {})
	s := newSession(srv)
	s.id = "01M8W1AB3KNY1MCMWTZR6QPVX4"
	ev := agent.TextDelta{Text: "a piece of the answer, "}
	b.ReportAllocs()
	for b.Loop() {
		s.event(ev)
	}
}
