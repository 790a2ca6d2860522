package diffview

import (
	"fmt"

	"github.com/clipperhouse/displaywidth"

	"pincer/internal/safetext"
)

// revealLookalikes finds the changed lines of each hunk that are drawn
// exactly like a line they replace though their bytes differ: trailing
// white space, a tab for spaces, a no-break space, a letter of another
// script that looks the same. Such a pair reads as "no change" and writes
// one. Both lines of the pair are drawn again with every character that is
// not printable ASCII shown by its code point, tabs as ␉ and trailing
// spaces as ␠, so the review shows what will be written. It returns how
// many added lines were revealed.
func (d *doc) revealLookalikes() int {
	n := 0
	for _, h := range d.hunks {
		removed := map[string][]int{}
		for i := h.oldStart; i < h.oldEnd; i++ {
			k := safetext.LookalikeKey(d.old.text[i][:d.old.body[i]])
			removed[k] = append(removed[k], i)
		}
		for j := h.newStart; j < h.newEnd; j++ {
			olds := removed[safetext.LookalikeKey(d.new.text[j][:d.new.body[j]])]
			for _, i := range olds {
				// A change of line break alone is marked already.
				if lineContent(d.old.lines[i]) != lineContent(d.new.lines[j]) {
					d.old.reveal(i)
					d.new.reveal(j)
				}
			}
			if d.new.revealed != nil && d.new.revealed[j] {
				n++
			}
		}
	}
	return n
}

// reveal draws line i again with what draws alike told apart (see
// revealLookalikes); its syntax colours are dropped.
func (s *side) reveal(i int) {
	if s.revealed == nil {
		s.revealed = make([]bool, len(s.lines))
	}
	if s.revealed[i] {
		return
	}
	s.revealed[i] = true
	text := safetext.Reveal(lineContent(s.lines[i]))
	s.body[i] = len(text)
	s.text[i] = text + s.endingMark(s.lines[i])
	s.width[i] = displaywidth.String(s.text[i])
}

// revealMixedScripts reveals the added lines not revealed already that
// hold an identifier mixing Latin letters with look-alike letters of
// another script (safetext.MixedIdentifiers): a wholly new line has no old
// line to pair with, and "isАdmin" with a Cyrillic А reads as isAdmin.
// Text wholly in another script (a comment in Russian) is not flagged. It
// returns how many lines were revealed.
func (d *doc) revealMixedScripts() int {
	n := 0
	for _, h := range d.hunks {
		for j := h.newStart; j < h.newEnd; j++ {
			if d.new.revealed != nil && d.new.revealed[j] {
				continue
			}
			if len(safetext.MixedIdentifiers(lineContent(d.new.lines[j]))) > 0 {
				d.new.reveal(j)
				n++
			}
		}
	}
	return n
}

// mixedNote is the file note for n added lines with mixed-script words.
func mixedNote(n int) string {
	if n == 1 {
		return "1 added line has a word that mixes scripts (shown by code point)"
	}
	return fmt.Sprintf("%d added lines have a word that mixes scripts (shown by code point)", n)
}

// lookalikeNote is the file note for n revealed lines.
func lookalikeNote(n int) string {
	if n == 1 {
		return "1 line looks unchanged but is not"
	}
	return fmt.Sprintf("%d lines look unchanged but are not", n)
}
