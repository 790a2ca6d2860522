package transcript

import "strings"

// unclosedMarkup returns what closes the inline markup left open at the
// end of an answer cut short (code spans, strong, emphasis, strikethrough,
// a link's target), innermost first, so that the last words of an
// interrupted answer are drawn as the model meant them instead of with
// stray "**" or "`". Only the last paragraph is looked at, and nothing
// inside an open code block: that is drawn as code anyway.
func unclosedMarkup(src string) string {
	para := src
	if i := strings.LastIndex(src, "\n\n"); i >= 0 {
		para = src[i+2:]
	}
	if insideFence(src) {
		return ""
	}
	open, _, target := openMarkup(para)
	var b strings.Builder
	if target {
		b.WriteString(")")
	}
	for i := len(open) - 1; i >= 0; i-- {
		b.WriteString(open[i].marker)
	}
	return b.String()
}

// openMark is inline markup left open: its marker ("`", "**", "*", "__",
// "~~"), and where in the paragraph it opened.
type openMark struct {
	marker string
	at     int
}

// openMarkup scans para for the inline markup left open at its end: the
// markers in the order they were opened, where an unclosed link's "["
// is (-1 for none), and whether its "](" was seen (its target is being
// written, which ")" closes). Code spans hide what is in them, a
// backslash escapes one character, "[" starts a link only when "](" comes
// after it (else they are brackets), a "* " at the start of a line is a
// bullet, and a lone "_" is part of a name (snake_case). unclosedMarkup
// closes what it finds; settledEnd holds back the text from the first.
func openMarkup(para string) (open []openMark, link int, target bool) {
	toggle := func(m string, at int) {
		if n := len(open); n > 0 && open[n-1].marker == m {
			open = open[:n-1]
			return
		}
		open = append(open, openMark{m, at})
	}
	// target is kept as a flag: looking for "](" again at every byte after
	// an unclosed "[" made each render of the growing end quadratic in its
	// paragraph.
	inCode := false
	link = -1
	for i := 0; i < len(para); i++ {
		c := para[i]
		switch {
		case c == '\\' && !inCode:
			i++ // an escaped character opens nothing
		case c == '`':
			inCode = !inCode
			toggle("`", i)
		case inCode:
		case c == '[' && link < 0:
			link = i
		case c == ']' && link >= 0 && (i+1 >= len(para) || para[i+1] != '('):
			link, target = -1, false // brackets, not a link
		case c == ']' && link >= 0:
			target = true
			i++
		case c == ')' && target:
			link, target = -1, false
		case target:
		case c == '*' || c == '~' || c == '_':
			if i+1 < len(para) && para[i+1] == c {
				toggle(string([]byte{c, c}), i)
				i++
				continue
			}
			if c == '*' && atLineStart(para, i) && i+1 < len(para) && para[i+1] == ' ' {
				continue // a list bullet
			}
			if c == '*' {
				toggle("*", i)
			}
		}
	}
	return open, link, target
}

// atLineStart reports whether only spaces come before s[i] on its line.
func atLineStart(s string, i int) bool {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	return strings.TrimSpace(s[start:i]) == ""
}

// insideFence reports whether src ends inside a fenced code block.
func insideFence(src string) bool {
	marker := ""
	for line := range strings.Lines(src) {
		line = strings.TrimRight(line, "\n")
		switch {
		case marker == "":
			marker = fenceOpen(line)
		case isFenceClose(line, marker):
			marker = ""
		}
	}
	return marker != ""
}
