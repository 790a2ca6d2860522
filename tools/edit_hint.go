package tools

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"pincer/internal/human"
)

// Bounds of the not-found hint.
const (
	hintMinSimilarity = 0.5 // below this, lines are not called similar
	hintCandidates    = 50  // anchor positions scored in full
	hintMaxLines      = 30  // most lines quoted back
	// maxHintFile is the largest file looked through for text like
	// old_text: the search holds several copies of the file.
	maxHintFile = 16 << 20
)

// notFoundHint explains to the model why old_text was not found in file and
// what the file has instead: a region that matches when whitespace is
// ignored (and what kind of whitespace differs), or the most similar lines.
func notFoundHint(ctx context.Context, file []byte, oldText, rel string) string {
	msg := fmt.Sprintf("old_text was not found in %s", rel)
	if len(file) > maxHintFile {
		// The search for similar text holds several copies of the file
		// (a 300 MB file took 2 GB): a file this large gets no hint.
		return fmt.Sprintf("%s, which is too large (%s) to look for similar text; read the part you mean with read_file (offset and limit) and copy old_text from it exactly", msg, human.Bytes(int64(len(file))))
	}
	fileLines := trimCR(splitLines(file))
	oldLines := trimBlankEdges(trimCR(splitLines([]byte(oldText))))
	if len(oldLines) == 0 {
		return msg + "; old_text holds only whitespace, so put the exact text to replace in it"
	}
	if start, ok := findIgnoringSpace(fileLines, oldLines); ok {
		end := start + len(oldLines)
		verb := "match"
		if len(oldLines) == 1 {
			verb = "matches"
		}
		return fmt.Sprintf("%s exactly, but %s %s it when whitespace is ignored: %s. "+
			"Copy the exact text from the file (the line numbers and the tab after them are not part of the file):\n%s",
			msg, lineRange(start+1, len(oldLines)), verb, spaceDifference(fileLines[start:end], oldLines, start+1), quoteLines(fileLines, start, end))
	}
	start, score := closestWindow(ctx, fileLines, oldLines)
	if score < hintMinSimilarity {
		return msg + " and nothing in the file is similar to it. The file may have changed: read it again with read_file and copy the text exactly."
	}
	end := min(len(fileLines), start+len(oldLines))
	var b strings.Builder
	fmt.Fprintf(&b, "%s. The most similar text is at %s (%d%% similar)", msg, lineRange(start+1, end-start), int(score*100))
	if d := firstDifference(fileLines[start:end], oldLines); d >= 0 {
		fmt.Fprintf(&b, "; the first line that differs is line %d, where the file has %s but old_text has %s",
			start+d+1, shortJSON(strings.TrimSpace(fileLines[start+d])), shortJSON(strings.TrimSpace(oldLines[d])))
	}
	fmt.Fprintf(&b, ". Read the lines below (the line numbers and the tab after them are not part of the file) and copy old_text exactly:\n%s",
		quoteLines(fileLines, max(0, start-1), min(len(fileLines), end+1)))
	return b.String()
}

// trimCR drops the "\r" of CRLF line endings.
func trimCR(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSuffix(l, "\r")
	}
	return out
}

// trimBlankEdges drops blank lines at the start and end.
func trimBlankEdges(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// squash collapses every run of whitespace to one space and trims the ends.
func squash(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// findIgnoringSpace finds old in file comparing lines with whitespace
// squashed. The first and last lines of old may be the end and the start of
// a file line, since old_text need not begin or end at a line break; a
// one-line old may be any part of a line, even one with spaces removed.
func findIgnoringSpace(file, old []string) (int, bool) {
	sq := make([]string, len(old))
	for i, l := range old {
		sq[i] = squash(l)
	}
	sqFile := make([]string, len(file))
	for i, l := range file {
		sqFile[i] = squash(l)
	}
	if len(old) == 1 {
		bare := strings.ReplaceAll(sq[0], " ", "")
		for i, f := range sqFile {
			if strings.Contains(f, sq[0]) || strings.Contains(strings.ReplaceAll(f, " ", ""), bare) {
				return i, true
			}
		}
		return 0, false
	}
	last := len(old) - 1
	for s := 0; s+len(old) <= len(file); s++ {
		if !strings.HasSuffix(sqFile[s], sq[0]) || !strings.HasPrefix(sqFile[s+last], sq[last]) {
			continue
		}
		if slices.Equal(sqFile[s+1:s+last], sq[1:last]) {
			return s, true
		}
	}
	return 0, false
}

// spaceDifference says what kind of whitespace differs between the file's
// lines and old's.
// firstLine is the 1-based number of file[0].
func spaceDifference(file, old []string, firstLine int) string {
	var trailing, inner bool
	indent := ""
	noteIndent := func(i int, f, o string) {
		if indent == "" {
			indent = fmt.Sprintf("the indentation differs: line %d starts with %s in the file but with %s in old_text",
				firstLine+i, describeSpace(leadingSpace(f)), describeSpace(leadingSpace(o)))
		}
	}
	for i := range old {
		f, o := file[i], old[i]
		switch {
		case f == o || strings.Contains(f, o):
		case strings.TrimSpace(f) == strings.TrimSpace(o):
			if leadingSpace(f) != leadingSpace(o) {
				noteIndent(i, f, o)
			}
			trailing = trailing || trailingSpace(f) != trailingSpace(o)
		case leadingSpace(o) != "" && strings.Contains(f, strings.TrimLeft(o, " \t")):
			noteIndent(i, f, o)
		case strings.Contains(f, strings.TrimRight(o, " \t")):
			trailing = true
		default:
			inner = true
		}
	}
	var parts []string
	if indent != "" {
		parts = append(parts, indent)
	}
	if trailing {
		parts = append(parts, "trailing whitespace differs")
	}
	if inner || len(parts) == 0 {
		parts = append(parts, "whitespace inside the lines differs")
	}
	return strings.Join(parts, "; ")
}

// leadingSpace returns the indentation of s.
func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// trailingSpace returns the whitespace at the end of s.
func trailingSpace(s string) string {
	return s[len(strings.TrimRight(s, " \t")):]
}

// describeSpace words a run of indentation: "2 tabs", "8 spaces",
// "1 tab and 4 spaces" or "no indentation".
func describeSpace(ws string) string {
	tabs, spaces := strings.Count(ws, "\t"), strings.Count(ws, " ")
	switch {
	case tabs == 0 && spaces == 0:
		return "no indentation"
	case tabs == 0:
		return human.Plural(spaces, "space")
	case spaces == 0:
		return human.Plural(tabs, "tab")
	}
	return human.Plural(tabs, "tab") + " and " + human.Plural(spaces, "space")
}

// closestWindow finds where in file the lines most like old start, and how
// alike they are (0 to 1). It scores every file line against old's longest
// line, then scores whole windows at the best few anchor positions, so the
// cost stays near linear in the file's size.
func closestWindow(ctx context.Context, file, old []string) (int, float64) {
	if len(file) == 0 {
		return 0, 0
	}
	anchor := 0
	for i, l := range old {
		if len(strings.TrimSpace(l)) > len(strings.TrimSpace(old[anchor])) {
			anchor = i
		}
	}
	oldGrams := make([][]uint32, len(old))
	for i, l := range old {
		oldGrams[i] = bigrams(l)
	}
	fileGrams := make([][]uint32, len(file))
	for i, l := range file {
		fileGrams[i] = bigrams(l)
	}
	type cand struct {
		line  int
		score float64
	}
	cands := make([]cand, 0, len(file))
	for i := range file {
		if i%1024 == 0 && ctx.Err() != nil {
			break
		}
		cands = append(cands, cand{i, dice(oldGrams[anchor], fileGrams[i])})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	best, bestScore := 0, -1.0
	for _, c := range cands[:min(len(cands), hintCandidates)] {
		start := max(0, min(c.line-anchor, len(file)-len(old)))
		total, n := 0.0, 0
		for i := range old {
			if start+i >= len(file) {
				n++
				continue
			}
			total += dice(oldGrams[i], fileGrams[start+i])
			n++
		}
		if score := total / float64(n); score > bestScore {
			best, bestScore = start, score
		}
	}
	return best, bestScore
}

// firstDifference returns the index of the first line where file and old
// differ (ignoring surrounding whitespace), or -1.
func firstDifference(file, old []string) int {
	for i := range old {
		if i >= len(file) || strings.TrimSpace(file[i]) != strings.TrimSpace(old[i]) {
			return i
		}
	}
	return -1
}

// quoteLines shows lines[from:to] numbered, as read_file does.
func quoteLines(lines []string, from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		if i-from == hintMaxLines {
			fmt.Fprintf(&b, "… %d more lines\n", to-i)
			break
		}
		b.WriteString(numberedLine(i+1, lines[i]))
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// bigrams returns the sorted byte pairs of s with its surrounding whitespace
// removed: the basis of a cheap similarity measure.
func bigrams(s string) []uint32 {
	s = squash(s)
	if len(s) < 2 {
		if s == "" {
			return nil
		}
		return []uint32{uint32(s[0])}
	}
	out := make([]uint32, len(s)-1)
	for i := 0; i+1 < len(s); i++ {
		out[i] = uint32(s[i])<<8 | uint32(s[i+1])
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// dice is the Sørensen–Dice coefficient of two sorted bigram multisets.
func dice(a, b []uint32) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	common := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}
