package tools

import (
	"strings"
	"testing"
)

func TestIsBinary(t *testing.T) {
	tests := []struct {
		name string
		data string
		want bool
	}{
		{"empty", "", false},
		{"ascii", "hello\nworld\n", false},
		{"utf-8", "héllo wörld 世界\n", false},
		{"latin-1 accent", "caf\xe9 au lait\n", false},
		{"escape codes", "\x1b[31mred\x1b[0m\n", false},
		{"nul byte", "abc\x00def", true},
		{"utf-16", "h\x00e\x00l\x00", true},
		{"random high bytes", "\xff\xfe\xfd\xfc\x80\x81\x82\x83\x84\x85", true},
		{"control bytes", "\x01\x02\x03\x04\x05\x06abc", true},
		{"multi-byte cut at the sample end", strings.Repeat("a", sniffBytes-1) + "世", false},
		{"nul after the sample", strings.Repeat("a", sniffBytes) + "\x00", false},
	}
	for _, tt := range tests {
		if got := isBinary([]byte(tt.data)); got != tt.want {
			t.Errorf("%s: isBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestLineHelpers(t *testing.T) {
	tests := []struct {
		text  string
		count int
		crlf  bool
		span  int
	}{
		{"", 0, false, 0},
		{"a", 1, false, 1},
		{"a\n", 1, false, 1},
		{"a\nb", 2, false, 2},
		{"a\r\nb\r\n", 2, true, 2},
		{"a\r\nb\nc\r\n", 3, true, 3},
		{"a\nb\nc\r\n", 3, false, 3},
		{"\n\n", 2, false, 2},
	}
	for _, tt := range tests {
		if got := lineCount([]byte(tt.text)); got != tt.count {
			t.Errorf("lineCount(%q) = %d, want %d", tt.text, got, tt.count)
		}
		if got := usesCRLF([]byte(tt.text)); got != tt.crlf {
			t.Errorf("usesCRLF(%q) = %v, want %v", tt.text, got, tt.crlf)
		}
		if got := lineSpan(tt.text); got != tt.span {
			t.Errorf("lineSpan(%q) = %d, want %d", tt.text, got, tt.span)
		}
	}
}

func TestChangedSnippet(t *testing.T) {
	before := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	tests := []struct {
		name   string
		before *string
		after  string
		want   string
	}{
		{"one line changed", &before, strings.Replace(before, "5\n", "five\n", 1),
			"     2\t2\n     3\t3\n     4\t4\n     5\tfive\n     6\t6\n     7\t7\n     8\t8"},
		{"lines deleted", &before, strings.Replace(before, "5\n6\n", "", 1),
			"     2\t2\n     3\t3\n     4\t4\n     5\t7\n     6\t8\n     7\t9"},
		{"change at the start", &before, "zero\n" + before,
			"     1\tzero\n     2\t1\n     3\t2\n     4\t3"},
		{"unchanged", &before, before, ""},
		{"new file", nil, "x\n", ""},
	}
	for _, tt := range tests {
		var b []byte
		if tt.before != nil {
			b = []byte(*tt.before)
		}
		if got := changedSnippet(b, []byte(tt.after)); got != tt.want {
			t.Errorf("%s: snippet =\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
	var big strings.Builder
	for i := 0; i < 100; i++ {
		big.WriteString("new\n")
	}
	got := changedSnippet([]byte("a\n"), []byte(big.String()))
	if !strings.HasSuffix(got, "… 60 more lines (use read_file to see them)") || strings.Count(got, "\n") != snippetMax {
		t.Errorf("long snippet not capped at %d lines: …%s", snippetMax, got[len(got)-80:])
	}
}

func TestClosestNames(t *testing.T) {
	names := []string{"loop.go", "loop_test.go", "stream.go", "Makefile", "README.md", "agent/", "x.go"}
	tests := []struct {
		want string
		got  []string
	}{
		{"lop.go", []string{"loop.go"}},
		{"loop.ts", []string{"loop.go", "loop_test.go"}},
		{"makefile", []string{"Makefile"}},
		{"readme", []string{"README.md"}},
		{"agnet", []string{"agent/"}},
		{"stream_test.go", []string{"stream.go"}},
		{"completely-different.txt", []string{}},
	}
	for _, tt := range tests {
		if got := closestNames(tt.want, names, 3); strings.Join(got, ",") != strings.Join(tt.got, ",") {
			t.Errorf("closestNames(%q) = %v, want %v", tt.want, got, tt.got)
		}
	}
}
