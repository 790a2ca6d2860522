package diffview

import (
	"sort"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// hunk is one run of changed lines: lines [oldStart, oldEnd) of the old
// version are replaced by lines [newStart, newEnd) of the new one. Hunks are
// computed without context, so two of them are always separated by at least
// one unchanged line and apply independently of each other.
type hunk struct {
	edit             udiff.Edit // the same change in bytes of the old version
	oldStart, oldEnd int
	newStart, newEnd int
}

func (h hunk) added() int   { return h.newEnd - h.newStart }
func (h hunk) removed() int { return h.oldEnd - h.oldStart }

// splitLines cuts s after every "\n"; a last line without one is kept. It
// returns the lines and the byte offset where each starts, plus len(s).
func splitLines(s string) (lines []string, starts []int) {
	starts = append(starts, 0)
	for i := 0; i < len(s); {
		nl := strings.IndexByte(s[i:], '\n')
		end := len(s)
		if nl >= 0 {
			end = i + nl + 1
		}
		lines = append(lines, s[i:end])
		starts = append(starts, end)
		i = end
	}
	return lines, starts
}

// diffHunks computes the hunks that turn before into after with the line
// diff of go-udiff. oldStarts are the line offsets of before, from
// splitLines.
func diffHunks(before, after string, oldStarts []int) []hunk {
	edits := udiff.Lines(before, after)
	hunks := make([]hunk, 0, len(edits))
	delta := 0 // lines added minus lines removed by the hunks so far
	for _, e := range edits {
		added := strings.Count(e.New, "\n")
		if e.New != "" && !strings.HasSuffix(e.New, "\n") {
			added++ // the last line of after, without a line break
		}
		start := lineAt(oldStarts, e.Start)
		end := lineAt(oldStarts, e.End)
		if n := len(hunks); n > 0 && hunks[n-1].oldEnd == start {
			// Regions that touch are one change; keep them one hunk so
			// that every hunk is separated from the next by a kept line.
			prev := &hunks[n-1]
			prev.edit.End = e.End
			prev.edit.New += e.New
			prev.oldEnd = end
			prev.newEnd += added
			delta += added - (end - start)
			continue
		}
		hunks = append(hunks, hunk{
			edit:     e,
			oldStart: start,
			oldEnd:   end,
			newStart: start + delta,
			newEnd:   start + delta + added,
		})
		delta += added - (end - start)
	}
	return hunks
}

// lineAt is the index of the line that starts at byte offset off; an offset
// at the end of the text is one past the last line.
func lineAt(starts []int, off int) int {
	return sort.SearchInts(starts, off)
}
