package tools

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// numberedLines returns n lines "line 1" … "line n", each ending in "\n".
func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestCapText(t *testing.T) {
	big := numberedLines(10000) // about 100 KB
	tests := []struct {
		name      string
		in        string
		max       int
		wantSame  bool
		wantHead  string
		wantTail  string
		wantLines bool // cut falls on line boundaries
	}{
		{"short kept", "hello\n", 100, true, "", "", false},
		{"exactly max kept", strings.Repeat("x", 500), 500, true, "", "", false},
		{"lines cut in the middle", big, 2000, false, "line 1\nline 2\n", "line 9999\nline 10000\n", true},
		{"one long line", strings.Repeat("a", 5000) + strings.Repeat("b", 5000), 1000, false, "aaaa", "bbbb", false},
		{"multi-byte text", strings.Repeat("é世", 3000), 1000, false, "é世", "é世", false},
		{"tiny max keeps head", strings.Repeat("z", 1000), 100, false, "zzz", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := capText(tt.in, tt.max)
			if tt.wantSame {
				if got != tt.in {
					t.Fatalf("capText changed text that fits")
				}
				return
			}
			if len(got) > tt.max {
				t.Errorf("capped to %d bytes, more than max %d", len(got), tt.max)
			}
			if !utf8.ValidString(got) {
				t.Error("capped text is not valid UTF-8")
			}
			if !strings.HasPrefix(got, tt.wantHead) || !strings.HasSuffix(got, tt.wantTail) {
				t.Errorf("head/tail not kept: %q … %q", got[:min(40, len(got))], got[max(0, len(got)-40):])
			}
			m := regexp.MustCompile(`\[… (\d+) bytes \((\d+) lines\) cut from the middle; (\d+) bytes in total`).FindStringSubmatch(got)
			if tt.max < 2*noticeReserve {
				if !strings.Contains(got, fmt.Sprintf("of %d bytes not shown", len(tt.in))) {
					t.Errorf("small cap does not state the cut: %q", got)
				}
				return
			}
			if m == nil {
				t.Fatalf("no cut notice in %q", got)
			}
			cut, _ := strconv.Atoi(m[1])
			total, _ := strconv.Atoi(m[3])
			if total != len(tt.in) {
				t.Errorf("notice says %d bytes in total, want %d", total, len(tt.in))
			}
			notice := regexp.MustCompile(`\n\[… [^\]]*…\]\n\n`).FindString(got)
			head, tail, _ := strings.Cut(got, notice)
			if !strings.HasPrefix(tt.in, head) {
				head = strings.TrimSuffix(head, "\n") // the line break added before the notice
			}
			if !strings.HasPrefix(tt.in, head) || !strings.HasSuffix(tt.in, tail) {
				t.Fatalf("kept parts are not the input's head and tail")
			}
			kept := len(head) + len(tail)
			if cut+kept != len(tt.in) {
				t.Errorf("cut %d + kept %d = %d, want %d", cut, kept, cut+kept, len(tt.in))
			}
			if tt.wantLines {
				if !strings.HasSuffix(head, "\n") || !strings.HasPrefix(tail, "line ") {
					t.Errorf("cut not at line boundaries: head ends %q, tail starts %q", head[len(head)-10:], tail[:10])
				}
				lines, _ := strconv.Atoi(m[2])
				if want := strings.Count(tt.in, "\n") - strings.Count(head, "\n") - strings.Count(tail, "\n"); lines != want {
					t.Errorf("notice says %d lines cut, want %d", lines, want)
				}
			}
		})
	}
}

func TestHeadTailStreams(t *testing.T) {
	h := newHeadTail(1000)
	var all strings.Builder
	for i := 0; i < 100000; i++ {
		line := fmt.Sprintf("out %d\n", i)
		h.WriteString(line)
		all.WriteString(line)
	}
	if h.Total() != int64(all.Len()) {
		t.Fatalf("Total = %d, want %d", h.Total(), all.Len())
	}
	if len(h.tail) > 2*h.limit || len(h.head) > h.limit {
		t.Fatalf("buffers grew past the limit: head %d tail %d", len(h.head), len(h.tail))
	}
	got := h.Capped(1000)
	if !strings.HasPrefix(got, "out 0\nout 1\n") || !strings.HasSuffix(got, "out 99999\n") {
		t.Fatalf("stream head/tail lost: %q … %q", got[:30], got[len(got)-30:])
	}
	if want := fmt.Sprintf("%d bytes in total", all.Len()); !strings.Contains(got, want) {
		t.Fatalf("capped stream lacks %q", want)
	}
	if got != capText(all.String(), 1000) {
		t.Fatalf("streamed cap differs from capping the whole text")
	}
}

func TestClipLine(t *testing.T) {
	if got := clipLine("short", 10); got != "short" {
		t.Errorf("clipLine kept-short = %q", got)
	}
	got := clipLine(strings.Repeat("世", 10), 10) // 30 bytes
	if !strings.HasPrefix(got, "世世世… [line cut: 21 more bytes]") {
		t.Errorf("clipLine = %q, want 3 runes and the cut stated", got)
	}
}

func TestCutNoticeCountsLinesInWords(t *testing.T) {
	// One line break cut from the middle: "1 line", not "1 lines".
	got := capText(strings.Repeat("x", 3000)+"\n"+strings.Repeat("y", 3000), 1000)
	if !strings.Contains(got, "(1 line) cut") {
		t.Errorf("notice: %q", got[strings.Index(got, "[…"):][:80])
	}
}
