package transcript

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// heldInline is how far back the opening of inline markup still open at the
// answer's end may be for the text after it to wait: a code span or a bold
// phrase is short, and a stray "*" (as in "a * b") must not hold back the
// rest of a paragraph.
const heldInline = 80

// settledEnd is how much of an answer's growing end can be drawn now as it
// will look when the answer is complete, so that the screen only ever adds
// to what it drew instead of drawing the same cells again in another
// colour. Text whose look the next bytes can still change waits for them:
//   - a word not yet followed by a space (it may wrap onto the next row, or
//     be a keyword or a name once complete: "fo" is plain, "for" is not),
//     unless it is long (see wordStart);
//   - the unfinished line of an open code block (its last token, or a
//     string not yet closed, colours differently when the line ends);
//   - a line of markers only ("- ", "## ", "1. "): a list, a heading or a
//     rule is known by what follows;
//   - inline markup still open ("`refer", "**cac"), from its opening on,
//     while that is short (heldInline).
//
// A tail that ends a line is drawn whole. A finished answer is drawn whole
// too (the tail becomes a chunk), so nothing is held back from what is
// finally shown.
func settledEnd(tail string) int {
	if tail == "" || tail[len(tail)-1] == '\n' {
		return len(tail)
	}
	lineStart := strings.LastIndexByte(tail, '\n') + 1
	if insideFence(tail[:lineStart]) {
		return lineStart
	}
	cut := wordStart(tail)
	if !strings.ContainsFunc(tail[lineStart:cut], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return lineStart
	}
	para := strings.LastIndex(tail[:cut], "\n\n") + 1
	if at := openedAt(tail[para:cut]); at >= 0 && cut-(para+at) <= heldInline {
		return para + at
	}
	return cut
}

// wordStart is where the word at the end of s begins: after the last space,
// or after the last character of a script written without spaces (Chinese,
// Japanese, Korean), where a line may break anywhere. A run longer than
// heldInline (a long path or link) is not waited for.
func wordStart(s string) int {
	for i := len(s); i > 0; {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if unicode.IsSpace(r) || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return i
		}
		if len(s)-(i-n) > heldInline {
			return len(s)
		}
		i -= n
	}
	return 0
}

// openedAt is where the first inline markup still open at the end of para
// begins (a code span, strong, emphasis, strikethrough or a link), or -1:
// what unclosedMarkup closes, scanned by the same openMarkup.
func openedAt(para string) int {
	open, first, _ := openMarkup(para)
	for _, o := range open {
		if first < 0 || o.at < first {
			first = o.at
		}
	}
	return first
}
