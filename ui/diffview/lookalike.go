package diffview

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
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
			k := lookalikeKey(d.old.text[i][:d.old.body[i]])
			removed[k] = append(removed[k], i)
		}
		for j := h.newStart; j < h.newEnd; j++ {
			olds := removed[lookalikeKey(d.new.text[j][:d.new.body[j]])]
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

// lookalikeKey is drawn text as a reader sees it: every space character
// a space, a letter of another script that is drawn like a Latin one that
// letter, full-width ASCII as ASCII, trailing spaces gone. Two lines with
// one key look the same.
func lookalikeKey(drawn string) string {
	var b strings.Builder
	for _, r := range drawn {
		switch {
		case unicode.Is(unicode.Zs, r):
			r = ' '
		case r >= 0xFF01 && r <= 0xFF5E:
			r -= 0xFEE0
		default:
			r, _ = latinLookalike(r)
		}
		b.WriteRune(r)
	}
	return strings.TrimRight(b.String(), " ")
}

// latinLookalike is the Latin letter that a Cyrillic or Greek letter r
// is drawn like in common terminal fonts.
func latinLookalike(r rune) (rune, bool) {
	switch r {
	case 'А', 'Α':
		return 'A', true
	case 'В', 'Β':
		return 'B', true
	case 'С':
		return 'C', true
	case 'Е', 'Ε':
		return 'E', true
	case 'Н', 'Η':
		return 'H', true
	case 'І', 'Ι':
		return 'I', true
	case 'Ј':
		return 'J', true
	case 'К', 'Κ':
		return 'K', true
	case 'М', 'Μ':
		return 'M', true
	case 'Ν':
		return 'N', true
	case 'О', 'Ο':
		return 'O', true
	case 'Р', 'Ρ':
		return 'P', true
	case 'Ѕ':
		return 'S', true
	case 'Т', 'Τ':
		return 'T', true
	case 'Х', 'Χ':
		return 'X', true
	case 'Υ':
		return 'Y', true
	case 'Ζ':
		return 'Z', true
	case 'а':
		return 'a', true
	case 'с':
		return 'c', true
	case 'ԁ':
		return 'd', true
	case 'е':
		return 'e', true
	case 'һ':
		return 'h', true
	case 'і':
		return 'i', true
	case 'ј':
		return 'j', true
	case 'о', 'ο':
		return 'o', true
	case 'р':
		return 'p', true
	case 'ԛ':
		return 'q', true
	case 'ѕ':
		return 's', true
	case 'ν':
		return 'v', true
	case 'ԝ':
		return 'w', true
	case 'х':
		return 'x', true
	case 'у':
		return 'y', true
	}
	return r, false
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
	text := revealText(lineContent(s.lines[i]))
	s.body[i] = len(text)
	s.text[i] = text + s.endingMark(s.lines[i])
	s.width[i] = displaywidth.String(s.text[i])
}

// revealText draws line with every character that is not printable ASCII
// shown by its code point, tabs as ␉ and trailing spaces as ␠.
func revealText(line string) string {
	body := strings.TrimRight(line, " ")
	var b strings.Builder
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\t':
			b.WriteString("␉")
			i++
			continue
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(body[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, "⟨0x%02X⟩", c)
		} else if r < 0x20 {
			b.WriteRune(0x2400 + r)
		} else if r == 0x7f {
			b.WriteString("␡")
		} else {
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		}
		i += size
	}
	b.WriteString(strings.Repeat("␠", len(line)-len(body)))
	return b.String()
}

// lookalikeNote is the file note for n revealed lines.
func lookalikeNote(n int) string {
	if n == 1 {
		return "1 line looks unchanged but is not"
	}
	return fmt.Sprintf("%d lines look unchanged but are not", n)
}
