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
	var open []string // markers in the order they were opened
	toggle := func(m string) {
		if n := len(open); n > 0 && open[n-1] == m {
			open = open[:n-1]
			return
		}
		open = append(open, m)
	}
	inCode, inTarget := false, false
	for i := 0; i < len(para); i++ {
		c := para[i]
		switch {
		case c == '\\' && !inCode:
			i++ // an escaped character opens nothing
		case c == '`':
			inCode = !inCode
			toggle("`")
		case inCode:
		case c == ']' && i+1 < len(para) && para[i+1] == '(':
			inTarget = true
			i++
		case c == ')' && inTarget:
			inTarget = false
		case inTarget:
		case c == '*' || c == '~' || c == '_':
			if i+1 < len(para) && para[i+1] == c {
				toggle(string([]byte{c, c}))
				i++
				continue
			}
			if c == '*' && atLineStart(para, i) && i+1 < len(para) && para[i+1] == ' ' {
				continue // a list bullet
			}
			if c == '*' {
				toggle("*")
			}
		}
	}
	var b strings.Builder
	if inTarget {
		b.WriteString(")")
	}
	for i := len(open) - 1; i >= 0; i-- {
		b.WriteString(open[i])
	}
	return b.String()
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
