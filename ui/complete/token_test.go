package complete

import (
	"testing"
	"unicode/utf8"
)

func TestFindToken(t *testing.T) {
	tests := []struct {
		text   string
		cursor int
		ok     bool
		want   Token
	}{
		{"@", 1, true, Token{Kind: FileMention, Query: "", Start: 0, End: 1}},
		{"@ui/tr", 6, true, Token{Kind: FileMention, Query: "ui/tr", Start: 0, End: 6}},
		{"look at @ui/tr please", 14, true, Token{Kind: FileMention, Query: "ui/tr", Start: 8, End: 14}},
		// In the middle of a word: the query stops at the cursor, the
		// whole word is replaced.
		{"look at @ui/tree/x.go please", 12, true, Token{Kind: FileMention, Query: "ui/", Start: 8, End: 21}},
		{"@a @b", 5, true, Token{Kind: FileMention, Query: "b", Start: 3, End: 5}},
		{"@a @b", 2, true, Token{Kind: FileMention, Query: "a", Start: 0, End: 2}},
		{"@a @b", 3, false, Token{}}, // after the space, before "@b"
		{"@a @b", 0, false, Token{}},
		{"mail a@b.com", 12, false, Token{}}, // "@" inside a word is not a mention
		{"first line\n@pk", 14, true, Token{Kind: FileMention, Query: "pk", Start: 11, End: 14}},
		{"a\t@x", 4, true, Token{Kind: FileMention, Query: "x", Start: 2, End: 4}},
		{"@日本/fi", 6, true, Token{Kind: FileMention, Query: "日本/fi", Start: 0, End: 6}},
		{"é @ü", 4, true, Token{Kind: FileMention, Query: "ü", Start: 2, End: 4}},
		{"/com", 4, true, Token{Kind: SlashCommand, Query: "com", Start: 0, End: 4}},
		{"/", 1, true, Token{Kind: SlashCommand, Query: "", Start: 0, End: 1}},
		{"/compact now", 8, true, Token{Kind: SlashCommand, Query: "compact", Start: 0, End: 8}},
		{"/compact now", 3, true, Token{Kind: SlashCommand, Query: "co", Start: 0, End: 8}},
		{"/compact now", 12, false, Token{}}, // the cursor is in the argument
		{" /com", 5, false, Token{}},         // not at the very start
		{"hi /com", 7, false, Token{}},
		{"line\n/cmd", 9, false, Token{}},
		{"/usr/lo", 7, true, Token{Kind: SlashCommand, Query: "usr/lo", Start: 0, End: 7}},
		{"", 0, false, Token{}},
		{"plain words", 5, false, Token{}},
		{"@ui", 99, true, Token{Kind: FileMention, Query: "ui", Start: 0, End: 3}}, // clamped
		{"@ui", -4, false, Token{}},
		// Quoted mentions: the spaces inside are part of the name.
		{`@"dir wi`, 8, true, Token{Kind: FileMention, Query: "dir wi", Start: 0, End: 8}},
		{`see @"dir with space/a`, 22, true, Token{Kind: FileMention, Query: "dir with space/a", Start: 4, End: 22}},
		{`@"`, 2, true, Token{Kind: FileMention, Query: "", Start: 0, End: 2}},
		{`@"a b" @"c d`, 12, true, Token{Kind: FileMention, Query: "c d", Start: 7, End: 12}},
		{`@"a b.txt" rest`, 4, true, Token{Kind: FileMention, Query: "a ", Start: 0, End: 10}}, // inside a closed one
		{`@"dir wi more`, 7, true, Token{Kind: FileMention, Query: "dir w", Start: 0, End: 8}}, // the open quote takes the word at the cursor
		{`@"a \"q\" b`, 11, true, Token{Kind: FileMention, Query: `a "q" b`, Start: 0, End: 11}},
		{`@"a b" x`, 8, false, Token{}},  // past a closed mention
		{`@"a.txt"`, 8, false, Token{}},  // just after a closed one
		{`@"a b"`, 6, false, Token{}},    // just after a closed one with a space
		{`a@"b c`, 6, false, Token{}},    // "@" inside a word
		{"@\"a\nb c", 5, false, Token{}}, // the quote does not span lines
		{"x\n@\"日 本", 7, true, Token{Kind: FileMention, Query: "日 本", Start: 2, End: 7}},
	}
	for _, tt := range tests {
		got, ok := FindToken(tt.text, tt.cursor)
		if ok != tt.ok || got != tt.want {
			t.Errorf("FindToken(%q, %d) = %+v, %v; want %+v, %v", tt.text, tt.cursor, got, ok, tt.want, tt.ok)
		}
	}
}

func TestApply(t *testing.T) {
	tests := []struct {
		text       string
		cursor     int
		value      string
		want       string
		wantCursor int
	}{
		{"see @ui/tr", 10, "ui/tree/tree.go", "see @ui/tree/tree.go ", 21},
		{"see @ui/tr now", 10, "ui/tree/tree.go", "see @ui/tree/tree.go now", 21},
		{"see @ui/tree/x.go now", 8, "ui/tree/view.go", "see @ui/tree/view.go now", 21},
		{"@", 1, "main.go", "@main.go ", 9},
		{"/com", 4, "compact", "/compact ", 9},
		{"/co later", 3, "compact", "/compact later", 9},
		{"x @日", 4, "日本.go", "x @日本.go ", 9},
		{"a\n@b\nc", 4, "b.go", "a\n@b.go\nc", 8},
		// A quoted name is put in closed, as the caller quotes it.
		{`@"dir wi`, 8, `"dir with space/a b.txt"`, `@"dir with space/a b.txt" `, 26},
		{`see @"dir wi now`, 12, `"dir with space/a b.txt"`, `see @"dir with space/a b.txt" now`, 30},
		{`@"a b" @"c`, 10, `"c d.go"`, `@"a b" @"c d.go" `, 17},
		{`@"dir w" x`, 5, `"dir with/x y"`, `@"dir with/x y" x`, 16},
	}
	for _, tt := range tests {
		tok, ok := FindToken(tt.text, tt.cursor)
		if !ok {
			t.Errorf("FindToken(%q, %d) found nothing", tt.text, tt.cursor)
			continue
		}
		got, cursor := tok.Apply(tt.text, tt.value)
		if got != tt.want || cursor != tt.wantCursor {
			t.Errorf("Apply(%q, %q) = %q, %d; want %q, %d", tt.text, tt.value, got, cursor, tt.want, tt.wantCursor)
		}
		if cursor > utf8.RuneCountInString(got) {
			t.Errorf("Apply(%q, %q): cursor %d beyond the text", tt.text, tt.value, cursor)
		}
	}
}

func TestApplyStaleToken(t *testing.T) {
	// The input changed since the token was found: Apply must not panic or
	// lose the text.
	tok := Token{Kind: FileMention, Query: "x", Start: 5, End: 40}
	got, cursor := tok.Apply("ab", "main.go")
	if got != "ab@main.go " || cursor != 11 {
		t.Errorf("stale token: %q, %d", got, cursor)
	}
}

func TestOffset(t *testing.T) {
	tests := []struct {
		text      string
		line, col int
		want      int
	}{
		{"", 0, 0, 0},
		{"abc", 0, 2, 2},
		{"abc", 0, 9, 3}, // past the end of the line
		{"ab\ncd", 1, 1, 4},
		{"ab\ncd", 1, 0, 3},
		{"ab\ncd", 0, 2, 2},
		{"日本\n語x", 1, 2, 5},
		{"ab\ncd", 7, 0, 5}, // past the last line
		{"ab\ncd", 0, -1, 0},
	}
	for _, tt := range tests {
		if got := Offset(tt.text, tt.line, tt.col); got != tt.want {
			t.Errorf("Offset(%q, %d, %d) = %d, want %d", tt.text, tt.line, tt.col, got, tt.want)
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{FileMention: "file", SlashCommand: "command", 0: "none"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}
