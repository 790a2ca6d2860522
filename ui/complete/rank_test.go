package complete

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// projectFiles is a file list like pincer's own.
var projectFiles = []string{
	"main.go", "go.mod", "go.sum", "README.md", "cmd_config.go", "cmd_run.go", "wire.go",
	"agent/agent.go", "agent/run.go", "agent/run_test.go", "agent/stream.go", "agent/compress.go",
	"agent/prompt.go", "agent/domain.go",
	"config/config.go", "config/config_test.go", "config/presets.go",
	"session/store.go", "session/store_test.go", "session/names.go",
	"safety/tier.go", "safety/parse.go", "safety/rules.go",
	"tools/tool.go", "tools/registry.go", "tools/read_file.go", "tools/read_file_test.go",
	"tools/write_file.go", "tools/edit_file.go", "tools/tree_view.go", "tools/gitignore.go",
	"tools/walk.go", "tools/list.go", "tools/glob.go", "tools/grep.go", "tools/prefix_file.go",
	"ui/app.go", "ui/tree/tree.go", "ui/tree/tree_test.go", "ui/tree/view.go",
	"ui/complete/complete.go", "ui/complete/rank.go", "ui/transcript/render.go", "ui/input/input.go",
	"themes/themes.go", "docs/AGENT.md", "docs/SKILLS.md", "internal/testserver/server.go",
	"vendor/github.com/someone/mainframe/internal/main_linux_amd64.go",
}

func fileItems(paths []string) []Item {
	items := make([]Item, len(paths))
	for i, p := range paths {
		items[i] = Item{Value: p}
	}
	return items
}

// ranked returns the values the popup offers for q, best first.
func ranked(items []Item, q string) []string {
	m := New()
	m.Open(items, q)
	var out []string
	for _, it := range m.Results() {
		out = append(out, it.Value)
	}
	return out
}

func TestRankingOrder(t *testing.T) {
	items := fileItems(projectFiles)
	tests := []struct {
		query  string
		first  []string    // the leading results, in this order
		before [][2]string // pairs: the first ranks above the second
		absent []string
	}{
		{query: "main", first: []string{"main.go"},
			before: [][2]string{{"main.go", "agent/domain.go"}, {"vendor/github.com/someone/mainframe/internal/main_linux_amd64.go", "agent/domain.go"}}},
		{query: "tree", first: []string{"ui/tree/tree.go"},
			before: [][2]string{{"tools/tree_view.go", "ui/tree/view.go"}, {"ui/tree/tree_test.go", "ui/tree/view.go"}}},
		{query: "rf", first: []string{"tools/read_file.go", "tools/read_file_test.go"}},
		{query: "agrun", first: []string{"agent/run.go", "agent/run_test.go"}},
		{query: "cfg", first: []string{"config/config.go"}},
		{query: "READ", first: []string{"README.md"}, before: [][2]string{{"README.md", "tools/read_file.go"}}},
		{query: "gitig", first: []string{"tools/gitignore.go"}},
		{query: "srv", first: []string{"internal/testserver/server.go"}},
		{query: "AGENT", first: []string{"docs/AGENT.md", "agent/agent.go"}},
		{query: "store", first: []string{"session/store.go", "session/store_test.go"}},
		{query: "ui/tree", before: [][2]string{{"ui/tree/tree.go", "ui/transcript/render.go"}, {"ui/tree/view.go", "ui/transcript/render.go"}},
			absent: []string{"tools/tree_view.go"}},
		{query: "tool.go", first: []string{"tools/tool.go"}},
		{query: "xyzq", absent: []string{"main.go"}},
		{query: "agent/", first: []string{"agent/run.go"}, absent: []string{"docs/AGENT.md"}},
	}
	for _, tt := range tests {
		got := ranked(items, tt.query)
		if len(tt.first) > 0 && (len(got) < len(tt.first) || !reflect.DeepEqual(got[:len(tt.first)], tt.first)) {
			t.Errorf("%q ranks %v first, want %v", tt.query, head(got, 5), tt.first)
		}
		for _, p := range tt.before {
			a, b := slices.Index(got, p[0]), slices.Index(got, p[1])
			if a < 0 || (b >= 0 && a > b) {
				t.Errorf("%q: %s (at %d) should rank above %s (at %d) in %v", tt.query, p[0], a, p[1], b, got)
			}
		}
		for _, a := range tt.absent {
			if slices.Contains(got, a) {
				t.Errorf("%q offers %s, which it does not match", tt.query, a)
			}
		}
		for _, v := range got {
			if !subsequenceFold(v, tt.query) {
				t.Errorf("%q offers %s, which does not contain it in order", tt.query, v)
			}
		}
	}
}

func head(s []string, n int) []string { return s[:min(n, len(s))] }

// subsequenceFold is the matching rule, stated independently of the ranker.
func subsequenceFold(text, q string) bool {
	text, q = strings.ToLower(text), strings.ToLower(q)
	for _, r := range q {
		i := strings.IndexRune(text, r)
		if i < 0 {
			return false
		}
		text = text[i+len(string(r)):]
	}
	return true
}

func TestEmptyQueryKeepsOrder(t *testing.T) {
	items := fileItems(projectFiles)
	got := ranked(items, "")
	if !reflect.DeepEqual(got, projectFiles) {
		t.Errorf("an empty query reorders the items: %v", got)
	}
}

func TestMatchPositions(t *testing.T) {
	tests := []struct {
		text, query string
		want        []int
	}{
		{"main.go", "main", []int{0, 1, 2, 3}},
		{"ui/tree/tree.go", "tree", []int{8, 9, 10, 11}}, // the file name, not the directory
		{"tools/read_file.go", "rf", []int{6, 11}},
		{"tools/prefix_file.go", "fi", []int{13, 14}}, // "file", not the "fi" inside "prefix"
		{"agent/run.go", "agrun", []int{0, 1, 6, 7, 8}},
		{"ui/tree/view.go", "ui/v", []int{0, 1, 2, 8}},
		{"ReadMe.md", "rm", []int{0, 4}}, // camel case
		{"日本語/ファイル.go", "ファ", []int{4, 5}},
		{"ABC", "abc", []int{0, 1, 2}},
	}
	for _, tt := range tests {
		c := newCandidate(Item{Value: tt.text})
		q := newQuery(tt.query)
		pos := make([]int, len(q.lower))
		if _, ok := newScorer(&q).score(&c, pos); !ok {
			t.Errorf("%q does not match %q", tt.query, tt.text)
			continue
		}
		if !reflect.DeepEqual(pos, tt.want) {
			t.Errorf("%q in %q matched at %v, want %v", tt.query, tt.text, pos, tt.want)
		}
	}
}

func TestNoMatch(t *testing.T) {
	tests := []struct{ text, query string }{
		{"main.go", "mainx"},
		{"main.go", "og.niam"}, // order matters
		{"ab", "abc"},
		{"", "a"},
	}
	for _, tt := range tests {
		c := newCandidate(Item{Value: tt.text})
		q := newQuery(tt.query)
		if s, ok := newScorer(&q).score(&c, nil); ok {
			t.Errorf("%q matched %q with score %d", tt.query, tt.text, s)
		}
	}
}

func TestLabelIsMatchedAndValueReturned(t *testing.T) {
	items := []Item{
		{Value: "compact", Label: "/compact", Detail: "summarise the conversation so far"},
		{Value: "clear", Label: "/clear", Detail: "start a new session"},
		{Value: "model", Label: "/model", Detail: "switch the model"},
	}
	// "summ" is in a Detail only: details are not matched.
	for q, want := range map[string][]string{"cl": {"clear"}, "co": {"compact"}, "summ": nil, "m": {"model", "compact"}} {
		if got := ranked(items, q); !reflect.DeepEqual(got, want) {
			t.Errorf("%q offers %v, want %v", q, got, want)
		}
	}
}

func TestTopKMatchesFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{0, 1, 5, 200} {
		var all []result
		top := topK{k: k}
		for i := range 1000 {
			r := result{idx: i, score: rng.IntN(50), size: rng.IntN(10)}
			all = append(all, r)
			top.add(r)
		}
		slices.SortFunc(all, func(a, b result) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		if got := top.sorted(); !reflect.DeepEqual(got, all[:k]) && !(k == 0 && len(got) == 0) {
			t.Errorf("k=%d: top %v, want %v", k, head2(got), head2(all[:k]))
		}
	}
}

func head2(r []result) []result { return r[:min(len(r), 5)] }

// Typing on, or deleting back, must give what a fresh ranking gives.
func TestIncrementalRankingAgreesWithFresh(t *testing.T) {
	items := fileItems(syntheticPaths(3000, 7))
	m := New()
	m.Open(items, "")
	for _, q := range []string{"h", "ha", "han", "hand", "handl", "han", "ha", "hx", "h", "", "int", "int/a", "intera", "intErA"} {
		m.SetQuery(q)
		want := ranked(items, q)
		got := make([]string, 0, len(want))
		for _, it := range m.Results() {
			got = append(got, it.Value)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after typing to %q the popup offers %v…, a fresh ranking %v…", q, head(got, 5), head(want, 5))
		}
		fresh := New()
		fresh.Open(items, q)
		if m.Total() != fresh.Total() {
			t.Errorf("%q: total %d, fresh %d", q, m.Total(), fresh.Total())
		}
	}
}

// syntheticPaths returns n distinct, plausible project paths.
func syntheticPaths(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	dirs := []string{"internal", "pkg", "cmd", "api", "server", "client", "util", "handlers", "models",
		"store", "config", "auth", "http", "grpc", "testdata", "web", "src", "components", "lib", "vendor",
		"github.com", "interactor", "scheduler", "migrations", "docs"}
	words := []string{"user", "session", "handler", "router", "cache", "token", "index", "main", "service",
		"repo", "query", "event", "stream", "buffer", "parser", "lexer", "render", "view", "model", "client"}
	exts := []string{".go", "_test.go", ".ts", ".tsx", ".md", ".json", ".yaml", ".py"}
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		depth := 1 + rng.IntN(6)
		parts := make([]string, 0, depth+1)
		for range depth {
			parts = append(parts, dirs[rng.IntN(len(dirs))])
		}
		name := words[rng.IntN(len(words))]
		if rng.IntN(2) == 0 {
			name += "_" + words[rng.IntN(len(words))]
		}
		parts = append(parts, name+exts[rng.IntN(len(exts))])
		p := strings.Join(parts, "/")
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// BenchmarkRank ranks 20,000 paths for one query, from scratch: the cost of
// the first key after "@" or of a deleted character.
func BenchmarkRank(b *testing.B) {
	items := fileItems(syntheticPaths(20000, 1))
	for _, q := range []string{"a", "ma", "main", "srvhnd", "internal/auth", "usrsesgo", "xyzq"} {
		b.Run(fmt.Sprintf("q=%s", q), func(b *testing.B) {
			m := New()
			m.Open(items, "")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.prevQuery, m.prevMatched = "", nil
				m.query = ""
				m.SetQuery(q)
			}
		})
	}
}

// BenchmarkTyping types "handler" one key at a time over 20,000 paths and
// reports the cost per key.
func BenchmarkTyping(b *testing.B) {
	items := fileItems(syntheticPaths(20000, 1))
	const word = "handler"
	m := New()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Open(items, "")
		for j := 1; j <= len(word); j++ {
			m.SetQuery(word[:j])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(word)), "ns/key")
}

// BenchmarkOpenNewItems prepares 20,000 new candidates: a reload of the file
// list.
func BenchmarkOpenNewItems(b *testing.B) {
	a := fileItems(syntheticPaths(20000, 1))
	c := fileItems(syntheticPaths(20000, 2))
	m := New()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			m.Open(a, "")
		} else {
			m.Open(c, "")
		}
	}
}
