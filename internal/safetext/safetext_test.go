package safetext

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

func TestSanitize(t *testing.T) {
	cases := []struct {
		name string
		in   string
		mode Mode
		want string
	}{
		{"plain", "ls -la", Line, "ls -la"},
		{"csi clear", "a\x1b[2Jb", Text, "a␛[2Jb"},
		{"sgr", "\x1b[31mred\x1b[0m", Text, "␛[31mred␛[0m"},
		{"osc 52 clipboard", "\x1b]52;c;ZWNobyBoaQ==\x07", Text, "␛]52;c;ZWNobyBoaQ==␇"},
		{"osc 8 link", "\x1b]8;;http://x\x1b\\click\x1b]8;;\x1b\\", Line, "␛]8;;http://x␛\\click␛]8;;␛\\"},
		{"dcs", "\x1bPq#0\x1b\\", Line, "␛Pq#0␛\\"},
		{"apc", "\x1b_Gf=100\x1b\\", Line, "␛_Gf=100␛\\"},
		{"sos pm", "\x1bXs\x1b\\\x1b^p\x1b\\", Line, "␛Xs␛\\␛^p␛\\"},
		{"c1 csi rune", "a\u009b2Jb", Text, "a⟨U+009B⟩2Jb"},
		{"c1 csi byte", "a\x9b2Jb", Text, "a⟨0x9B⟩2Jb"},
		{"c1 osc rune", "\u009d52;c;x\u009c", Line, "⟨U+009D⟩52;c;x⟨U+009C⟩"},
		{"bel backspace del", "a\x07b\x08c\x7f", Line, "a␇b␈c␡"},
		{"nul", "a\x00b", Line, "a␀b"},
		{"bidi override", "txt.\u202egnp", Line, "txt.⟨U+202E⟩gnp"},
		{"bidi isolates", "\u2066a\u2067b\u2068c\u2069", Line, "⟨U+2066⟩a⟨U+2067⟩b⟨U+2068⟩c⟨U+2069⟩"},
		{"bidi marks", "\u200e\u200f\u061c", Line, "⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩"},
		{"embeddings", "\u202a\u202b\u202c\u202d", Line, "⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩"},
		{"zero width", "r\u200bm\u200c\u200d\u2060\ufeff", Line, "r⟨U+200B⟩m⟨U+200C⟩⟨U+200D⟩⟨U+2060⟩⟨U+FEFF⟩"},
		{"tag characters", "a\U000E0041", Line, "a⟨U+E0041⟩"},
		{"line separator", "a\u2028b\u2029c", Text, "a⟨U+2028⟩b⟨U+2029⟩c"},
		{"newline in a line", "ls\ntouch x", Line, "ls␊touch x"},
		{"newline in text", "ls\ntouch x", Text, "ls\ntouch x"},
		{"crlf in text", "a\r\nb", Text, "a\nb"},
		{"crlf exact", "a\r\nb", Exact, "a␍\nb"},
		{"raw cr", "touch /tmp/x\rls -la", Text, "touch /tmp/x␍ls -la"},
		{"raw cr exact", "touch /tmp/x\rls -la", Exact, "touch /tmp/x␍ls -la"},
		{"raw cr line", "a\rb", Line, "a␍b"},
		{"tab", "a\tb", Text, "a   b"},
		{"tab after wide", "日\tb", Text, "日  b"},
		{"tab after escape", "\x1b\tb", Text, "␛   b"},
		{"tab stops restart", "ab\n\tc", Text, "ab\n    c"},
		{"unicode kept", "héllo 日本 👍", Line, "héllo 日本 👍"},
		{"no-break space exact", "rm -rf\u00a0build\u3000x\u2009y", Exact, "rm -rf⟨U+00A0⟩build⟨U+3000⟩x⟨U+2009⟩y"},
		{"no-break space in text", "10\u00a0km", Text, "10\u00a0km"},
		{"visible forms kept", "␛[2J ⟨U+202E⟩", Line, "␛[2J ⟨U+202E⟩"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sanitize(tc.in, tc.mode); got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
			var b strings.Builder
			for _, sp := range Spans(tc.in, tc.mode) {
				if sp.Break {
					b.WriteByte('\n')
				} else {
					b.WriteString(sp.Text)
				}
			}
			if b.String() != tc.want {
				t.Errorf("Spans(%q) joined = %q, want %q", tc.in, b.String(), tc.want)
			}
		})
	}
}

func TestEscaped(t *testing.T) {
	cases := []struct {
		in   string
		mode Mode
		want bool
	}{
		{"ls -la", Exact, false},
		{"ls\n-la", Exact, false},
		{"ls\n-la", Line, true},
		{"a\tb", Line, false},
		{"日本", Line, false},
		{"a\r\nb", Text, false},
		{"a\r\nb", Exact, true},
		{"a\rb", Text, true},
		{"a\x1b[2J", Text, true},
		{"a\u202eb", Text, true},
		{"a\u200bb", Text, true},
		{"a\xffb", Text, true},
	}
	for _, tc := range cases {
		if got := escaped(tc.in, tc.mode); got != tc.want {
			t.Errorf("escaped(%q, %d) = %v, want %v", tc.in, tc.mode, got, tc.want)
		}
	}
}

func TestSpansMarkEscapes(t *testing.T) {
	got := Spans("rm\u202e x\ry", Exact)
	want := []Span{{Text: "rm"}, {Text: "⟨U+202E⟩", Escaped: true}, {Text: " x"}, {Text: "␍", Escaped: true}, {Text: "y"}}
	if len(got) != len(want) {
		t.Fatalf("Spans = %+v, want %+v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("span %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestAppendPieceByPiece(t *testing.T) {
	whole := "a\tb日\tc\x1b\td"
	want, wantCol := Append(nil, whole, 2, Text)
	var b []byte
	col := 2
	for _, piece := range []string{"a\t", "b日", "\tc", "\x1b\td"} {
		b, col = Append(b, piece, col, Text)
	}
	if string(b) != string(want) || col != wantCol {
		t.Errorf("pieces = %q at %d, whole = %q at %d", b, col, want, wantCol)
	}
}

func TestPlainIsNotCopied(t *testing.T) {
	s := strings.Repeat("plain text\n", 10)
	if got := Sanitize(s, Text); got != s || unsafe.StringData(got) != unsafe.StringData(s) {
		t.Fatal("plain text changed")
	}
	if n := testing.AllocsPerRun(10, func() { Sanitize(s, Text) }); n != 0 {
		t.Errorf("plain text allocates %v times", n)
	}
}

// checkSafe fails when out could drive a terminal or hide text.
func checkSafe(t *testing.T, in, out string, m Mode) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("Sanitize(%q) = %q is not valid UTF-8", in, out)
	}
	for _, r := range out {
		switch {
		case r == '\n' && m != Line:
		case r < 0x20, r >= 0x7f && r < 0xa0, r == 0x2028, r == 0x2029, unicode.Is(unicode.Cf, r):
			t.Fatalf("Sanitize(%q, %d) = %q keeps %U", in, m, out, r)
		}
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"ls", "\x1b[2J", "a\r\nb\rc", "\u202e\u200b", "\x9b\xff\t日", "abcdefgh\x7fabcdefg", "0123456789abcdef\x1f", "\n\n\n\n\n\n\n\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range []Mode{Line, Text, Exact} {
			if isPlain(s, m) != plainBytes(s, m) {
				t.Fatalf("isPlain(%q, %d) = %v, byte by byte %v", s, m, isPlain(s, m), plainBytes(s, m))
			}
			out := Sanitize(s, m)
			checkSafe(t, s, out, m)
			anyEscaped := escaped(s, m)
			if !anyEscaped && !strings.ContainsAny(s, "\t\r") && out != s {
				t.Fatalf("Sanitize(%q, %d) = %q changed text with nothing to escape", s, m, out)
			}
		}
	})
}

var hostile = strings.Repeat("ls -la \x1b[2J\x1b]52;c;ZWNobw==\x07 \u202egnp.exe\u200b\r\n", 20)
var plainASCII = strings.Repeat("The quick brown fox jumps over the lazy dog.\n", 20)

func BenchmarkSanitize(b *testing.B) {
	for _, bc := range []struct{ name, s string }{
		{"plain", plainASCII},
		{"plainTab", strings.ReplaceAll(plainASCII, "The", "\tThe")},
		{"unicode", strings.Repeat("Grüße, 日本語 text — ok.\n", 40)},
		{"hostile", hostile},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.s)))
			for b.Loop() {
				Sanitize(bc.s, Text)
			}
		})
	}
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(int64(len(plainASCII)))
		for b.Loop() {
			_ = append([]byte(nil), plainASCII...)
		}
	})
}

// escaped reports whether any span of s under m is an escape: what the
// approval dialog marks.
func escaped(s string, m Mode) bool {
	for _, sp := range Spans(s, m) {
		if sp.Escaped {
			return true
		}
	}
	return false
}
