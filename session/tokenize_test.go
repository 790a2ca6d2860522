package session

import (
	"slices"
	"strings"
	"testing"
)

// allTerms returns every term scanUnits yields for text, in order.
func allTerms(text string) []string {
	var out []string
	scanUnits(text, func(_, _ int, terms []string) { out = append(out, terms...) })
	return out
}

func TestTokenise(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"words are lowercased", "Hello World", []string{"hello", "world"}},
		{"camelCase gives parts and the whole", "parseConfig", []string{"parse", "config", "parseconfig"}},
		{"PascalCase", "ParseConfig", []string{"parse", "config", "parseconfig"}},
		{"snake_case keeps its underscore in the whole", "parse_config", []string{"parse", "config", "parse_config"}},
		{"SCREAMING_SNAKE", "MAX_RETRY_COUNT", []string{"max", "retry", "count", "max_retry_count"}},
		{"an acronym before a word", "HTTPServer", []string{"http", "server", "httpserver"}},
		{"digits stay with their part", "base64Encode", []string{"base64", "encode", "base64encode"}},
		{"a capital after a digit starts a part", "getHTTP2Client", []string{"get", "http2", "client", "gethttp2client"}},
		{"letters and digits together are one term", "utf8 v2", []string{"utf8", "v2"}},
		{"surrounding underscores are dropped", "__init__", []string{"init"}},
		{"one-letter parts are dropped, the whole kept", "a_b xPos", []string{"a_b", "pos", "xpos"}},
		{"stop words are dropped", "The cat is on the mat", []string{"cat", "mat"}},
		{"stop-word parts are dropped, the whole kept", "getTheValue", []string{"get", "value", "getthevalue"}},
		{"one-character words are dropped", "x = 7 + y", nil},
		{"numbers of two digits or more are kept", "port 8080, line 42", []string{"port", "8080", "line", "42"}},
		{"punctuation and paths split words", "internal/parser/parser.go:120", []string{"internal", "parser", "parser", "go", "120"}},
		{"hyphens split words", "pincer-run", []string{"pincer", "run"}},
		{"possessives are dropped", "the parser's state", []string{"parser", "state"}},
		{"contractions are joined and may be stop words", "it doesn't work, isn’t right", []string{"work", "right"}},
		{"a quote that is not an apostrophe splits", "'quoted' words", []string{"quoted", "words"}},
		{"accented letters are letters", "Café naïve ÜBER", []string{"café", "naïve", "über"}},
		{"non-Latin scripts", "Привет мир", []string{"привет", "мир"}},
		{"combining marks stay in the word", "नमस्ते दुनिया", []string{"नमस्ते", "दुनिया"}},
		{"Chinese becomes overlapping bigrams", "数据库连接", []string{"数据", "据库", "库连", "连接"}},
		{"a lone CJK character is a term", "用", []string{"用"}},
		{"CJK next to Latin", "Go语言", []string{"go", "语言"}},
		{"Japanese kana and kanji", "東京タワー", []string{"東京", "京タ", "タワ", "ワー"}},
		{"Korean", "안녕하세요", []string{"안녕", "녕하", "하세", "세요"}},
		{"CJK punctuation splits runs", "你好，世界", []string{"你好", "世界"}},
		{"emoji are not words", "🚀 launch ✅", []string{"launch"}},
		{"long terms are cut", strings.Repeat("a", 50), []string{strings.Repeat("a", maxTermRunes)}},
		{"long terms are cut by runes", strings.Repeat("é", 50), []string{strings.Repeat("é", maxTermRunes)}},
		{"empty", "", nil},
		{"only punctuation", "!?... --- ***", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := allTerms(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("terms of %q = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestTokeniseSpans(t *testing.T) {
	tests := []struct {
		text string
		want []string // the text of each unit
	}{
		{"use parseConfig later", []string{"use", "parseConfig", "later"}},
		{"a parser's bug", []string{"parser's", "bug"}},
		{"查询数据库", []string{"查询", "询数", "数据", "据库"}},
		{"x Ünïcode", []string{"Ünïcode"}},
	}
	for _, tt := range tests {
		var got []string
		scanUnits(tt.text, func(start, end int, _ []string) { got = append(got, tt.text[start:end]) })
		if !slices.Equal(got, tt.want) {
			t.Errorf("units of %q = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestQueryTerms(t *testing.T) {
	tests := []struct {
		query string
		want  []string
	}{
		{"parse config parse", []string{"parse", "config"}},
		{"parseConfig config", []string{"parse", "config", "parseconfig"}},
		{"the of and", nil},
		{"   ", nil},
	}
	for _, tt := range tests {
		if got := queryTerms(tt.query); !slices.Equal(got, tt.want) {
			t.Errorf("queryTerms(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
}

func TestAnalyseCountsTermsAndLength(t *testing.T) {
	tf, length := analyse("Fix the parser. The parser fails on parseConfig.")
	want := map[string]int{"fix": 1, "parser": 2, "fails": 1, "parse": 1, "config": 1, "parseconfig": 1}
	if len(tf) != len(want) || length != 7 {
		t.Fatalf("analyse = %v (length %d), want %v (length 7)", tf, length, want)
	}
	for term, n := range want {
		if tf[term] != n {
			t.Errorf("tf[%q] = %d, want %d", term, tf[term], n)
		}
	}
}
