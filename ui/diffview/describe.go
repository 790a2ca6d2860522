package diffview

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"pincer/internal/human"
)

// snippetRunes bounds the changed line quoted to the model for a rejected
// hunk.
const snippetRunes = 60

// summary is the one-line account of the proposal, e.g. "+12 −3 in 2 hunks".
func (d *doc) summary() string {
	switch {
	case d.binary && len(d.hunks) == 0:
		return "binary, no changes"
	case d.binary:
		return fmt.Sprintf("binary, %s → %s", human.Bytes(int64(len(d.before))), human.Bytes(int64(len(d.after))))
	case len(d.hunks) == 0:
		return "no changes"
	}
	return fmt.Sprintf("+%d −%d in %s", d.added, d.removed, human.Plural(len(d.hunks), "hunk"))
}

// rejectedNote tells the model which hunks did not land, in words it can act
// on: where each one was in its proposal and how it began.
func (d *doc) rejectedNote(accepted []bool) string {
	var rejected []int
	for i, a := range accepted {
		if !a {
			rejected = append(rejected, i)
		}
	}
	total := len(d.hunks)
	switch {
	case len(rejected) == 0:
		return ""
	case d.binary:
		return fmt.Sprintf("The user rejected the change to %s (binary content); the file was not changed.", d.name)
	case len(rejected) == total && total == 1:
		return fmt.Sprintf("The user rejected the edit to %s (%s); the file was not changed.", d.name, d.describeHunk(0))
	case len(rejected) == total:
		return fmt.Sprintf("The user rejected all %d hunks of the edit to %s; the file was not changed.", total, d.name)
	case len(rejected) == 1:
		return fmt.Sprintf("The user rejected hunk %d of %d of the edit to %s (%s); the other hunks were applied, so the file differs from your proposal there.",
			rejected[0]+1, total, d.name, d.describeHunk(rejected[0]))
	}
	parts := make([]string, len(rejected))
	for k, i := range rejected {
		parts[k] = fmt.Sprintf("hunk %d (%s)", i+1, d.describeHunk(i))
	}
	others := "The other hunks were applied"
	if total-len(rejected) == 1 {
		others = "The other hunk was applied"
	}
	return fmt.Sprintf("The user rejected %d of %d hunks of the edit to %s: %s. %s, so the file differs from your proposal there.",
		len(rejected), total, d.name, strings.Join(parts, "; "), others)
}

// describeHunk says where hunk i is and how it starts, e.g. `lines 40–52 of
// your proposal, replacing lines 38–45 of the file; it began "func f() {"`.
func (d *doc) describeHunk(i int) string {
	h := d.hunks[i]
	var where string
	switch {
	case h.removed() == 0:
		where = fmt.Sprintf("%s of your proposal, added after line %d of the file", lineSpan(h.newStart, h.newEnd), h.oldStart)
	case h.added() == 0:
		where = fmt.Sprintf("removing %s of the file", lineSpan(h.oldStart, h.oldEnd))
	default:
		where = fmt.Sprintf("%s of your proposal, replacing %s of the file", lineSpan(h.newStart, h.newEnd), lineSpan(h.oldStart, h.oldEnd))
	}
	line := ""
	if h.added() > 0 {
		line = d.new.lines[h.newStart]
	} else {
		line = d.old.lines[h.oldStart]
	}
	if s := snippet(line); s != "" {
		where += fmt.Sprintf(`; it began %q`, s)
	}
	return where
}

// lineSpan writes the 0-based lines [start, end) as 1-based numbers.
func lineSpan(start, end int) string {
	if end-start == 1 {
		return fmt.Sprintf("line %d", start+1)
	}
	return fmt.Sprintf("lines %d–%d", start+1, end)
}

// snippet is a line trimmed of its indentation and line break, cut to
// snippetRunes.
func snippet(line string) string {
	s := strings.TrimSpace(line)
	if utf8.RuneCountInString(s) <= snippetRunes {
		return s
	}
	r := []rune(s)
	return string(r[:snippetRunes-1]) + "…"
}
