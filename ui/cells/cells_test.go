package cells

import "testing"

func TestCells(t *testing.T) {
	cases := []struct {
		name string
		got  any
		want any
	}{
		{"ascii width", Width("main.go"), 7},
		{"wide width", Width("日本.go"), 7},
		{"fits", Truncate("main.go", 7), "main.go"},
		{"cut", Truncate("internal/main.go", 8), "interna…"},
		{"cut wide", Truncate("日本語のファイル", 5), "日本…"},
		{"zero", Truncate("x", 0), ""},
		{"spaces", Spaces(3), "   "},
		{"no spaces", Spaces(-1), ""},
		{"control", Sanitize("a\x1b[31mb\tc\nd"), "a␛[31mb c␊d"},
		{"bidi", Sanitize("a\u202eb"), "a⟨U+202E⟩b"},
		{"clean", Sanitize("plain"), "plain"},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}
