package agent

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
	"pincer/session"
)

// The session store's format belongs to the files people already have, not
// to the code of the day. testdata/store/sessions.db was written through
// SessionLog (the agent's way into the store) by the code of the commit
// that added it, and export.json and export.md are what `pincer sessions
// export` made of it then. The tests below hold every later version to
// them: the file opens and reads the same, and the same conversation
// recorded today gives the same bytes.
//
// go test ./agent -run TestStoreFormat -write-store-fixture rewrites them;
// only do that when the format changes on purpose, with a migration.
var writeStoreFixture = flag.Bool("write-store-fixture", false, "rewrite agent/testdata/store from the current code")

const fixtureDir = "testdata/store"

// fixtureNow is the store's clock for the fixture: constant, so the
// records do not depend on how often the code asks for the time.
func fixtureNow() time.Time { return time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC) }

// fixtureConversation is the recorded conversation: every field and kind
// a message can have.
func fixtureConversation() []Message {
	at := func(s int) time.Time { return time.Date(2025, 5, 1, 9, 0, s, 0, time.UTC) }
	return []Message{
		{Role: RoleUser, Content: "Fix the flaky test in parser_test.go", Time: at(1)},
		{Role: RoleAssistant, Content: "Reading it first.", Reasoning: "The test may race on the shared buffer.", Time: at(2),
			ToolCalls: []ToolCall{
				{ID: "call_1", Name: "read_file", Arguments: `{"path":"parser_test.go"}`},
				{ID: "call_2", Name: "task", Arguments: `{"description":"find callers","prompt":"Find every caller of Parse."}`},
			},
			Usage: &Usage{PromptTokens: 1200, CompletionTokens: 80, TotalTokens: 1280, ReasoningTokens: 30, CachedTokens: 1024}},
		{Role: RoleTool, ToolCallID: "call_1", ToolName: "read_file", Content: "package parser\n\nfunc TestParse(t *testing.T) {}", Time: at(3),
			Touched: []chat.Touch{{Path: "parser_test.go", Kind: chat.TouchRead}}},
		{Role: RoleTool, ToolCallID: "call_2", ToolName: "task", Content: "Parse is called from main.go:12 and lexer.go:40.", Time: at(4),
			Steps: []SubStep{
				{Tool: "grep", Summary: "grep Parse(", Args: `{"pattern":"Parse("}`},
				{Tool: "read_file", Args: `{"path":"missing.go"}`, IsError: true},
			},
			Usage:   &Usage{PromptTokens: 300, CompletionTokens: 40, TotalTokens: 340},
			Touched: []chat.Touch{{Path: "main.go", Kind: chat.TouchRead}}},
		{Role: RoleAssistant, Time: at(5),
			ToolCalls: []ToolCall{{ID: "call_3", Name: "edit_file", Arguments: `{"path":"parser_test.go","old":"t.Parallel()","new":""}`}},
			Usage:     &Usage{PromptTokens: 1500, CompletionTokens: 60, TotalTokens: 1560}},
		{Role: RoleTool, ToolCallID: "call_3", ToolName: "edit_file", Content: "Edited parser_test.go.", Time: at(6),
			Touched: []chat.Touch{{Path: "parser_test.go", Kind: chat.TouchChanged}, {Path: "testdata/golden.txt", Kind: chat.TouchCreated}}},
		{Role: RoleTool, ToolCallID: "call_4", ToolName: "run_command", Content: "exit status 1", IsError: true, Time: at(7)},
		{Role: RoleAssistant, Content: "Done: the test no longer races. ünïcödé ✓ \u202eevil", Time: at(8),
			Usage: &Usage{PromptTokens: 1700, CompletionTokens: 20, TotalTokens: 1720}},
		{Role: RoleUser, Kind: KindTask, Content: TaskPrefix + "run the tests", Time: at(9)},
		{Role: RoleAssistant, Kind: KindInterrupted, Content: "Running the te", Time: at(10)},
		{Role: RoleUser, Kind: KindHook, Content: "The user's Stop hook asks you to go on before you finish: lint", Time: at(11)},
		{Role: RoleUser, Kind: KindLimit, Content: limitPrompt(30), Time: at(12)},
		{Role: RoleSystem, Kind: KindSummary, Content: "Summary of the earlier part.", Time: at(13)},
		{Role: RoleUser, Content: "And the other flaky test?", Time: at(14)},
		{Role: RoleAssistant, Content: "Looking at it.", Time: at(15)},
	}
}

const (
	fixtureSummary        = "The user asked to fix a flaky parser test; it raced on a shared buffer and was fixed."
	fixtureSummaryThrough = 8
	fixtureRewindFrom     = 14 // the last turn is rewound
)

// recordFixture records the fixture session into the store at path.
func recordFixture(t *testing.T, path string) {
	t.Helper()
	st, err := session.Open(path, session.Options{Now: fixtureNow, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Create(session.Session{Name: "fixture", Dir: "/home/dev/project", Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	log := SessionLog{Store: st, ID: sess.ID}
	for i, m := range fixtureConversation() {
		seq, err := log.Record(m)
		if err != nil || seq != uint64(i+1) {
			t.Fatalf("record message %d: seq %d, %v", i+1, seq, err)
		}
	}
	if err := log.RecordSummary(fixtureSummary, fixtureSummaryThrough); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Rewind(sess.ID, session.Rewind{From: fixtureRewindFrom, Time: time.Date(2025, 5, 1, 9, 1, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
}

// exportFixture is the store's export of the fixture session in format.
func exportFixture(t *testing.T, st *session.Store, format string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := st.Export(&b, "fixture", format); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// openFixtureCopy opens a private copy of the committed store.
func openFixtureCopy(t *testing.T) (*session.Store, string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtureDir, "sessions.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sessions.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := session.Open(path, session.Options{Now: fixtureNow, NoSync: true})
	if err != nil {
		t.Fatalf("a store written by an earlier pincer does not open: %v", err)
	}
	return st, path
}

func writeFixtureFiles(t *testing.T) {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "sessions.db")
	recordFixture(t, tmp)
	st, err := session.Open(tmp, session.Options{Now: fixtureNow, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(fixtureDir, 0o755); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"sessions.db": raw,
		"export.json": exportFixture(t, st, session.FormatJSON),
		"export.md":   exportFixture(t, st, session.FormatMarkdown),
	} {
		if err := os.WriteFile(filepath.Join(fixtureDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStoreFormatReadsAsBefore: the committed store opens, and the
// session, the history the agent resumes with, and both exports are what
// they were when it was written.
func TestStoreFormatReadsAsBefore(t *testing.T) {
	if *writeStoreFixture {
		writeFixtureFiles(t)
	}
	st, _ := openFixtureCopy(t)
	sess, err := st.Get("fixture")
	if err != nil {
		t.Fatal(err)
	}
	wantUsage := Usage{PromptTokens: 1200 + 300 + 1500 + 1700, CompletionTokens: 80 + 40 + 60 + 20, ReasoningTokens: 30, CachedTokens: 1024}
	if sess.Usage.PromptTokens != wantUsage.PromptTokens || sess.Usage.CompletionTokens != wantUsage.CompletionTokens ||
		sess.Usage.ReasoningTokens != wantUsage.ReasoningTokens || sess.Usage.CachedTokens != wantUsage.CachedTokens {
		t.Errorf("session usage %+v, want %+v", sess.Usage, wantUsage)
	}
	// The rewind covers no summarised message, so the summary stays.
	if sess.MessageCount != 15 || sess.Title != "Fix the flaky test in parser_test.go" || sess.Dir != "/home/dev/project" ||
		sess.Model != "test-model" || sess.Summary != fixtureSummary || sess.SummaryThrough != fixtureSummaryThrough {
		t.Errorf("session read as %+v", sess)
	}

	history, summary, through, err := LoadSession(st, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if summary != fixtureSummary || through != fixtureSummaryThrough {
		t.Errorf("summary %q through %d, want %q through %d", summary, through, fixtureSummary, fixtureSummaryThrough)
	}
	want := fixtureConversation()[:fixtureRewindFrom-1]
	for i := range want {
		want[i].Seq = uint64(i + 1)
	}
	if !reflect.DeepEqual(history, want) {
		for i := range max(len(history), len(want)) {
			var g, w Message
			if i < len(history) {
				g = history[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("message %d reads as\n%#v\nwant\n%#v", i+1, g, w)
			}
		}
	}

	for _, f := range []struct{ format, file string }{{session.FormatJSON, "export.json"}, {session.FormatMarkdown, "export.md"}} {
		golden, err := os.ReadFile(filepath.Join(fixtureDir, f.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := exportFixture(t, st, f.format); !bytes.Equal(got, golden) {
			t.Errorf("the %s export of the committed store changed:\n%s\nwas:\n%s", f.format, got, golden)
		}
	}
}

// TestStoreFormatWritesAsBefore: recording the same conversation today
// writes the same file content, bucket by bucket, key by key (the
// session's id, random, aside).
func TestStoreFormatWritesAsBefore(t *testing.T) {
	_, oldPath := openFixtureCopy(t)
	newPath := filepath.Join(t.TempDir(), "sessions.db")
	recordFixture(t, newPath)
	old, now := dumpStore(t, oldPath), dumpStore(t, newPath)
	if old == now {
		return
	}
	ol, nl := strings.Split(old, "\n"), strings.Split(now, "\n")
	for i := range max(len(ol), len(nl)) {
		var o, n string
		if i < len(ol) {
			o = ol[i]
		}
		if i < len(nl) {
			n = nl[i]
		}
		if o != n {
			t.Errorf("the store is written differently from line %d of its dump:\nwas: %s\nnow: %s", i+1, o, n)
			return
		}
	}
}

// dumpStore lists every bucket, key and value of the bbolt file at path,
// with the one session's id replaced by <ID>.
func dumpStore(t *testing.T, path string) string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var lines []string
	var id []byte
	err = db.View(func(tx *bolt.Tx) error {
		if err := tx.Bucket([]byte("sessions")).ForEach(func(k, _ []byte) error {
			id = bytes.Clone(k)
			return nil
		}); err != nil {
			return err
		}
		var walk func(prefix string, b *bolt.Bucket) error
		walk = func(prefix string, b *bolt.Bucket) error {
			return b.ForEach(func(k, v []byte) error {
				name := prefix + "/" + fmt.Sprintf("%q", k)
				if v == nil {
					return walk(name, b.Bucket(k))
				}
				lines = append(lines, fmt.Sprintf("%s = %q", name, v))
				return nil
			})
		}
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			return walk(fmt.Sprintf("%q", name), b)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	out := strings.Join(lines, "\n")
	if len(id) > 0 {
		out = strings.ReplaceAll(out, string(id), "<ID>")
	}
	return out
}
