package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
)

// conversation is a session of three turns:
//
//	1 user, 2 assistant (tool call), 3 tool, 4 assistant
//	5 user, 6 assistant
//	7 user (task), 8 assistant, 9 system notice
var conversation = []chat.Message{
	{Role: chat.RoleUser, Content: "read the parser"},
	{Role: chat.RoleAssistant, Content: "reading", ToolCalls: []chat.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"p.go"}`}}},
	{Role: chat.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "package p"},
	{Role: chat.RoleAssistant, Content: "it is short"},
	{Role: chat.RoleUser, Content: "fix the loop"},
	{Role: chat.RoleAssistant, Content: "fixed"},
	{Role: chat.RoleUser, Kind: "task", Content: "check the build"},
	{Role: chat.RoleAssistant, Content: "it builds"},
	{Role: chat.RoleSystem, Kind: "notice", Content: "model changed"},
}

// talk creates a session holding conversation and returns it.
func talk(t *testing.T, s *Store, name string) Session {
	t.Helper()
	sess := mustCreate(t, s, name, "/work/project")
	for _, m := range conversation {
		mustAppend(t, s, sess.ID, m)
	}
	return sess
}

// rewoundSeqs lists the seqs of the session's messages marked Rewound.
func rewoundSeqs(t *testing.T, s *Store, id string) []uint64 {
	t.Helper()
	msgs, err := s.Messages(id, 0)
	if err != nil {
		t.Fatalf("Messages: %v", err)
	}
	var out []uint64
	for _, m := range msgs {
		if m.Rewound {
			out = append(out, m.Seq)
		}
	}
	return out
}

func seqs(from, through uint64) []uint64 {
	var out []uint64
	for i := from; i <= through; i++ {
		out = append(out, i)
	}
	return out
}

func mustRewind(t *testing.T, s *Store, id string, r Rewind) Rewind {
	t.Helper()
	got, err := s.Rewind(id, r)
	if err != nil {
		t.Fatalf("Rewind(%+v): %v", r, err)
	}
	return got
}

func TestCheckpointsArePutListedAndReplaced(t *testing.T) {
	s := newTestStore(t)
	sess := talk(t, s, "x")
	at := time.Date(2025, 4, 1, 12, 0, 0, 0, time.UTC)
	puts := []Checkpoint{
		{Seq: 7, Before: "snap-7", Time: at},
		{Seq: 1, Before: "snap-1", After: "snap-1b", Time: at, Skipped: []string{"big.bin", "secret.key"}},
		{Seq: 5, Before: "snap-5"}, // no time: now
		{Seq: 7, Before: "snap-7", After: "snap-7b", Time: at.Add(time.Minute)}, // the turn ended
	}
	for _, c := range puts {
		if err := s.PutCheckpoint(sess.ID, c); err != nil {
			t.Fatalf("PutCheckpoint(%+v): %v", c, err)
		}
	}
	got, err := s.Checkpoints(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("Checkpoints = %+v, want 3", got)
	}
	if got[1].Time.IsZero() {
		t.Error("a checkpoint without a time was not given one")
	}
	got[1].Time = time.Time{}
	want := []Checkpoint{puts[1], {Seq: 5, Before: "snap-5"}, puts[3]}
	for i := range want {
		if !got[i].Time.Equal(want[i].Time) || got[i].Seq != want[i].Seq || got[i].Before != want[i].Before ||
			got[i].After != want[i].After || !slices.Equal(got[i].Skipped, want[i].Skipped) {
			t.Errorf("checkpoint %d = %+v, want %+v", i, got[i], want[i])
		}
	}

	empty := mustCreate(t, s, "empty", "/work/project")
	if cps, err := s.Checkpoints(empty.ID); err != nil || cps == nil || len(cps) != 0 {
		t.Errorf("Checkpoints of a session without any = %#v, %v; want an empty list", cps, err)
	}
}

func TestPutCheckpointRefuses(t *testing.T) {
	s := newTestStore(t)
	sess := talk(t, s, "x")
	tests := []struct {
		name string
		id   string
		c    Checkpoint
		want string // in the error
		is   error
	}{
		{"no seq", sess.ID, Checkpoint{Before: "a"}, "no message", nil},
		{"no snapshot", sess.ID, Checkpoint{Seq: 1}, "no snapshot id", nil},
		{"an unknown message", sess.ID, Checkpoint{Seq: 99, Before: "a"}, "no message 99", nil},
		{"an assistant message", sess.ID, Checkpoint{Seq: 2, Before: "a"}, "message 2 (role assistant) is not a prompt", nil},
		{"a tool result", sess.ID, Checkpoint{Seq: 3, Before: "a"}, "message 3 (role tool) is not a prompt", nil},
		{"an unknown session", "01JNOSUCHSESSION0000000000", Checkpoint{Seq: 1, Before: "a"}, "01JNOSUCHSESSION", ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.PutCheckpoint(tt.id, tt.c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("PutCheckpoint = %v, want an error about %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
		})
	}
	if cps, err := s.Checkpoints(sess.ID); err != nil || len(cps) != 0 {
		t.Errorf("refused checkpoints were stored: %+v, %v", cps, err)
	}
	empty := mustCreate(t, s, "empty", "/work")
	if err := s.PutCheckpoint(empty.ID, Checkpoint{Seq: 1, Before: "a"}); err == nil || !strings.Contains(err.Error(), "nor any other yet") {
		t.Errorf("PutCheckpoint in a session without messages = %v", err)
	}
}

func TestRewindMarksExactlyFromThrough(t *testing.T) {
	for _, from := range []uint64{1, 5, 7} {
		t.Run(fmt.Sprint("from ", from), func(t *testing.T) {
			s := newTestStore(t)
			sess := talk(t, s, "x")
			other := talk(t, s, "other")
			got := mustRewind(t, s, sess.ID, Rewind{From: from, Code: "snap-now"})
			if got.From != from || got.Through != 9 || got.Time.IsZero() || got.Code != "snap-now" {
				t.Errorf("Rewind returned %+v, want From %d Through 9 with a time", got, from)
			}
			if r := rewoundSeqs(t, s, sess.ID); !slices.Equal(r, seqs(from, 9)) {
				t.Errorf("rewound messages = %v, want %v", r, seqs(from, 9))
			}
			if r := rewoundSeqs(t, s, other.ID); r != nil {
				t.Errorf("another session's messages are rewound: %v", r)
			}
			// Reading from the middle marks the same.
			msgs, err := s.Messages(sess.ID, 5)
			if err != nil || len(msgs) != 4 {
				t.Fatalf("Messages after 5 = %d, %v", len(msgs), err)
			}
			for _, m := range msgs {
				if m.Rewound != (m.Seq >= from) {
					t.Errorf("message %d after 5: rewound %v", m.Seq, m.Rewound)
				}
			}
			list, err := s.Rewinds(sess.ID)
			if err != nil || len(list) != 1 || list[0].From != from || list[0].Through != 9 || !list[0].Time.Equal(got.Time) {
				t.Errorf("Rewinds = %+v, %v; want the one returned %+v", list, err, got)
			}
		})
	}
}

func TestRewindIsNotStoredInTheMessage(t *testing.T) {
	s := newTestStore(t)
	sess := talk(t, s, "x")
	mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleUser, Content: "claims to be rewound", Rewound: true})
	mustRewind(t, s, sess.ID, Rewind{From: 5})
	rawView(t, s.Path(), func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketMessages)).Bucket([]byte(sess.ID)).ForEach(func(k, v []byte) error {
			if bytes.Contains(v, []byte(`"rewound":`)) {
				t.Errorf("message record %x holds the mark: %s", k, v)
			}
			return nil
		})
	})
	if _, err := s.Redo(sess.ID); err != nil {
		t.Fatal(err)
	}
	if r := rewoundSeqs(t, s, sess.ID); r != nil {
		t.Errorf("after Redo, rewound = %v (an appended mark was kept?)", r)
	}
}

func TestRewindRefuses(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, s *Store, id string)
		r     Rewind
		id    string // "" for the session
		want  string
		is    error
	}{
		{"no message", nil, Rewind{}, "", "no message given", nil},
		{"an unknown seq", nil, Rewind{From: 10}, "", "no message 10", nil},
		{"an assistant message", nil, Rewind{From: 2}, "", "message 2 (role assistant) is not a prompt", nil},
		{"a tool result", nil, Rewind{From: 3}, "", "message 3 (role tool) is not a prompt", nil},
		{"a system notice", nil, Rewind{From: 9}, "", "message 9 (role system, kind notice) is not a prompt", nil},
		{"a user message of another kind", func(t *testing.T, s *Store, id string) {
			mustAppend(t, s, id, chat.Message{Role: chat.RoleUser, Kind: chat.KindSummary, Content: "summary of earlier"})
		}, Rewind{From: 10}, "", "message 10 (role user, kind summary) is not a prompt", nil},
		{"an already rewound prompt", func(t *testing.T, s *Store, id string) {
			mustRewind(t, s, id, Rewind{From: 5})
		}, Rewind{From: 7}, "", "message 7 was already rewound (messages 5–9", nil},
		{"the rewound prompt itself", func(t *testing.T, s *Store, id string) {
			mustRewind(t, s, id, Rewind{From: 5})
		}, Rewind{From: 5}, "", "message 5 was already rewound", nil},
		{"a stale end", nil, Rewind{From: 5, Through: 8}, "", "now ends at message 9, not 8", nil},
		{"an unknown session", nil, Rewind{From: 1}, "01JNOSUCHSESSION0000000000", "01JNOSUCHSESSION", ErrNotFound},
		{"a role-less message", func(t *testing.T, s *Store, id string) {
			rawUpdate(t, s.Path(), func(tx *bolt.Tx) error {
				return tx.Bucket([]byte(bucketMessages)).Bucket([]byte(id)).Put(seqKey(4), []byte(`{"v":1,"seq":4}`))
			})
		}, Rewind{From: 4}, "", "message 4 (no role) is not a prompt", nil},
		{"an unreadable message", func(t *testing.T, s *Store, id string) {
			rawUpdate(t, s.Path(), func(tx *bolt.Tx) error {
				return tx.Bucket([]byte(bucketMessages)).Bucket([]byte(id)).Put(seqKey(5), []byte(`{damaged`))
			})
		}, Rewind{From: 5}, "", "message 5 cannot be read", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			sess := talk(t, s, "x")
			if err := s.SetSummary(sess.ID, "all of it", 8); err != nil {
				t.Fatal(err)
			}
			if tt.setup != nil {
				tt.setup(t, s, sess.ID)
			}
			before, err := s.Rewinds(sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			beforeSess, _ := s.Get(sess.ID)
			id := tt.id
			if id == "" {
				id = sess.ID
			}
			_, err = s.Rewind(id, tt.r)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), id) {
				t.Fatalf("Rewind(%+v) = %v, want an error naming the session and %q", tt.r, err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			after, _ := s.Rewinds(sess.ID)
			afterSess, _ := s.Get(sess.ID)
			if len(after) != len(before) || afterSess.Summary != beforeSess.Summary || afterSess.SummaryThrough != beforeSess.SummaryThrough {
				t.Errorf("a refused rewind changed the session: rewinds %d → %d, summary %q/%d → %q/%d",
					len(before), len(after), beforeSess.Summary, beforeSess.SummaryThrough, afterSess.Summary, afterSess.SummaryThrough)
			}
		})
	}
}

func TestRewindDropsACoveringSummaryAndRedoRestoresIt(t *testing.T) {
	tests := []struct {
		name    string
		through uint64 // the summary covers 1..through
		from    uint64
		dropped bool
	}{
		{"the summary covers the prompt", 5, 5, true},
		{"the summary covers later messages", 8, 5, true},
		{"the summary ends just before", 4, 5, false},
		{"the summary ends long before", 2, 7, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			sess := talk(t, s, "x")
			text := fmt.Sprintf("summary of 1..%d", tt.through)
			if err := s.SetSummary(sess.ID, text, tt.through); err != nil {
				t.Fatal(err)
			}
			r := mustRewind(t, s, sess.ID, Rewind{From: tt.from, Summary: "ignored", SummaryThrough: 1})
			got, err := s.Get(sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			if tt.dropped {
				if got.Summary != "" || got.SummaryThrough != 0 {
					t.Errorf("after the rewind the summary is %q through %d, want none", got.Summary, got.SummaryThrough)
				}
				if r.Summary != text || r.SummaryThrough != tt.through {
					t.Errorf("the rewind kept %q through %d, want %q through %d", r.Summary, r.SummaryThrough, text, tt.through)
				}
			} else {
				if got.Summary != text || got.SummaryThrough != tt.through {
					t.Errorf("a summary before the prompt was changed to %q through %d", got.Summary, got.SummaryThrough)
				}
				if r.Summary != "" || r.SummaryThrough != 0 {
					t.Errorf("the rewind kept a summary it did not drop: %q through %d", r.Summary, r.SummaryThrough)
				}
			}
			stored, _ := s.Rewinds(sess.ID)
			if len(stored) != 1 || stored[0].Summary != r.Summary || stored[0].SummaryThrough != r.SummaryThrough {
				t.Errorf("stored rewind %+v differs from the returned %+v", stored, r)
			}

			redone, err := s.Redo(sess.ID)
			if err != nil {
				t.Fatalf("Redo: %v", err)
			}
			if redone.From != tt.from || redone.Through != 9 {
				t.Errorf("Redo returned %+v", redone)
			}
			got, _ = s.Get(sess.ID)
			if got.Summary != text || got.SummaryThrough != tt.through {
				t.Errorf("after Redo the summary is %q through %d, want %q through %d", got.Summary, got.SummaryThrough, text, tt.through)
			}
			if r := rewoundSeqs(t, s, sess.ID); r != nil {
				t.Errorf("after Redo, rewound = %v", r)
			}
		})
	}
}

func TestRedoIsStaleOnceTheConversationWentOn(t *testing.T) {
	tests := []struct {
		name  string
		after func(t *testing.T, s *Store, id string)
		want  string
	}{
		{"a message was added", func(t *testing.T, s *Store, id string) {
			mustAppend(t, s, id, chat.Message{Role: chat.RoleUser, Content: "try another way"})
		}, "1 message came after it"},
		{"two messages were added", func(t *testing.T, s *Store, id string) {
			mustAppend(t, s, id, chat.Message{Role: chat.RoleUser, Content: "try another way"})
			mustAppend(t, s, id, chat.Message{Role: chat.RoleAssistant, Content: "ok"})
		}, "2 messages came after it"},
		{"the session was compacted", func(t *testing.T, s *Store, id string) {
			if err := s.SetSummary(id, "a new summary", 3); err != nil {
				t.Fatal(err)
			}
		}, "compacted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			sess := talk(t, s, "kept-name")
			if err := s.SetSummary(sess.ID, "old summary", 6); err != nil {
				t.Fatal(err)
			}
			mustRewind(t, s, sess.ID, Rewind{From: 5})
			tt.after(t, s, sess.ID)
			before, _ := s.Get(sess.ID)
			_, err := s.Redo(sess.ID)
			if !errors.Is(err, ErrRedoStale) {
				t.Fatalf("Redo = %v, want ErrRedoStale", err)
			}
			if !strings.Contains(err.Error(), "kept-name") || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "rewind again") {
				t.Errorf("error %q should name the session, say %q and the way on", err, tt.want)
			}
			if r := rewoundSeqs(t, s, sess.ID); !slices.Equal(r, seqs(5, 9)) {
				t.Errorf("a refused Redo changed the marks: %v", r)
			}
			if after, _ := s.Get(sess.ID); after.Summary != before.Summary || after.SummaryThrough != before.SummaryThrough {
				t.Errorf("a refused Redo changed the summary to %q/%d", after.Summary, after.SummaryThrough)
			}
		})
	}
}

func TestNothingToRedo(t *testing.T) {
	s := newTestStore(t)
	sess := talk(t, s, "x")
	_, err := s.Redo(sess.ID)
	if !errors.Is(err, ErrNothingToRedo) || !strings.Contains(err.Error(), "x") {
		t.Fatalf("Redo of a session never rewound = %v, want ErrNothingToRedo naming it", err)
	}
	mustRewind(t, s, sess.ID, Rewind{From: 5})
	if _, err := s.Redo(sess.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Redo(sess.ID); !errors.Is(err, ErrNothingToRedo) {
		t.Errorf("a second Redo = %v, want ErrNothingToRedo", err)
	}
	if _, err := s.Redo("01JNOSUCHSESSION0000000000"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Redo of an unknown session = %v, want ErrNotFound", err)
	}
	for _, e := range []error{ErrNothingToRedo, ErrRedoStale} {
		if msg := e.Error(); !strings.Contains(msg, ":") || strings.Contains(msg, "\n") {
			t.Errorf("sentinel %q should be one sentence saying what and what to do", msg)
		}
	}
}

func TestTwoRewindsThenRedoUndoesOnlyTheLast(t *testing.T) {
	t.Run("the second rewind covers messages added after the first", func(t *testing.T) {
		s := newTestStore(t)
		sess := talk(t, s, "x")
		mustRewind(t, s, sess.ID, Rewind{From: 5, Code: "first"})
		mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleUser, Content: "another way"}) // 10
		mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleAssistant, Content: "done"})   // 11
		second := mustRewind(t, s, sess.ID, Rewind{From: 10, Code: "second"})
		if second.Through != 11 {
			t.Errorf("second rewind through %d, want 11", second.Through)
		}
		if r := rewoundSeqs(t, s, sess.ID); !slices.Equal(r, seqs(5, 11)) {
			t.Errorf("rewound = %v, want 5..11", r)
		}
		redone, err := s.Redo(sess.ID)
		if err != nil || redone.From != 10 || redone.Code != "second" {
			t.Fatalf("Redo = %+v, %v; want the second rewind", redone, err)
		}
		if r := rewoundSeqs(t, s, sess.ID); !slices.Equal(r, seqs(5, 9)) {
			t.Errorf("after Redo, rewound = %v, want 5..9", r)
		}
		// The first rewind stays: the conversation went on after it.
		if _, err := s.Redo(sess.ID); !errors.Is(err, ErrRedoStale) {
			t.Errorf("Redo of the first rewind = %v, want ErrRedoStale", err)
		}
	})
	t.Run("rewinding further back without going on", func(t *testing.T) {
		s := newTestStore(t)
		sess := talk(t, s, "x")
		mustRewind(t, s, sess.ID, Rewind{From: 7})
		mustRewind(t, s, sess.ID, Rewind{From: 5})
		if r := rewoundSeqs(t, s, sess.ID); !slices.Equal(r, seqs(5, 9)) {
			t.Errorf("rewound = %v, want 5..9", r)
		}
		if r, err := s.Redo(sess.ID); err != nil || r.From != 5 {
			t.Fatalf("Redo = %+v, %v", r, err)
		}
		if r := rewoundSeqs(t, s, sess.ID); !slices.Equal(r, seqs(7, 9)) {
			t.Errorf("after one Redo, rewound = %v, want 7..9", r)
		}
		if r, err := s.Redo(sess.ID); err != nil || r.From != 7 {
			t.Fatalf("second Redo = %+v, %v", r, err)
		}
		if r := rewoundSeqs(t, s, sess.ID); r != nil {
			t.Errorf("after both Redos, rewound = %v", r)
		}
	})
}

// bucketKeys lists the keys of session id's bucket inside top; nil when
// it has none.
func bucketKeys(t *testing.T, path, top, id string) [][]byte {
	t.Helper()
	var keys [][]byte
	rawView(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(top)).Bucket([]byte(id))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error { keys = append(keys, bytes.Clone(k)); return nil })
	})
	return keys
}

func TestDeleteRemovesAndForkCopiesCheckpointsAndRewinds(t *testing.T) {
	s := newTestStore(t)
	sess := talk(t, s, "orig")
	for _, c := range []Checkpoint{{Seq: 1, Before: "a", After: "b"}, {Seq: 5, Before: "b", After: "c"}} {
		if err := s.PutCheckpoint(sess.ID, c); err != nil {
			t.Fatal(err)
		}
	}
	mustRewind(t, s, sess.ID, Rewind{From: 5, Code: "d"})

	fork, err := s.Fork("orig", "fork")
	if err != nil {
		t.Fatal(err)
	}
	wantCps, _ := s.Checkpoints(sess.ID)
	gotCps, err := s.Checkpoints(fork.ID)
	if err != nil || len(gotCps) != 2 || gotCps[0].Before != wantCps[0].Before || gotCps[1].After != wantCps[1].After {
		t.Errorf("fork checkpoints = %+v, %v; want %+v", gotCps, err, wantCps)
	}
	if r := rewoundSeqs(t, s, fork.ID); !slices.Equal(r, seqs(5, 9)) {
		t.Errorf("fork rewound = %v, want 5..9", r)
	}
	// A rewind in a fork numbers after the copied ones, so Redo undoes it
	// and leaves the copied one in force.
	fork2, err := s.Fork("orig", "")
	if err != nil {
		t.Fatal(err)
	}
	mustRewind(t, s, fork2.ID, Rewind{From: 1})
	if r, err := s.Redo(fork2.ID); err != nil || r.From != 1 {
		t.Errorf("Redo in the second fork = %+v, %v; want its own rewind", r, err)
	}
	if r := rewoundSeqs(t, s, fork2.ID); !slices.Equal(r, seqs(5, 9)) {
		t.Errorf("second fork rewound after Redo = %v, want the copied 5..9", r)
	}
	// The copies are the fork's own: redoing in it leaves the original alone.
	if _, err := s.Redo(fork.ID); err != nil {
		t.Fatalf("Redo in the fork: %v", err)
	}
	if r := rewoundSeqs(t, s, sess.ID); !slices.Equal(r, seqs(5, 9)) {
		t.Errorf("Redo in the fork changed the original: rewound = %v", r)
	}
	// A rewind in the fork numbers after the copied ones.
	mustRewind(t, s, fork.ID, Rewind{From: 7})
	mustRewind(t, s, fork.ID, Rewind{From: 5})
	if r, err := s.Redo(fork.ID); err != nil || r.From != 5 {
		t.Errorf("Redo in the fork = %+v, %v; want the latest rewind", r, err)
	}

	ids, err := s.CheckpointIDs(sess.ID)
	if err != nil || !slices.Equal(ids, []string{"a", "b", "c", "d"}) {
		t.Errorf("CheckpointIDs = %v, %v; want a b c d", ids, err)
	}
	if err := s.Delete("orig"); err != nil {
		t.Fatal(err)
	}
	for _, top := range []string{bucketCheckpoints, bucketRewinds} {
		rawView(t, s.Path(), func(tx *bolt.Tx) error {
			if tx.Bucket([]byte(top)).Bucket([]byte(sess.ID)) != nil {
				t.Errorf("Delete left the %s of the session", top)
			}
			return nil
		})
		if keys := bucketKeys(t, s.Path(), top, fork.ID); len(keys) == 0 {
			t.Errorf("deleting the original removed the fork's %s", top)
		}
	}
	if _, err := s.CheckpointIDs(sess.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("CheckpointIDs of a deleted session = %v, want ErrNotFound", err)
	}
	if cps, err := s.Checkpoints(fork.ID); err != nil || len(cps) != 2 {
		t.Errorf("fork checkpoints after deleting the original = %+v, %v", cps, err)
	}
}

func TestSnapshotIDsOfASessionAndOfADirectory(t *testing.T) {
	s := newTestStore(t)
	a := talk(t, s, "a")
	b := talk(t, s, "b")
	elsewhere := mustCreate(t, s, "elsewhere", "/work/other")
	mustAppend(t, s, elsewhere.ID, chat.Message{Role: chat.RoleUser, Content: "hi"})
	put := func(id string, c Checkpoint) {
		t.Helper()
		if err := s.PutCheckpoint(id, c); err != nil {
			t.Fatal(err)
		}
	}
	put(a.ID, Checkpoint{Seq: 1, Before: "s1", After: "s2"})
	put(a.ID, Checkpoint{Seq: 5, Before: "s2"}) // After failed: ""
	mustRewind(t, s, a.ID, Rewind{From: 5, Code: "s9"})
	put(b.ID, Checkpoint{Seq: 1, Before: "s1", After: "s3"})
	mustRewind(t, s, b.ID, Rewind{From: 1}) // conversation only: no code
	put(elsewhere.ID, Checkpoint{Seq: 1, Before: "x1"})

	tests := []struct {
		name string
		got  func() ([]string, error)
		want []string
	}{
		{"session a", func() ([]string, error) { return s.CheckpointIDs(a.ID) }, []string{"s1", "s2", "s9"}},
		{"session b", func() ([]string, error) { return s.CheckpointIDs(b.ID) }, []string{"s1", "s3"}},
		{"the project", func() ([]string, error) { return s.LiveSnapshots("/work/project") }, []string{"s1", "s2", "s3", "s9"}},
		{"the project, unclean path", func() ([]string, error) { return s.LiveSnapshots("/work/project/") }, []string{"s1", "s2", "s3", "s9"}},
		{"another project", func() ([]string, error) { return s.LiveSnapshots("/work/other") }, []string{"x1"}},
		{"a directory without sessions", func() ([]string, error) { return s.LiveSnapshots("/nowhere") }, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.got()
			if err != nil || got == nil || !slices.Equal(got, tt.want) {
				t.Errorf("= %#v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// writeSchema3Store makes a store of schema 3 at path, the last schema
// without checkpoints, holding a session with messages, a summary and a
// task, written by this build's own functions at that schema.
func writeSchema3Store(t *testing.T, path string) Session {
	t.Helper()
	old, err := open(path, Options{}, migrations[:3])
	if err != nil {
		t.Fatal(err)
	}
	sess := mustCreate(t, old, "kept", "/work/project")
	for _, m := range conversation {
		mustAppend(t, old, sess.ID, m)
	}
	if err := old.SetSummary(sess.ID, "the parser was read", 4); err != nil {
		t.Fatal(err)
	}
	if _, err := old.AddTask(Task{Session: sess.ID, Prompt: "check the build", Next: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if got := schemaOf(t, path); got != 3 {
		t.Fatalf("the old store has schema %d, want 3", got)
	}
	rawView(t, path, func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(bucketCheckpoints)) != nil || tx.Bucket([]byte(bucketRewinds)) != nil {
			t.Fatal("schema 3 already has the new buckets")
		}
		return nil
	})
	return sess
}

func TestMigrationFromSchema3KeepsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	sess := writeSchema3Store(t, path)

	// Read-only, the old file is read as it is: no rewinds, no checkpoints.
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("Open read-only of a schema 3 store: %v", err)
	}
	if cps, err := ro.Checkpoints(sess.ID); err != nil || len(cps) != 0 {
		t.Errorf("Checkpoints of the old store = %+v, %v", cps, err)
	}
	if rws, err := ro.Rewinds(sess.ID); err != nil || len(rws) != 0 {
		t.Errorf("Rewinds of the old store = %+v, %v", rws, err)
	}
	if r := rewoundSeqs(t, ro, sess.ID); r != nil {
		t.Errorf("old store rewound = %v", r)
	}
	if ids, err := ro.LiveSnapshots("/work/project"); err != nil || len(ids) != 0 {
		t.Errorf("LiveSnapshots of the old store = %v, %v", ids, err)
	}
	if got := schemaOf(t, path); got != 3 {
		t.Fatalf("a read-only Open migrated the file to %d", got)
	}

	s, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("Open of a schema 3 store: %v", err)
	}
	if got := schemaOf(t, path); got != 5 || len(migrations) != 5 {
		t.Errorf("schema after Open = %d (of %d), want 5", got, len(migrations))
	}
	got, err := s.Get("kept")
	if err != nil || got.ID != sess.ID || got.Summary != "the parser was read" || got.SummaryThrough != 4 || got.MessageCount != len(conversation) {
		t.Errorf("the migrated session = %+v, %v", got, err)
	}
	msgs, err := s.Messages(sess.ID, 0)
	if err != nil || len(msgs) != len(conversation) {
		t.Fatalf("migrated messages = %d, %v", len(msgs), err)
	}
	for i, m := range msgs {
		if m.Content != conversation[i].Content || m.Role != conversation[i].Role || m.Rewound {
			t.Errorf("message %d = %+v, want %+v", i+1, m, conversation[i])
		}
	}
	if tasks, err := s.Tasks(); err != nil || len(tasks) != 1 {
		t.Errorf("migrated tasks = %+v, %v", tasks, err)
	}
	if hits := mustSearch(t, s, "parser", SearchOptions{}); len(hits) == 0 {
		t.Error("the migrated store's index lost the messages")
	}
	if err := s.PutCheckpoint(sess.ID, Checkpoint{Seq: 5, Before: "snap"}); err != nil {
		t.Errorf("PutCheckpoint on the migrated store: %v", err)
	}
	mustRewind(t, s, sess.ID, Rewind{From: 5})
	if r := rewoundSeqs(t, s, sess.ID); !slices.Equal(r, seqs(5, 9)) {
		t.Errorf("rewound on the migrated store = %v", r)
	}
}

func TestAReadOnlyStoreRefusesCheckpointsAndRewinds(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess := talk(t, s, "x")
	if err := s.PutCheckpoint(sess.ID, Checkpoint{Seq: 1, Before: "a"}); err != nil {
		t.Fatal(err)
	}
	mustRewind(t, s, sess.ID, Rewind{From: 7})
	before := readFile(t, path)

	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	writes := map[string]func() error{
		"PutCheckpoint": func() error { return ro.PutCheckpoint(sess.ID, Checkpoint{Seq: 5, Before: "b"}) },
		"Rewind":        func() error { _, err := ro.Rewind(sess.ID, Rewind{From: 5}); return err },
		"Redo":          func() error { _, err := ro.Redo(sess.ID); return err },
	}
	for name, write := range writes {
		if err := write(); !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s on a read-only store = %v, want ErrReadOnly naming the file", name, err)
		}
	}
	if !bytes.Equal(before, readFile(t, path)) {
		t.Error("a read-only store wrote the file")
	}
	if cps, err := ro.Checkpoints(sess.ID); err != nil || len(cps) != 1 {
		t.Errorf("Checkpoints read-only = %+v, %v", cps, err)
	}
	if r := rewoundSeqs(t, ro, sess.ID); !slices.Equal(r, seqs(7, 9)) {
		t.Errorf("rewound read-only = %v", r)
	}
}

func TestADamagedCheckpointOrRewindRecordIsReported(t *testing.T) {
	tests := []struct {
		name   string
		top    string
		key    []byte
		raw    string
		reads  []string // operations that must fail
		writes bool     // Rewind must refuse too
	}{
		{"a checkpoint that is not JSON", bucketCheckpoints, seqKey(1), "{not json",
			[]string{"Checkpoints", "CheckpointIDs", "LiveSnapshots"}, false},
		{"a checkpoint under another seq", bucketCheckpoints, seqKey(2), `{"v":1,"seq":1,"before":"a"}`,
			[]string{"Checkpoints", "CheckpointIDs", "LiveSnapshots"}, false},
		{"a checkpoint of no version", bucketCheckpoints, seqKey(1), `{"seq":1,"before":"a"}`,
			[]string{"Checkpoints"}, false},
		{"a rewind that is not JSON", bucketRewinds, seqKey(1), "\xff\x00garbage",
			[]string{"Rewinds", "Messages", "Export", "CheckpointIDs", "LiveSnapshots", "Redo"}, true},
		{"a rewind of no messages", bucketRewinds, seqKey(1), `{"v":1,"from":0,"through":0}`,
			[]string{"Rewinds", "Messages", "Export", "Redo"}, true},
		{"a rewind ending before it starts", bucketRewinds, seqKey(1), `{"v":1,"from":7,"through":5}`,
			[]string{"Rewinds", "Messages"}, true},
		{"a rewind under a short key", bucketRewinds, []byte{1}, `{"v":1,"from":5,"through":9}`,
			[]string{"Rewinds", "Messages"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			sess := talk(t, s, "broken")
			other := talk(t, s, "fine")
			rawUpdate(t, s.Path(), func(tx *bolt.Tx) error {
				b, err := tx.Bucket([]byte(tt.top)).CreateBucketIfNotExists([]byte(sess.ID))
				if err != nil {
					return err
				}
				return b.Put(tt.key, []byte(tt.raw))
			})
			ops := map[string]func(id string) error{
				"Checkpoints":   func(id string) error { _, err := s.Checkpoints(id); return err },
				"Rewinds":       func(id string) error { _, err := s.Rewinds(id); return err },
				"Messages":      func(id string) error { _, err := s.Messages(id, 0); return err },
				"Export":        func(id string) error { return s.Export(&bytes.Buffer{}, id, FormatJSON) },
				"CheckpointIDs": func(id string) error { _, err := s.CheckpointIDs(id); return err },
				"LiveSnapshots": func(string) error { _, err := s.LiveSnapshots("/work/project"); return err },
				"Redo":          func(id string) error { _, err := s.Redo(id); return err },
			}
			for _, name := range tt.reads {
				err := ops[name](sess.ID)
				if !errors.Is(err, ErrDamagedRecord) || !strings.Contains(err.Error(), sess.ID) ||
					!strings.Contains(err.Error(), "pincer sessions rm "+sess.ID) {
					t.Errorf("%s = %v, want ErrDamagedRecord naming the session and the fix", name, err)
				}
				if name != "LiveSnapshots" {
					if err := ops[name](other.ID); err != nil && !errors.Is(err, ErrNothingToRedo) {
						t.Errorf("%s of another session = %v", name, err)
					}
				}
			}
			if tt.writes {
				if _, err := s.Rewind(sess.ID, Rewind{From: 1}); !errors.Is(err, ErrDamagedRecord) {
					t.Errorf("Rewind over a damaged rewind = %v, want ErrDamagedRecord", err)
				}
			}
			// The fix the error gives works.
			if err := s.Delete(sess.ID); err != nil {
				t.Fatalf("Delete: %v", err)
			}
			if ids, err := s.LiveSnapshots("/work/project"); err != nil {
				t.Errorf("LiveSnapshots after deleting the damaged session = %v, %v", ids, err)
			}
		})
	}
}

func TestExportMarksRewoundMessages(t *testing.T) {
	s := newTestStore(t)
	sess := talk(t, s, "x")
	mustRewind(t, s, sess.ID, Rewind{From: 5})

	var md bytes.Buffer
	if err := s.Export(&md, "x", FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	text := md.String()
	for _, want := range []string{
		"## Turn 1\n",
		"## Turn 2 (rewound)\n",
		"## Turn 3 (rewound)\n",
		"### User (rewound)\n\n_#5 ",
		"### Assistant (rewound)\n\n_#6 ",
		"### User — task (rewound)\n\n_#7 ",
		"### System — notice (rewound)\n\n_#9 ",
		"### User\n\n_#1 ",
		"### Tool result: `read_file` (`c1`)\n\n_#3 ",
		"- **Rewound:** messages 5–9 on ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("markdown lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "(rewound)"); n != 2+5 {
		t.Errorf("markdown marks %d headings, want 7 (2 turns, 5 messages):\n%s", n, text)
	}

	var js bytes.Buffer
	if err := s.Export(&js, "x", FormatJSON); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Messages []map[string]any `json:"messages"`
		Rewinds  []map[string]any `json:"rewinds"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, m := range doc.Messages {
		seq := m["seq"].(float64)
		if got, want := m["rewound"] == true, seq >= 5; got != want {
			t.Errorf("JSON message %v: rewound %v, want %v", seq, m["rewound"], want)
		}
	}
	if len(doc.Rewinds) != 1 || doc.Rewinds[0]["from"] != float64(5) || doc.Rewinds[0]["through"] != float64(9) {
		t.Errorf("JSON rewinds = %v", doc.Rewinds)
	}

	// Redone, nothing is marked.
	if _, err := s.Redo(sess.ID); err != nil {
		t.Fatal(err)
	}
	md.Reset()
	if err := s.Export(&md, "x", FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "rewound") || strings.Contains(md.String(), "Rewound") {
		t.Errorf("after Redo the markdown still marks messages:\n%s", md.String())
	}
}

func TestSearchHitsSayWhetherTheyWereRewound(t *testing.T) {
	s := newTestStore(t)
	sess := talk(t, s, "x")
	mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleUser, Content: "the zeppelin lands"})      // 10
	mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleAssistant, Content: "zeppelin parked"})    // 11
	mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleUser, Content: "and the zeppelin leaves"}) // 12
	mustRewind(t, s, sess.ID, Rewind{From: 12})
	// A damaged rewind of another session does not fail the search.
	other := talk(t, s, "y")
	mustAppend(t, s, other.ID, chat.Message{Role: chat.RoleUser, Content: "a zeppelin elsewhere"})
	rawUpdate(t, s.Path(), func(tx *bolt.Tx) error {
		b, err := tx.Bucket([]byte(bucketRewinds)).CreateBucketIfNotExists([]byte(other.ID))
		if err != nil {
			return err
		}
		return b.Put(seqKey(1), []byte("garbage"))
	})
	hits := mustSearch(t, s, "zeppelin", SearchOptions{Limit: 10})
	got := map[string]bool{}
	for _, h := range hits {
		got[fmt.Sprint(h.SessionName, h.Seq)] = h.Rewound
	}
	want := map[string]bool{"x10": false, "x11": false, "x12": true, "y10": false}
	if len(got) != len(want) {
		t.Fatalf("hits = %+v", hits)
	}
	for k, w := range want {
		if r, ok := got[k]; !ok || r != w {
			t.Errorf("hit %s: rewound %v (found %v), want %v", k, r, ok, w)
		}
	}
}

func TestASessionWithADamagedRecordStillNamesItsSnapshots(t *testing.T) {
	s := newTestStore(t)
	sess := talk(t, s, "x")
	if err := s.PutCheckpoint(sess.ID, Checkpoint{Seq: 1, Before: "a", After: "b"}); err != nil {
		t.Fatal(err)
	}
	mustRewind(t, s, sess.ID, Rewind{From: 5, Code: "c"})
	damageRecord(t, s.Path(), sess.ID, []byte("{damaged"))

	if _, err := s.Checkpoints(sess.ID); !errors.Is(err, ErrDamagedRecord) {
		t.Errorf("Checkpoints of a damaged session = %v, want ErrDamagedRecord", err)
	}
	// What to forget before deleting it, and what pruning must keep.
	if ids, err := s.CheckpointIDs(sess.ID); err != nil || !slices.Equal(ids, []string{"a", "b", "c"}) {
		t.Errorf("CheckpointIDs = %v, %v; want a b c", ids, err)
	}
	if ids, err := s.LiveSnapshots("/work/project"); err != nil || !slices.Equal(ids, []string{"a", "b", "c"}) {
		t.Errorf("LiveSnapshots = %v, %v; want a b c", ids, err)
	}
	if err := s.Delete(sess.ID); err != nil {
		t.Fatal(err)
	}
	for _, top := range []string{bucketCheckpoints, bucketRewinds} {
		if keys := bucketKeys(t, s.Path(), top, sess.ID); keys != nil {
			t.Errorf("Delete of the damaged session left its %s: %x", top, keys)
		}
	}
	if ids, err := s.LiveSnapshots("/work/project"); err != nil || len(ids) != 0 {
		t.Errorf("LiveSnapshots after Delete = %v, %v", ids, err)
	}
}
