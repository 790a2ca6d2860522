package session

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the tokeniser. Terms longer than maxTermRunes are cut to that
// length (the same cut applies to queries, so they still match); terms of
// fewer than minTermRunes letters or digits are dropped, except CJK ones.
const (
	maxTermRunes = 40
	minTermRunes = 2
)

// scanUnits splits text into the stretches that yield search terms and calls
// fn for each, in order, with its byte span in text and its terms (never
// empty; the slice is reused between calls).
//
// A word is a run of letters, digits, combining marks and underscores, and
// may hold an apostrophe between letters ("don't", "parser's"). It yields
// its lowercased parts — split at underscores and at camelCase boundaries —
// without stop words or one-letter parts, and, when it has several parts,
// the whole identifier too, so "parseConfig" yields "parse", "config" and
// "parseconfig". A run of CJK characters, which is written without spaces,
// yields overlapping bigrams, each a unit of its own ("数据库" gives "数据"
// and "据库"); a lone CJK character yields itself.
func scanUnits(text string, fn func(start, end int, terms []string)) {
	var terms []string
	var starts []int
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isCJK(r):
			starts = starts[:0]
			j := i
			for j < len(text) {
				r, size := utf8.DecodeRuneInString(text[j:])
				if !isCJK(r) {
					break
				}
				starts = append(starts, j)
				j += size
			}
			starts = append(starts, j)
			if len(starts) == 2 {
				fn(i, j, append(terms[:0], text[i:j]))
			}
			for k := 0; k+2 < len(starts); k++ {
				fn(starts[k], starts[k+2], append(terms[:0], text[starts[k]:starts[k+2]]))
			}
			i = j
		case isWordRune(r):
			j := wordEnd(text, i)
			terms = wordTerms(text[i:j], terms[:0])
			if len(terms) > 0 {
				fn(i, j, terms)
			}
			i = j
		default:
			i += size
		}
	}
}

// analyse counts the terms of text and returns them with the number of
// terms in all, the document length BM25 normalises by.
func analyse(text string) (tf map[string]int, length int) {
	tf = map[string]int{}
	scanUnits(text, func(_, _ int, terms []string) {
		for _, t := range terms {
			tf[t]++
		}
		length += len(terms)
	})
	return tf, length
}

// queryTerms returns the distinct terms of a query, in the order they first
// appear.
func queryTerms(query string) []string {
	var out []string
	scanUnits(query, func(_, _ int, terms []string) {
		for _, t := range terms {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	})
	return out
}

// isCJK reports whether r belongs to a script written without spaces between
// words, which is indexed as bigrams. The prolonged sound marks and the
// iteration mark belong to no script but are written inside Japanese words.
func isCJK(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) ||
		r == 'ー' || r == 'ｰ' || r == '々')
}

// isWordRune reports whether r can be part of a word.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// isApostrophe reports whether r is an apostrophe that may join a word.
func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

// wordEnd returns the end of the word starting at i: word runes, and
// apostrophes that have a letter on each side.
func wordEnd(text string, i int) int {
	prev := rune(0)
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r) && !isCJK(r):
		case isApostrophe(r) && unicode.IsLetter(prev):
			next, _ := utf8.DecodeRuneInString(text[i+size:])
			if !unicode.IsLetter(next) || isCJK(next) {
				return i
			}
		default:
			return i
		}
		prev = r
		i += size
	}
	return i
}

// wordTerms appends the terms of one word to dst.
func wordTerms(word string, dst []string) []string {
	word = dropApostrophes(word)
	first := len(dst)
	parts := 0
	for part := range identifierParts(word) {
		parts++
		t := normalise(part)
		if utf8.RuneCountInString(t) < minTermRunes || isStopWord(t) || slices.Contains(dst[first:], t) {
			continue
		}
		dst = append(dst, t)
	}
	if parts > 1 {
		if whole := normalise(strings.Trim(word, "_")); !slices.Contains(dst[first:], whole) {
			dst = append(dst, whole)
		}
	}
	return dst
}

// dropApostrophes removes a possessive "'s" and joins contractions, so
// "parser's" is "parser" and "doesn't" is "doesnt".
func dropApostrophes(word string) string {
	if !strings.ContainsAny(word, "'’") {
		return word
	}
	for _, suffix := range []string{"'s", "'S", "’s", "’S"} {
		if strings.HasSuffix(word, suffix) {
			word = strings.TrimSuffix(word, suffix)
			break
		}
	}
	return strings.NewReplacer("'", "", "’", "").Replace(word)
}

// identifierParts yields the parts of an identifier: it splits at
// underscores, where a lower-case letter or digit meets an upper-case one
// ("parseConfig", "base64Encode"), and before the last capital of a run of
// capitals followed by a lower-case letter ("HTTPServer").
func identifierParts(word string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		start := 0
		var prev rune
		for i, r := range word {
			if r == '_' {
				if i > start && !yield(word[start:i]) {
					return
				}
				start, prev = i+1, 0
				continue
			}
			if i > start && unicode.IsUpper(r) {
				next, _ := utf8.DecodeRuneInString(word[i+utf8.RuneLen(r):])
				if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && unicode.IsLower(next)) {
					if !yield(word[start:i]) {
						return
					}
					start = i
				}
			}
			prev = r
		}
		if start < len(word) {
			yield(word[start:])
		}
	}
}

// normalise lowercases a term and cuts it to maxTermRunes runes.
func normalise(s string) string {
	s = strings.ToLower(s)
	if utf8.RuneCountInString(s) <= maxTermRunes {
		return s
	}
	n := 0
	for i := range s {
		if n == maxTermRunes {
			return s[:i]
		}
		n++
	}
	return s
}
