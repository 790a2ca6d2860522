package safetext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Look-alikes are characters drawn like others they are not: a Cyrillic or
// Greek letter like a Latin one, full-width ASCII, a no-break space. The
// terminal draws them faithfully, so sanitising does not change them; where
// the difference matters (a line of an edit that looks unchanged, the name
// of a program about to run, an identifier in new code) the views below
// show them by code point. This is the one place that knows them.

// LookalikeKey is drawn text as a reader sees it: every space character
// a space, a letter of another script that is drawn like a Latin one that
// letter, full-width ASCII as ASCII, trailing spaces gone. Two lines with
// one key look the same.
func LookalikeKey(drawn string) string {
	var b strings.Builder
	for _, r := range drawn {
		r, _ = LooksLikeASCII(r)
		b.WriteRune(r)
	}
	return strings.TrimRight(b.String(), " ")
}

// LatinLookalike is the Latin letter that a Cyrillic or Greek letter r
// is drawn like in common terminal fonts.
func LatinLookalike(r rune) (rune, bool) {
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

// Reveal draws line with every character that is not printable ASCII
// shown by its code point, tabs as ␉ and trailing spaces as ␠.
func Reveal(line string) string {
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

// LooksLikeASCII is the printable ASCII character r is drawn like, when r
// is not ASCII: a Cyrillic or Greek letter drawn like a Latin one, a
// full-width form, a space other than U+0020.
func LooksLikeASCII(r rune) (rune, bool) {
	switch {
	case r < utf8.RuneSelf:
		return r, false
	case r >= 0xFF01 && r <= 0xFF5E:
		return r - 0xFEE0, true
	case unicode.Is(unicode.Zs, r):
		return ' ', true
	}
	return LatinLookalike(r)
}

// Disguise is a word drawn like ASCII text it is not.
type Disguise struct {
	Word      string // as written
	LooksLike string // what it is drawn like
	Revealed  string // with what is not ASCII shown by code point
}

// Note says what d is, in one line of plain text: “gіt” is not “git”: it
// is g⟨U+0456⟩t.
func (d Disguise) Note() string {
	return "“" + LineOf(d.Word) + "” is not “" + LineOf(d.LooksLike) + "”: it is " + d.Revealed
}

// Disguised returns the words of s (split at white space and shell
// punctuation) that hold a character drawn like an ASCII one it is not, so
// a view can say that "gіt" (with a Cyrillic і) is not git. A word that is
// wholly of another script and holds no such letter (ordinary Russian or
// Greek text) is not a disguise unless it reads as ASCII throughout.
func Disguised(s string) []Disguise {
	var out []Disguise
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || strings.ContainsRune(";|&()<>'\"`=,", r)
	}) {
		if seen[w] {
			continue
		}
		looks, disguised, foreign := []rune{}, false, false
		for _, r := range w {
			a, ok := LooksLikeASCII(r)
			switch {
			case ok:
				disguised = true
			case r >= utf8.RuneSelf:
				foreign = true
			}
			looks = append(looks, a)
		}
		if !disguised || (foreign && !MixesScripts(w)) {
			continue
		}
		seen[w] = true
		out = append(out, Disguise{Word: w, LooksLike: string(looks), Revealed: Reveal(w)})
	}
	return out
}

// MixesScripts reports an identifier that mixes Latin letters with a
// letter of another script drawn like a Latin one (Cyrillic, Greek,
// full-width forms): "pаypal" with a Cyrillic а. Words wholly in one
// script, as in ordinary Russian or Greek text, do not mix, nor do Latin
// letters beside a Greek one that looks like no Latin letter (Δt, αx), as
// scientific code writes them.
func MixesScripts(word string) bool {
	latin, other := false, false
	for _, r := range word {
		switch {
		case r < utf8.RuneSelf:
			latin = latin || unicode.IsLetter(r)
		case r >= 0xFF01 && r <= 0xFF5E:
			other = true
		case unicode.In(r, unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Cherokee):
			if _, ok := LatinLookalike(r); ok {
				other = true
			}
		case unicode.IsLetter(r) && unicode.In(r, unicode.Latin):
			latin = true
		}
	}
	return latin && other
}

// MixedIdentifiers returns the words of line (runs of letters, digits and
// underscores) that mix scripts (see MixesScripts).
func MixedIdentifiers(line string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(line, func(r rune) bool {
		return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r))
	}) {
		if MixesScripts(w) {
			out = append(out, w)
		}
	}
	return out
}
