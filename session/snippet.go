package session

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Snippet shape: about snippetRunes characters, starting up to snippetLead
// characters before the first match it shows, and allowed to run on by up
// to snippetWordEnd characters to finish a word.
const (
	snippetRunes   = 200
	snippetLead    = 60
	snippetWordEnd = 20
	snippetMark    = "**"
	snippetGap     = "…"
)

// match is a stretch of text whose terms the query asked for.
type match struct {
	start, end int // bytes
	runeStart  int
	terms      []string
}

// snippet returns about snippetRunes characters of text, on one line,
// around the stretch where the query's terms are densest — counting each
// distinct term once, weighted by its idf — with the matching words marked
// with snippetMark.
func snippet(text string, idf map[string]float64) string {
	matches := findMatches(text, idf)
	if len(matches) == 0 {
		return render(text, 0, nil)
	}
	best, bestWeight := 0, -1.0
	for i := range matches {
		var seen []string
		weight := 0.0
		for j := i; j < len(matches) && matches[j].runeStart-matches[i].runeStart < snippetRunes-snippetLead; j++ {
			for _, t := range matches[j].terms {
				if !slices.Contains(seen, t) {
					seen = append(seen, t)
					weight += idf[t]
				}
			}
		}
		if weight > bestWeight {
			best, bestWeight = i, weight
		}
	}
	total := utf8.RuneCountInString(text)
	startRune := max(0, min(matches[best].runeStart-snippetLead, total-snippetRunes))
	start := wordStart(text, byteOffset(text, startRune), matches[best].start)
	return render(text, start, matches)
}

// findMatches lists the stretches of text that hold a term of idf, merging
// ones that overlap (CJK bigrams do).
func findMatches(text string, idf map[string]float64) []match {
	var out []match
	runes, last := 0, 0
	scanUnits(text, func(start, end int, terms []string) {
		var hit []string
		for _, t := range terms {
			if _, ok := idf[t]; ok {
				hit = append(hit, t)
			}
		}
		if len(hit) == 0 {
			return
		}
		runes += utf8.RuneCountInString(text[last:start])
		last = start
		if n := len(out); n > 0 && start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, end)
			for _, t := range hit {
				if !slices.Contains(out[n-1].terms, t) {
					out[n-1].terms = append(out[n-1].terms, t)
				}
			}
			return
		}
		out = append(out, match{start: start, end: end, runeStart: runes, terms: hit})
	})
	return out
}

// render writes text from byte start for about snippetRunes characters,
// with runs of white space made one space and matches marked.
func render(text string, start int, matches []match) string {
	var b strings.Builder
	if start > 0 {
		b.WriteString(snippetGap)
	}
	next := 0
	for next < len(matches) && matches[next].start < start {
		next++
	}
	visible, space := 0, true
	i := start
	for i < len(text) {
		if next < len(matches) && i == matches[next].start {
			m := matches[next]
			b.WriteString(snippetMark)
			b.WriteString(text[m.start:m.end])
			b.WriteString(snippetMark)
			visible += utf8.RuneCountInString(text[m.start:m.end])
			i, space = m.end, false
			next++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		isSpace := unicode.IsSpace(r)
		if visible >= snippetRunes && (isSpace || visible >= snippetRunes+snippetWordEnd) {
			break
		}
		switch {
		case isSpace && !space:
			b.WriteByte(' ')
			visible++
		case !isSpace:
			b.WriteRune(r)
			visible++
		}
		space = isSpace
		i += size
	}
	out := strings.TrimRight(b.String(), " ")
	if i < len(text) && strings.TrimSpace(text[i:]) != "" {
		out += snippetGap
	}
	return out
}

// wordStart moves a snippet's start forward to the beginning of a word, but
// never past limit.
func wordStart(text string, start, limit int) int {
	if start == 0 {
		return 0
	}
	if r, _ := utf8.DecodeLastRuneInString(text[:start]); unicode.IsSpace(r) {
		return start
	}
	for i := start; i < limit; {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if unicode.IsSpace(r) {
			return i
		}
	}
	return start
}

// byteOffset returns the byte offset of the n-th rune of text.
func byteOffset(text string, n int) int {
	for i := range text {
		if n == 0 {
			return i
		}
		n--
	}
	return len(text)
}
