package human

import (
	"testing"
	"time"
)

func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		d    time.Duration
		want string
	}{
		{10 * time.Second, "just now"},
		{5 * time.Minute, "5 min ago"},
		{3*time.Hour + 59*time.Minute, "3 h ago"},
		{4 * 24 * time.Hour, "4 days ago"},
	}
	for _, tc := range cases {
		if got := Ago(now, now.Add(-tc.d)); got != tc.want {
			t.Errorf("Ago(-%s) = %q, want %q", tc.d, got, tc.want)
		}
	}
	if got := Ago(now, now.Add(-30*24*time.Hour)); len(got) != len("2026-10-31") || got[:4] != "2026" {
		t.Errorf("a month ago = %q, want a date", got)
	}
}

func TestTildeOneLinePlural(t *testing.T) {
	cases := []struct{ got, want string }{
		{Tilde("/home/a/src/x", "/home/a"), "~/src/x"},
		{Tilde("/home/ab/x", "/home/a"), "/home/ab/x"},
		{Tilde("/home/a", "/home/a"), "~"},
		{Tilde("/x", ""), "/x"},
		{OneLine("fix\n  the   parser", 40), "fix the parser"},
		{OneLine("ééééé", 4), "ééé…"},
		{OneLine("  a\tb\n", 4), "a b"},
		{Fold(" two\n\n lines\t"), "two lines"},
		{Plural(1, "msg"), "1 msg"},
		{Plural(0, "msg"), "0 msgs"},
		{Plural(2, "message"), "2 messages"},
		{Plural(1, "more line"), "1 more line"},
		{Noun(1, "package"), "package"},
		{Noun(0, "package"), "packages"},
		{Noun(3, "package"), "packages"},
	}
	for i, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("case %d: %q, want %q", i, tc.got, tc.want)
		}
	}
}

func TestDollarsAndCount(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		want string
	}{{0, "$0"}, {0.0042, "$0.0042"}, {0.01, "$0.01"}, {1.256, "$1.26"}, {1234.5, "$1234"}} {
		if got := Dollars(tt.x); got != tt.want {
			t.Errorf("Dollars(%v) = %q, want %q", tt.x, got, tt.want)
		}
	}
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {1234567, "1,234,567"}, {-4500, "-4,500"}} {
		if got := Count(tt.n); got != tt.want {
			t.Errorf("Count(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"}, {1, "1 byte"}, {812, "812 bytes"}, {1023, "1023 bytes"}, {1024, "1 KiB"}, {4300, "4.2 KiB"},
		{1024*1024 - 1, "1024.0 KiB"}, {16 << 20, "16 MiB"}, {1363149, "1.3 MiB"}, {3 << 30, "3 GiB"}, {3<<30 + 1<<29, "3.5 GiB"},
	} {
		if got := Bytes(tc.n); got != tc.want {
			t.Errorf("Bytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
