package diffview

import (
	"bytes"
	"slices"
	"testing"

	"pincer/themes"
	"pincer/tools"
)

// TestResultSelections applies hunk selections to files: every hunk gives
// the proposal byte for byte, none gives the file, and each hunk alone gives
// the file written out by hand in alone.
func TestResultSelections(t *testing.T) {
	cases := []struct {
		name          string
		before, after string
		created       bool // before is nil: the file does not exist
		alone         []string
	}{
		{
			name:   "two hunks far apart",
			before: "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n",
			after:  "A\nb\nc\nd\ne\nf\ng\nh\ni\nJ\n",
			alone:  []string{"A\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "a\nb\nc\nd\ne\nf\ng\nh\ni\nJ\n"},
		},
		{
			name:   "hunks one line apart",
			before: "a\nb\nc\n",
			after:  "A\nb\nC\n",
			alone:  []string{"A\nb\nc\n", "a\nb\nC\n"},
		},
		{
			name:   "changed lines next to each other are one hunk",
			before: "a\nb\nc\n",
			after:  "A\nB\nc\n",
			alone:  []string{"A\nB\nc\n"},
		},
		{
			name:   "three hunks within one context window",
			before: "1\n2\n3\n4\n5\n",
			after:  "one\n2\nthree\n4\nfive\n",
			alone:  []string{"one\n2\n3\n4\n5\n", "1\n2\nthree\n4\n5\n", "1\n2\n3\n4\nfive\n"},
		},
		{
			name:   "insertion and deletion",
			before: "a\nb\nc\nd\n",
			after:  "a\nX\nb\nc\n",
			alone:  []string{"a\nX\nb\nc\nd\n", "a\nb\nc\n"},
		},
		{
			name:   "no final newline before",
			before: "a\nb\nc",
			after:  "A\nb\nc\n",
			alone:  []string{"A\nb\nc", "a\nb\nc\n"},
		},
		{
			name:   "no final newline after",
			before: "a\nb\nc\n",
			after:  "A\nb\nc",
			alone:  []string{"A\nb\nc\n", "a\nb\nc"},
		},
		{
			name:   "no final newline on either side",
			before: "a\nb\nc",
			after:  "A\nb\nC",
			alone:  []string{"A\nb\nc", "a\nb\nC"},
		},
		{
			name:   "only the final newline added",
			before: "a\nb",
			after:  "a\nb\n",
			alone:  []string{"a\nb\n"},
		},
		{
			name:   "CRLF",
			before: "a\r\nb\r\nc\r\nd\r\n",
			after:  "A\r\nb\r\nc\r\nD\r\n",
			alone:  []string{"A\r\nb\r\nc\r\nd\r\n", "a\r\nb\r\nc\r\nD\r\n"},
		},
		{
			name:   "CRLF without a final newline",
			before: "a\r\nb\r\nc",
			after:  "A\r\nb\r\nC",
			alone:  []string{"A\r\nb\r\nc", "a\r\nb\r\nC"},
		},
		{
			name:   "line endings changed on one line",
			before: "a\r\nb\r\nc\r\n",
			after:  "a\r\nb\nc\r\n",
			alone:  []string{"a\r\nb\nc\r\n"},
		},
		{
			name:    "new file",
			before:  "",
			after:   "x\ny\n",
			created: true,
			alone:   []string{"x\ny\n"},
		},
		{
			name:   "emptied file",
			before: "x\ny\n",
			after:  "",
			alone:  []string{""},
		},
		{
			name:   "unicode",
			before: "héllo\n世界\nend\n",
			after:  "hello\n世界\nfin 🎉\n",
			alone:  []string{"hello\n世界\nend\n", "héllo\n世界\nfin 🎉\n"},
		},
		{
			name:   "no changes",
			before: "same\n",
			after:  "same\n",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ch := &tools.Change{Rel: "f.txt", Before: []byte(tc.before), After: []byte(tc.after), Created: tc.created}
			if tc.created {
				ch.Before = nil
			}
			m := New(ch, themes.Dark())
			if m.Hunks() != len(tc.alone) {
				t.Fatalf("Hunks() = %d, want %d", m.Hunks(), len(tc.alone))
			}

			got, rejected, total := m.Result()
			if !bytes.Equal(got, []byte(tc.after)) || len(rejected) != 0 || total != len(tc.alone) {
				t.Errorf("all accepted: Result() = %q, %v, %d; want %q, none, %d", got, rejected, total, tc.after, len(tc.alone))
			}

			none := m
			for i := 0; i < m.Hunks(); i++ {
				none.SetAccepted(i, false)
			}
			got, rejected, _ = none.Result()
			if !bytes.Equal(got, []byte(tc.before)) {
				t.Errorf("none accepted: content = %q, want %q", got, tc.before)
			}
			if tc.created && got != nil {
				t.Errorf("none accepted of a new file: content = %q, want nil", got)
			}
			if want := seq(m.Hunks()); !slices.Equal(rejected, want) {
				t.Errorf("none accepted: rejected = %v, want %v", rejected, want)
			}

			for i, want := range tc.alone {
				got, rejected, _ := only(m, i).Result()
				if string(got) != want {
					t.Errorf("hunk %d alone: content = %q, want %q", i, got, want)
				}
				if len(rejected) != m.Hunks()-1 || slices.Contains(rejected, i) {
					t.Errorf("hunk %d alone: rejected = %v", i, rejected)
				}
			}
		})
	}
}

// TestResultSubsets checks selections of more than one hunk out of three.
func TestResultSubsets(t *testing.T) {
	before := "1\n2\n3\n4\n5\n6\n7\n"
	after := "one\n2\n3\nfour\n5\n6\nseven\n"
	cases := []struct {
		accept []bool
		want   string
	}{
		{[]bool{true, false, true}, "one\n2\n3\n4\n5\n6\nseven\n"},
		{[]bool{false, true, true}, "1\n2\n3\nfour\n5\n6\nseven\n"},
		{[]bool{true, true, false}, "one\n2\n3\nfour\n5\n6\n7\n"},
	}
	for _, tc := range cases {
		m := newModel("n.txt", before, after, 80, 20)
		for i, a := range tc.accept {
			m.SetAccepted(i, a)
		}
		if got, _, _ := m.Result(); string(got) != tc.want {
			t.Errorf("accept %v: content = %q, want %q", tc.accept, got, tc.want)
		}
	}
}

// TestResultDoesNotShareSelection checks that a copy of a model keeps its
// own choices: Bubble Tea keeps old models around.
func TestResultDoesNotShareSelection(t *testing.T) {
	m := newModel("f.txt", "a\nb\nc\n", "A\nb\nC\n", 80, 20)
	copied := m
	copied.SetAccepted(0, false)
	if !m.Accepted(0) {
		t.Fatal("rejecting a hunk in a copy rejected it in the original")
	}
	toggled := press(m, "space")
	if !m.Accepted(0) || toggled.Accepted(0) {
		t.Fatalf("after space: original accepted = %v, new accepted = %v; want true, false", m.Accepted(0), toggled.Accepted(0))
	}
}

// TestBinaryIsAllOrNothing checks that binary content is one hunk, shown
// as a note, applied whole or not at all.
func TestBinaryIsAllOrNothing(t *testing.T) {
	before := "PNG\x00\x01\x02\x1b[31mred"
	after := "PNG\x00\x01\x03"
	m := newModel("logo.png", before, after, 80, 10)
	if m.Hunks() != 1 {
		t.Fatalf("Hunks() = %d, want 1", m.Hunks())
	}
	v := m.View()
	checkFrame(t, v, 80, 10)
	if findLine(plainLines(v), "Binary content is not shown") < 0 {
		t.Errorf("view does not say the content is binary:\n%s", v)
	}
	if got, _, _ := m.Result(); string(got) != after {
		t.Errorf("accepted: content = %q, want %q", got, after)
	}
	m = press(m, "space")
	if got, rejected, _ := m.Result(); string(got) != before || !slices.Equal(rejected, []int{0}) {
		t.Errorf("rejected: content = %q, rejected %v; want %q, [0]", got, rejected, before)
	}
	if !bytes.Contains([]byte(m.RejectedNote()), []byte("binary")) {
		t.Errorf("RejectedNote() = %q, want it to mention binary content", m.RejectedNote())
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
