package diffview

import (
	"strings"
	"testing"

	"pincer/themes"
	"pincer/tools"
)

// TestSummary checks the one-line account of a change.
func TestSummary(t *testing.T) {
	cases := []struct {
		name, before, after string
		created             bool
		reject              []int
		want                string
	}{
		{"two hunks", "a\nb\nc\n", "A\nb\nC\nD\n", false, nil, "+3 −2 in 2 hunks"},
		{"one rejected", "a\nb\nc\n", "A\nb\nC\nD\n", false, []int{1}, "+3 −2 in 2 hunks, 1 rejected"},
		{"new file", "", "x\ny\n", true, nil, "+2 −0 in 1 hunk"},
		{"emptied", "x\ny\n", "", false, nil, "+0 −2 in 1 hunk"},
		{"no changes", "x\n", "x\n", false, nil, "no changes"},
		{"binary", "GIF\x00\x01", "GIF\x00\x01\x02", false, nil, "binary, 5 bytes → 6 bytes"},
		{"binary rejected", "GIF\x00\x01", "GIF\x00\x01\x02", false, []int{0}, "binary, 5 bytes → 6 bytes, 1 rejected"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ch := &tools.Change{Rel: "f", Before: []byte(tc.before), After: []byte(tc.after), Created: tc.created}
			if tc.created {
				ch.Before = nil
			}
			m := New(ch, themes.Dark())
			for _, i := range tc.reject {
				m.SetAccepted(i, false)
			}
			if got := m.Summary(); got != tc.want {
				t.Errorf("Summary() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRejectedNote checks what the model is told about hunks that did not
// land.
func TestRejectedNote(t *testing.T) {
	three := [2]string{"one\n2\n3\n4\n5\n", "1\n2\nthree\n4\nfive\nsix\n"}
	cases := []struct {
		name          string
		before, after string
		reject        []int
		want          string
	}{
		{"all accepted", three[0], three[1], nil, ""},
		{
			"one of three", three[0], three[1], []int{1},
			`The user rejected hunk 2 of 3 of the edit to pkg/f.txt (line 3 of your proposal, replacing line 3 of the file; it began "three"); the other hunks were applied, so the file differs from your proposal there.`,
		},
		{
			"two of three", three[0], three[1], []int{0, 2},
			`The user rejected 2 of 3 hunks of the edit to pkg/f.txt: hunk 1 (line 1 of your proposal, replacing line 1 of the file; it began "1"); hunk 3 (lines 5–6 of your proposal, replacing line 5 of the file; it began "five"). The other hunk was applied, so the file differs from your proposal there.`,
		},
		{
			"all of three", three[0], three[1], []int{0, 1, 2},
			`The user rejected all 3 hunks of the edit to pkg/f.txt; the file was not changed.`,
		},
		{
			"the only hunk", "a\n", "b\n", []int{0},
			`The user rejected the edit to pkg/f.txt (line 1 of your proposal, replacing line 1 of the file; it began "b"); the file was not changed.`,
		},
		{
			"an insertion", "a\nb\nc\nd\n", "a\n  added line\nb\nc\nD\n", []int{0},
			`The user rejected hunk 1 of 2 of the edit to pkg/f.txt (line 2 of your proposal, added after line 1 of the file; it began "added line"); the other hunks were applied, so the file differs from your proposal there.`,
		},
		{
			"a deletion", "a\nb\nc\nd\ne\n", "A\nb\nc\n", []int{1},
			`The user rejected hunk 2 of 2 of the edit to pkg/f.txt (removing lines 4–5 of the file; it began "d"); the other hunks were applied, so the file differs from your proposal there.`,
		},
		{
			"a long first line", "a\n", strings.Repeat("0123456789", 8) + "\n", []int{0},
			`The user rejected the edit to pkg/f.txt (line 1 of your proposal, replacing line 1 of the file; it began "01234567890123456789012345678901234567890123456789012345678…"); the file was not changed.`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel("pkg/f.txt", tc.before, tc.after, 80, 20)
			for _, i := range tc.reject {
				m.SetAccepted(i, false)
			}
			if got := m.RejectedNote(); got != tc.want {
				t.Errorf("RejectedNote() =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
