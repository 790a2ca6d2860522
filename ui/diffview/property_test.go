package diffview

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"pincer/themes"
	"pincer/tools"
)

// TestResultProperties checks the selection rules on random pairs of files
// with random selections: see checkSelection.
func TestResultProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2026))
	for i := 0; i < 3000; i++ {
		before := randomFile(rng)
		after := mutate(rng, before)
		if !checkSelection(t, before, after, rng.Uint64(), rng.Uint64()) {
			t.Fatalf("case %d: before %q, after %q", i, before, after)
		}
	}
}

// FuzzResult checks the same rules on whatever the fuzzer makes up.
func FuzzResult(f *testing.F) {
	f.Add("a\nb\nc\n", "A\nb\nC\n", uint64(1), uint64(7))
	f.Add("a\r\nb\r\nc", "a\r\nB\r\nc\r\n", uint64(2), uint64(3))
	f.Add("", "new\nfile", uint64(0), uint64(1))
	f.Add("gone\n", "", uint64(0), uint64(1))
	f.Add("héllo\n世界\n", "hello\n世界\n🎉", uint64(5), uint64(9))
	f.Add("bin\x00ary", "bin\x00ari", uint64(0), uint64(0))
	f.Add("bin\x00ary", "bin\x00ary", uint64(0), uint64(0))
	f.Fuzz(func(t *testing.T, before, after string, mask, order uint64) {
		checkSelection(t, before, after, mask, order)
	})
}

// checkSelection asserts, for one pair of files and one selection (mask
// bit i accepts hunk i):
//   - every hunk accepted gives after, none gives before, byte for byte;
//   - hunks are non-empty, in order, and separated by at least one
//     unchanged line that is the same on both sides;
//   - the result is before with the old lines of exactly the accepted hunks
//     replaced by their new lines;
//   - the result does not depend on the order the hunks were toggled in.
func checkSelection(t *testing.T, before, after string, mask, order uint64) bool {
	t.Helper()
	m := New(&tools.Change{Rel: "f.txt", Before: []byte(before), After: []byte(after)}, themes.Dark())
	ok := true
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format, args...)
		ok = false
	}
	n := m.Hunks()
	if got, _, _ := m.Result(); string(got) != after {
		fail("all accepted: %q, want %q", got, after)
	}
	none := m
	for i := 0; i < n; i++ {
		none.SetAccepted(i, false)
	}
	if got, _, _ := none.Result(); string(got) != before {
		fail("none accepted: %q, want %q", got, before)
	}
	if m.d.binary {
		want := 1
		if before == after {
			want = 0
		}
		if n != want {
			fail("binary change has %d hunks, want %d", n, want)
		}
		return ok
	}

	d := m.d
	oldAt, newAt := 0, 0 // the first line after the previous hunk
	for i, h := range d.hunks {
		if h.added()+h.removed() == 0 {
			fail("hunk %d is empty", i)
		}
		if i > 0 && (h.oldStart <= oldAt || h.newStart <= newAt) {
			fail("hunk %d (old %d, new %d) touches the one before (ends old %d, new %d)", i, h.oldStart, h.newStart, oldAt, newAt)
		}
		if h.oldStart-oldAt != h.newStart-newAt {
			fail("hunk %d: %d unchanged lines before it in old, %d in new", i, h.oldStart-oldAt, h.newStart-newAt)
		}
		for k := 0; k < h.oldStart-oldAt && k < h.newStart-newAt; k++ {
			if d.old.lines[oldAt+k] != d.new.lines[newAt+k] {
				fail("unchanged line %d before hunk %d differs: %q, %q", oldAt+k, i, d.old.lines[oldAt+k], d.new.lines[newAt+k])
			}
		}
		oldAt, newAt = h.oldEnd, h.newEnd
	}
	if tailOld, tailNew := d.old.lines[oldAt:], d.new.lines[newAt:]; strings.Join(tailOld, "") != strings.Join(tailNew, "") {
		fail("unchanged lines after the last hunk differ: %q, %q", tailOld, tailNew)
	}

	selected := m
	accept := make([]bool, n)
	for i := range accept {
		accept[i] = mask>>(i%64)&1 == 1
		selected.SetAccepted(i, accept[i])
	}
	got, _, _ := selected.Result()
	var want strings.Builder
	at := 0
	for i, h := range d.hunks {
		want.WriteString(strings.Join(d.old.lines[at:h.oldStart], ""))
		if accept[i] {
			want.WriteString(strings.Join(d.new.lines[h.newStart:h.newEnd], ""))
		} else {
			want.WriteString(strings.Join(d.old.lines[h.oldStart:h.oldEnd], ""))
		}
		at = h.oldEnd
	}
	want.WriteString(strings.Join(d.old.lines[at:], ""))
	if string(got) != want.String() {
		fail("selection %v: %q, want %q", accept, got, want.String())
	}

	// Toggle towards the same selection in another order, with detours.
	other := m
	rng := rand.New(rand.NewPCG(order, mask))
	for _, i := range rng.Perm(n) {
		if rng.IntN(2) == 0 {
			other.SetAccepted(i, !accept[i])
		}
	}
	for _, i := range rng.Perm(n) {
		other.SetAccepted(i, accept[i])
	}
	if again, _, _ := other.Result(); !bytes.Equal(again, got) {
		fail("selection %v reached in another order: %q, want %q", accept, again, got)
	}
	return ok
}

// randomFile makes a small file of a few repeated lines, so that diffs have
// both common and changed lines, with LF or CRLF endings and sometimes no
// final line break.
func randomFile(rng *rand.Rand) string {
	words := []string{"a", "b", "c", "", "x y", "ünï", "\t}", "{"}
	crlf := rng.IntN(4) == 0
	var b strings.Builder
	n := rng.IntN(14)
	for i := 0; i < n; i++ {
		b.WriteString(words[rng.IntN(len(words))])
		if i == n-1 && rng.IntN(4) == 0 {
			break
		}
		if crlf {
			b.WriteString("\r\n")
		} else {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// mutate changes a few lines of s: deletes, inserts, replaces, changes a
// line ending, or the final line break.
func mutate(rng *rand.Rand, s string) string {
	lines, _ := splitLines(s)
	for k := rng.IntN(5); k >= 0; k-- {
		i := 0
		if len(lines) > 0 {
			i = rng.IntN(len(lines))
		}
		switch op := rng.IntN(5); {
		case op == 0 && len(lines) > 0:
			lines = append(lines[:i:i], lines[i+1:]...)
		case op == 1:
			lines = append(lines[:i:i], append([]string{"new\n"}, lines[i:]...)...)
		case op == 2 && len(lines) > 0:
			lines[i] = strings.Replace(lines[i], lineContent(lines[i]), "changed", 1)
		case op == 3 && len(lines) > 0 && strings.HasSuffix(lines[i], "\r\n"):
			lines[i] = strings.TrimSuffix(lines[i], "\r\n") + "\n"
		case op == 4 && len(lines) > 0:
			last := len(lines) - 1
			if strings.HasSuffix(lines[last], "\n") {
				lines[last] = lineContent(lines[last])
			} else {
				lines[last] += "\n"
			}
		}
	}
	// A line without a break in the middle would join the next one; that
	// is a different file, and still a fair test.
	return strings.Join(lines, "")
}
