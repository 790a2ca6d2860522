package session

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
)

// stepClock is a deterministic clock: every reading is one second after the
// previous one, so ordering by time is predictable in tests.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func newStepClock() *stepClock {
	return &stepClock{t: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)}
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

// newTestStore opens a store in a fresh temporary directory with a step
// clock, without waiting for the disk after each write.
func newTestStore(tb testing.TB) *Store {
	tb.Helper()
	s, err := Open(filepath.Join(tb.TempDir(), "data", fileName), Options{Now: newStepClock().Now, NoSync: true})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	return s
}

// mustCreate creates a session or fails the test.
func mustCreate(tb testing.TB, s *Store, name, dir string) Session {
	tb.Helper()
	sess, err := s.Create(Session{Name: name, Dir: dir, Model: "test-model"})
	if err != nil {
		tb.Fatalf("Create(%q, %q): %v", name, dir, err)
	}
	return sess
}

// mustAppend appends a message or fails the test.
func mustAppend(tb testing.TB, s *Store, id string, m chat.Message) uint64 {
	tb.Helper()
	seq, err := s.Append(id, m)
	if err != nil {
		tb.Fatalf("Append(%s): %v", id, err)
	}
	return seq
}

// sampleMessage returns the i-th message of a realistic conversation: a user
// prompt, an assistant message calling a tool, the tool's output, in turn.
func sampleMessage(i int) chat.Message {
	t := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
	switch i % 3 {
	case 0:
		return chat.Message{Role: chat.RoleUser, Content: fmt.Sprintf("prompt %d: ", i) + strings.Repeat("please look at the parser ", 8), Time: t}
	case 1:
		return chat.Message{
			Role:      chat.RoleAssistant,
			Content:   fmt.Sprintf("answer %d: ", i) + strings.Repeat("I will read the file and check the loop. ", 14),
			Reasoning: strings.Repeat("the bug is probably in the loop bound. ", 4),
			ToolCalls: []chat.ToolCall{{ID: fmt.Sprintf("call_%d", i), Name: "read_file", Arguments: `{"path":"internal/parser/parser.go","offset":120,"limit":80}`}},
			Time:      t,
			Usage:     &chat.Usage{PromptTokens: 1200 + i, CompletionTokens: 90},
		}
	default:
		return chat.Message{
			Role:       chat.RoleTool,
			ToolCallID: fmt.Sprintf("call_%d", i-1),
			ToolName:   "read_file",
			Content:    fmt.Sprintf("output %d:\n", i) + strings.Repeat("func parse(src []byte) (*Node, error) {\n", 36),
			Time:       t,
		}
	}
}

// seed writes sessions and messages straight into the file in one
// transaction, indexing them as the migration does, so benchmarks can set up
// thousands of messages quickly, without waiting for the disk. It
// returns the ids in creation order.
func seed(tb testing.TB, path string, sessions, messagesEach int) []string {
	tb.Helper()
	db, err := bolt.Open(path, fileMode, &bolt.Options{NoSync: true, NoGrowSync: true})
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	defer db.Close()
	clock := newStepClock()
	var ids []string
	err = db.Update(func(tx *bolt.Tx) error {
		for i := range sessions {
			now := clock.Now()
			id, err := newID(now)
			if err != nil {
				return err
			}
			rec := toSessionRecord(Session{ID: id, Name: fmt.Sprintf("session-%04d", i), Dir: fmt.Sprintf("/work/project-%d", i%20), Model: "test-model", Created: now, Updated: now, Title: "look at the parser"})
			if err := claimName(tx, rec.Name, rec.ID); err != nil {
				return err
			}
			if err := insertSession(tx, rec); err != nil {
				return err
			}
			msgs, err := messageBucket(tx, id)
			if err != nil {
				return err
			}
			for j := range messagesEach {
				m := sampleMessage(j)
				m.Seq = uint64(j + 1)
				raw, err := json.Marshal(toMessageRecord(m))
				if err != nil {
					return err
				}
				if err := msgs.Put(seqKey(m.Seq), raw); err != nil {
					return err
				}
			}
			if err := msgs.SetSequence(uint64(messagesEach)); err != nil {
				return err
			}
			rec.MessageCount = messagesEach
			if err := putSession(tx, rec); err != nil {
				return err
			}
			if err := indexSessions(tx, []string{id}); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("seed %s: %v", path, err)
	}
	return ids
}
