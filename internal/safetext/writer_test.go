package safetext

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWriterMatchesSanitize writes text in every split into two and byte
// by byte: the result must equal sanitising it whole.
func TestWriterMatchesSanitize(t *testing.T) {
	for _, s := range []string{
		"plain\ntext",
		"crlf\r\nsplit\r\n",
		"lone\rcr\r",
		"tab\there 日本\tx",
		"esc\x1b[2J bidi\u202e zw\u200b tag\U000E0041",
		"bad \xff\xfe utf8 \xe6\x97",
	} {
		for _, m := range []Mode{Line, Text, Exact} {
			want := Sanitize(s, m)
			for cut := 0; cut <= len(s); cut++ {
				var b strings.Builder
				w := NewWriter(&b, m)
				w.Write([]byte(s[:cut]))
				w.Write([]byte(s[cut:]))
				w.Flush()
				if b.String() != want {
					t.Fatalf("%q cut at %d, mode %d: %q, want %q", s, cut, m, b.String(), want)
				}
			}
			var b strings.Builder
			w := NewWriter(&b, m)
			for i := range len(s) {
				w.Write([]byte{s[i]})
			}
			w.Flush()
			if b.String() != want {
				t.Errorf("%q byte by byte, mode %d: %q, want %q", s, m, b.String(), want)
			}
		}
	}
}

// TestJSONWriterKeepsTheValue checks that JSON shown on a terminal decodes
// to the same value and holds nothing that could drive the terminal.
func TestJSONWriterKeepsTheValue(t *testing.T) {
	value := map[string]string{"text": "a\x1b[2J\u009b\u202e\u200b\U000E0041 日本 \r\n\t\x07 ok"}
	raw, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	for cut := 0; cut <= len(raw); cut++ {
		var b strings.Builder
		w := NewJSONWriter(&b)
		w.Write(raw[:cut])
		w.Write(raw[cut:])
		w.Flush()
		var got map[string]string
		if err := json.Unmarshal([]byte(b.String()), &got); err != nil {
			t.Fatalf("cut %d: %v in %q", cut, err, b.String())
		}
		if got["text"] != value["text"] {
			t.Fatalf("cut %d: decodes to %q, want %q", cut, got["text"], value["text"])
		}
		for _, bad := range []string{"\u009b", "\u202e", "\u200b", "\U000E0041", "\x1b"} {
			if strings.Contains(b.String(), bad) {
				t.Fatalf("cut %d: %q keeps %q", cut, b.String(), bad)
			}
		}
	}
}
