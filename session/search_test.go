package session

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
)

// say appends user messages with the given contents and returns their
// sequence numbers.
func say(tb testing.TB, s *Store, id string, contents ...string) []uint64 {
	tb.Helper()
	var seqs []uint64
	for _, c := range contents {
		seqs = append(seqs, mustAppend(tb, s, id, chat.Message{Role: chat.RoleUser, Content: c}))
	}
	return seqs
}

// mustSearch runs a search or fails the test.
func mustSearch(tb testing.TB, s *Store, query string, o SearchOptions) []Hit {
	tb.Helper()
	hits, err := s.Search(query, o)
	if err != nil {
		tb.Fatalf("Search(%q): %v", query, err)
	}
	return hits
}

// hitSeqs lists the sequence numbers of hits, in order.
func hitSeqs(hits []Hit) []uint64 {
	var out []uint64
	for _, h := range hits {
		out = append(out, h.Seq)
	}
	return out
}

// perSession counts hits by session id.
func perSession(hits []Hit) map[string]int {
	out := map[string]int{}
	for _, h := range hits {
		out[h.SessionID]++
	}
	return out
}

func TestSearchScoresAreBM25(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "bm25", "/w")
	say(t, s, sess.ID, "alpha beta", "alpha gamma delta", "epsilon")
	// Three messages of lengths 2, 3 and 1 (average 2); "alpha" is in two.
	idf := math.Log(1 + (3-2+0.5)/(2+0.5))
	bm25 := func(tf, length float64) float64 {
		return idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*length/2))
	}
	hits := mustSearch(t, s, "alpha", SearchOptions{})
	if !slices.Equal(hitSeqs(hits), []uint64{1, 2}) {
		t.Fatalf("hits = %v, want messages 1 and 2", hitSeqs(hits))
	}
	for i, want := range []float64{bm25(1, 2), bm25(1, 3)} {
		if math.Abs(hits[i].Score-want) > 1e-9 {
			t.Errorf("score of message %d = %.12f, want %.12f", hits[i].Seq, hits[i].Score, want)
		}
	}
}

func TestSearchRanking(t *testing.T) {
	tests := []struct {
		name  string
		msgs  []chat.Message
		query string
		want  []uint64 // the first hits, in order
	}{
		{
			name: "a rare term outranks common ones",
			msgs: append(slices.Repeat([]chat.Message{{Role: chat.RoleUser, Content: "the parser fails on this input"}}, 8),
				chat.Message{Role: chat.RoleUser, Content: "segfault in the lexer"}),
			query: "parser segfault",
			want:  []uint64{9},
		},
		{
			name: "more occurrences rank higher at equal length",
			msgs: []chat.Message{
				{Role: chat.RoleUser, Content: "timeout gamma delta epsilon zeta"},
				{Role: chat.RoleUser, Content: "timeout timeout timeout alpha beta"},
				{Role: chat.RoleUser, Content: "unrelated words here"},
			},
			query: "timeout",
			want:  []uint64{2, 1},
		},
		{
			name: "a short message outranks a long one with the same match",
			msgs: []chat.Message{
				{Role: chat.RoleUser, Content: "timeout alpha beta gamma delta epsilon zeta theta iota kappa"},
				{Role: chat.RoleUser, Content: "timeout alpha"},
				{Role: chat.RoleUser, Content: "unrelated words here"},
			},
			query: "timeout",
			want:  []uint64{2, 1},
		},
		{
			name: "matching more query terms ranks higher",
			msgs: []chat.Message{
				{Role: chat.RoleUser, Content: "parse input file"},
				{Role: chat.RoleUser, Content: "parse config file"},
				{Role: chat.RoleUser, Content: "unrelated words here"},
			},
			query: "parse config",
			want:  []uint64{2, 1},
		},
		{
			name: "tool output counts less than what people and the model wrote",
			// On a tie the later message would come first.
			msgs: []chat.Message{
				{Role: chat.RoleUser, Content: "deadlock in worker pool"},
				{Role: chat.RoleTool, ToolCallID: "c1", ToolName: "run_command", Content: "deadlock in worker pool"},
				{Role: chat.RoleAssistant, Content: "unrelated words here"},
			},
			query: "deadlock",
			want:  []uint64{1, 2},
		},
		{
			name: "an identifier's parts find it",
			msgs: []chat.Message{
				{Role: chat.RoleUser, Content: "unrelated words here"},
				{Role: chat.RoleAssistant, Content: "I renamed loadUserConfig in the store"},
			},
			query: "user config",
			want:  []uint64{2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			sess := mustCreate(t, s, "", "/w")
			for _, m := range tt.msgs {
				mustAppend(t, s, sess.ID, m)
			}
			hits := mustSearch(t, s, tt.query, SearchOptions{})
			got := hitSeqs(hits)
			if len(got) < len(tt.want) || !slices.Equal(got[:len(tt.want)], tt.want) {
				t.Errorf("hits for %q = %v, want %v first", tt.query, got, tt.want)
			}
			for i := 1; i < len(hits); i++ {
				if hits[i].Score > hits[i-1].Score {
					t.Errorf("hits are not in score order: %v", hits)
				}
			}
		})
	}
}

func TestSearchOptions(t *testing.T) {
	s := newTestStore(t)
	a := mustCreate(t, s, "a", "/work/a")
	b := mustCreate(t, s, "b", "/work/b")
	c := mustCreate(t, s, "c", "/work/a")
	say(t, s, a.ID, "kubernetes one", "kubernetes two", "kubernetes three", "kubernetes four", "kubernetes five")
	say(t, s, b.ID, "kubernetes six", "kubernetes seven")
	say(t, s, c.ID, "nothing to see")
	late := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	mustAppend(t, s, c.ID, chat.Message{Role: chat.RoleUser, Content: "kubernetes eight", Time: late})

	tests := []struct {
		name string
		o    SearchOptions
		want map[string]int // hits per session
	}{
		{"every session, at most three from one", SearchOptions{}, map[string]int{a.ID: 3, b.ID: 2, c.ID: 1}},
		{"one directory", SearchOptions{Dir: "/work/a"}, map[string]int{a.ID: 3, c.ID: 1}},
		{"the directory is cleaned", SearchOptions{Dir: "/work/a/./"}, map[string]int{a.ID: 3, c.ID: 1}},
		{"a directory without sessions", SearchOptions{Dir: "/work/none"}, map[string]int{}},
		{"excluding a session", SearchOptions{ExcludeSession: a.ID}, map[string]int{b.ID: 2, c.ID: 1}},
		{"excluding an unknown session excludes nothing", SearchOptions{ExcludeSession: "nope"}, map[string]int{a.ID: 3, b.ID: 2, c.ID: 1}},
		{"since", SearchOptions{Since: late}, map[string]int{c.ID: 1}},
		{"since just after", SearchOptions{Since: late.Add(time.Nanosecond)}, map[string]int{}},
		{"a limit", SearchOptions{Limit: 2}, nil},
		{"directory and exclusion together", SearchOptions{Dir: "/work/a", ExcludeSession: c.ID}, map[string]int{a.ID: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits := mustSearch(t, s, "kubernetes", tt.o)
			if tt.want == nil {
				if len(hits) != tt.o.Limit {
					t.Errorf("%d hits, want %d", len(hits), tt.o.Limit)
				}
				return
			}
			if got := perSession(hits); !mapsEqual(got, tt.want) {
				t.Errorf("hits per session = %v, want %v", got, tt.want)
			}
		})
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestSearchLimitDefaultsToTen(t *testing.T) {
	s := newTestStore(t)
	for range 5 {
		sess := mustCreate(t, s, "", "/w")
		say(t, s, sess.ID, "flaky test", "flaky build", "flaky network")
	}
	if hits := mustSearch(t, s, "flaky", SearchOptions{}); len(hits) != defaultSearchLimit {
		t.Errorf("%d hits with no limit, want %d", len(hits), defaultSearchLimit)
	}
	if hits := mustSearch(t, s, "flaky", SearchOptions{Limit: 15}); len(hits) != 15 {
		t.Errorf("%d hits with limit 15, want 15", len(hits))
	}
}

func TestSearchHitDescribesTheMessage(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "fix-login", "/work/app")
	say(t, s, sess.ID, "Why does login fail?\nSecond line")
	when := time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)
	mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleSystem, Kind: chat.KindSummary, Content: "The login handler rejected expired tokens.", Time: when})

	hits := mustSearch(t, s, "tokens", SearchOptions{})
	if len(hits) != 1 {
		t.Fatalf("hits = %+v, want one", hits)
	}
	h := hits[0]
	want := Hit{SessionID: sess.ID, SessionName: "fix-login", Dir: "/work/app", Title: "Why does login fail?", Seq: 2,
		Role: string(chat.RoleSystem), Kind: chat.KindSummary, Time: when, Snippet: "The login handler rejected expired **tokens**.", Terms: 1}
	h.Score = 0
	if !h.Time.Equal(want.Time) {
		t.Errorf("Time = %v, want %v", h.Time, want.Time)
	}
	h.Time = want.Time
	if h != want {
		t.Errorf("hit = %+v\nwant  %+v", h, want)
	}
	if hits[0].Score <= 0 {
		t.Errorf("Score = %v, want positive", hits[0].Score)
	}
}

func TestSearchSnippets(t *testing.T) {
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 20) // 540 characters
	tests := []struct {
		name    string
		content string
		query   string
		want    string   // the whole snippet, when set
		has     []string // parts the snippet must contain
		lacks   []string // parts it must not contain
	}{
		{name: "a short message whole, matches marked", content: "Fix the parser bug", query: "parser",
			want: "Fix the **parser** bug"},
		{name: "every match marked", content: "parser here, parser there", query: "parser",
			want: "**parser** here, **parser** there"},
		{name: "white space made single spaces", content: "line one\n\n\t  the parser\nline three  ", query: "parser",
			want: "line one the **parser** line three"},
		{name: "an identifier is marked whole", content: "call parseConfig first", query: "config",
			want: "call **parseConfig** first"},
		{name: "CJK matches are marked", content: "数据库连接失败了", query: "连接",
			want: "数据库**连接**失败了"},
		{name: "overlapping bigrams are marked once", content: "检查数据库连接", query: "数据库",
			want: "检查**数据库**连接"},
		{name: "a match in a long message", content: filler + "the segfault happened here " + filler, query: "segfault",
			has: []string{"…", "**segfault**"}},
		{name: "the densest stretch is chosen", content: "alpha " + filler + "alpha beta gamma together " + filler, query: "alpha beta gamma",
			has: []string{"**alpha** **beta** **gamma** together"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			sess := mustCreate(t, s, "", "/w")
			say(t, s, sess.ID, tt.content)
			hits := mustSearch(t, s, tt.query, SearchOptions{})
			if len(hits) != 1 {
				t.Fatalf("hits = %+v, want one", hits)
			}
			got := hits[0].Snippet
			if tt.want != "" && got != tt.want {
				t.Errorf("snippet = %q, want %q", got, tt.want)
			}
			for _, part := range tt.has {
				if !strings.Contains(got, part) {
					t.Errorf("snippet %q lacks %q", got, part)
				}
			}
			visible := utf8.RuneCountInString(strings.ReplaceAll(got, snippetMark, ""))
			if visible > snippetRunes+snippetWordEnd+2 {
				t.Errorf("snippet is %d characters long, want about %d: %q", visible, snippetRunes, got)
			}
			if strings.ContainsAny(got, "\n\t") {
				t.Errorf("snippet %q is not one line", got)
			}
		})
	}
}

func TestSearchLongMessageSnippetIsCut(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "", "/w")
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 20)
	say(t, s, sess.ID, filler+"the segfault happened here "+filler)
	got := mustSearch(t, s, "segfault", SearchOptions{})[0].Snippet
	if !strings.HasPrefix(got, snippetGap) || !strings.HasSuffix(got, snippetGap) {
		t.Errorf("snippet %q of the middle of a long message should start and end with %q", got, snippetGap)
	}
	i := strings.Index(got, "**segfault**")
	if before := utf8.RuneCountInString(got[:i]); before < 40 || before > 62 {
		t.Errorf("the match is %d characters into the snippet, want 40 to 60 characters of context before it: %q", before, got)
	}
	if strings.Contains(got, "lorem ipsum dolor sit amet lorem ipsum dolor sit amet lorem ipsum dolor sit amet lorem ipsum dolor sit amet lorem ipsum") &&
		!strings.Contains(got, "happened") {
		t.Errorf("snippet %q is not around the match", got)
	}
	for _, w := range strings.Fields(strings.Trim(got, snippetGap)) {
		if w = strings.Trim(w, "*"); !slices.Contains([]string{"lorem", "ipsum", "dolor", "sit", "amet", "the", "segfault", "happened", "here"}, w) {
			t.Errorf("snippet %q cuts the word %q", got, w)
		}
	}
}

func TestSearchReadsTheRightParts(t *testing.T) {
	big := strings.Repeat("filler words ", 330) // 4,290 bytes: past the 4 KB head of a tool result
	tests := []struct {
		name  string
		msg   chat.Message
		query string
		found bool
	}{
		{"a user message", chat.Message{Role: chat.RoleUser, Content: "quasar"}, "quasar", true},
		{"an assistant message", chat.Message{Role: chat.RoleAssistant, Content: "quasar"}, "quasar", true},
		{"a tool result's head", chat.Message{Role: chat.RoleTool, ToolCallID: "c", Content: "quasar " + big}, "quasar", true},
		{"a tool result past its head", chat.Message{Role: chat.RoleTool, ToolCallID: "c", Content: big + " quasar"}, "quasar", false},
		{"a tool call's arguments", chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c", Name: "run_command", Arguments: `{"command":"./deploy_prod.sh"}`}}}, "deploy_prod", true},
		{"a summary", chat.Message{Role: chat.RoleSystem, Kind: chat.KindSummary, Content: "quasar"}, "quasar", true},
		{"a system prompt", chat.Message{Role: chat.RoleSystem, Content: "quasar"}, "quasar", false},
		{"a notice", chat.Message{Role: chat.RoleSystem, Kind: "notice", Content: "quasar"}, "quasar", false},
		{"reasoning", chat.Message{Role: chat.RoleAssistant, Content: "hello", Reasoning: "quasar"}, "quasar", false},
		{"a user message past 32 KB", chat.Message{Role: chat.RoleUser, Content: strings.Repeat("filler words ", 2600) + "quasar"}, "quasar", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			sess := mustCreate(t, s, "", "/w")
			mustAppend(t, s, sess.ID, tt.msg)
			say(t, s, sess.ID, "something else entirely")
			hits := mustSearch(t, s, tt.query, SearchOptions{})
			if found := len(hits) == 1 && hits[0].Seq == 1; found != tt.found {
				t.Errorf("search for %q found %+v; want found=%v", tt.query, hits, tt.found)
			}
			checkIndex(t, s.Path())
		})
	}
}

func TestSearchRefusesEmptyQueries(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "", "/w")
	say(t, s, sess.ID, "the and of it")
	for _, q := range []string{"", "   ", "the and of", "!!! ...", "x y z"} {
		_, err := s.Search(q, SearchOptions{})
		if !errors.Is(err, ErrEmptyQuery) {
			t.Errorf("Search(%q) = %v, want ErrEmptyQuery", q, err)
			continue
		}
		if !strings.Contains(err.Error(), "more specific words") {
			t.Errorf("error %q should say what to do", err)
		}
	}
	if _, err := s.Search("parser", SearchOptions{Limit: -1}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("a negative limit gave %v, want an error saying so", err)
	}
	if hits, err := s.Search("nowhere", SearchOptions{}); err != nil || len(hits) != 0 {
		t.Errorf("a word in no message gave %v, %v; want no hits and no error", hits, err)
	}
}

func TestSearchOfAnEmptyStore(t *testing.T) {
	s := newTestStore(t)
	if hits, err := s.Search("anything", SearchOptions{}); err != nil || len(hits) != 0 {
		t.Errorf("Search of an empty store = %v, %v; want nothing", hits, err)
	}
}

func TestIndexFollowsAppendForkAndDelete(t *testing.T) {
	s := newTestStore(t)
	orig := mustCreate(t, s, "orig", "/w")
	say(t, s, orig.ID, "the heisenbug appears under load", "unrelated")
	if got := perSession(mustSearch(t, s, "heisenbug", SearchOptions{})); !mapsEqual(got, map[string]int{orig.ID: 1}) {
		t.Fatalf("after Append: hits %v", got)
	}
	checkIndex(t, s.Path())

	fork, err := s.Fork("orig", "fork")
	if err != nil {
		t.Fatal(err)
	}
	if got := perSession(mustSearch(t, s, "heisenbug", SearchOptions{})); !mapsEqual(got, map[string]int{orig.ID: 1, fork.ID: 1}) {
		t.Errorf("after Fork: hits %v, want one in each", got)
	}
	checkIndex(t, s.Path())

	say(t, s, fork.ID, "only the fork mentions mandelbug")
	if got := perSession(mustSearch(t, s, "mandelbug", SearchOptions{})); !mapsEqual(got, map[string]int{fork.ID: 1}) {
		t.Errorf("after appending to the fork: hits %v, want the fork's", got)
	}

	if err := s.Delete("orig"); err != nil {
		t.Fatal(err)
	}
	if got := perSession(mustSearch(t, s, "heisenbug", SearchOptions{})); !mapsEqual(got, map[string]int{fork.ID: 1}) {
		t.Errorf("after deleting the original: hits %v, want only the fork's", got)
	}
	checkIndex(t, s.Path())

	if err := s.Delete("fork"); err != nil {
		t.Fatal(err)
	}
	if hits := mustSearch(t, s, "heisenbug mandelbug", SearchOptions{}); len(hits) != 0 {
		t.Errorf("after deleting both: hits %v", hits)
	}
	v := readIndex(t, s.Path())
	if len(v.postings) != 0 || len(v.docs) != 0 || v.totals != (totals{}) {
		t.Errorf("an index of no sessions holds %d postings, %d messages, totals %+v", len(v.postings), len(v.docs), v.totals)
	}
}

func TestIndexSegmentsFormMergeAndShrink(t *testing.T) {
	if testing.Short() {
		t.Skip("appends 2,148 messages one transaction each; runs without -short (.ci/run)")
	}
	s := newTestStore(t)
	var sessions []Session
	for range 4 {
		sessions = append(sessions, mustCreate(t, s, "", "/w"))
	}
	// Enough messages to fill mergeFanIn segments, which merge into one of
	// level 1, and to start the next: 8·256 + 100.
	total := pendingLimit*mergeFanIn + 100
	for i := range total {
		content := "routine progress note"
		if i%513 == 7 { // 7, 520, 1033, 1546, 2059: spread over the sessions and the segments
			content = "the flux capacitor overheated"
		}
		mustAppend(t, s, sessions[i%len(sessions)].ID, chat.Message{Role: chat.RoleUser, Content: content})
	}
	segs := segmentLevels(t, s.Path())
	if !slices.Equal(segs, []int{1}) {
		t.Fatalf("segments by level = %v, want one of level 1", segs)
	}
	if v := readIndex(t, s.Path()); v.totals.pending != 100 || v.totals.docs != uint64(total) {
		t.Errorf("totals = %+v, want %d messages, 100 pending", v.totals, total)
	}
	checkIndex(t, s.Path())
	if hits := mustSearch(t, s, "capacitor", SearchOptions{Limit: 20}); len(hits) != 5 {
		t.Errorf("%d hits for a word in 5 messages (in segments and pending)", len(hits))
	}

	for i, sess := range sessions {
		if err := s.Delete(sess.ID); err != nil {
			t.Fatal(err)
		}
		checkIndex(t, s.Path())
		if i < len(sessions)-1 && !slices.Equal(segmentLevels(t, s.Path()), []int{1}) {
			t.Errorf("after deleting %d of %d sessions the segments are %v", i+1, len(sessions), segmentLevels(t, s.Path()))
		}
	}
	if segs := segmentLevels(t, s.Path()); len(segs) != 0 {
		t.Errorf("segments left after deleting every session: %v", segs)
	}
}

// segmentLevels lists the levels of the store's segments.
func segmentLevels(t *testing.T, path string) []int {
	t.Helper()
	var levels []int
	rawView(t, path, func(tx *bolt.Tx) error {
		ix, err := openIndex(tx)
		if err != nil {
			return err
		}
		return ix.segmeta.ForEach(func(_, v []byte) error {
			m, err := decodeMeta(v)
			levels = append(levels, m.level)
			return err
		})
	})
	return levels
}
