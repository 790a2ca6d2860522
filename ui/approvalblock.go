package ui

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/clipperhouse/displaywidth"

	"pincer/internal/safetext"
)

// foreignBlock is foreign text an approval dialog shows whole — a command,
// a path, a task — drawn under the sanitising policy and hard-wrapped to a
// width: every character is on screen (nothing is cut), escaped parts are
// marked, and the lines are counted so a dialog can say how many there are
// and scroll through them.
type foreignBlock struct {
	rows    []string // drawn rows, each at most the width given
	lines   int      // lines of the text itself, before wrapping
	escaped bool     // something was shown in escaped form
}

// blockStyle is how a block draws its parts.
type blockStyle struct {
	text, escaped, gutter, mark lipgloss.Style
	// unnumbered leaves out the line numbers of a text of several lines:
	// for text pincer laid out itself (an MCP call's pretty-printed
	// arguments), where they only get in the way.
	unnumbered bool
}

// newForeignBlock draws text to width. prompt labels a one-line text (the
// "$ " of a command); a text of several lines gets line numbers instead.
// Every row starts with a column that holds "!" when the row shows
// something escaped, so the marker survives without colour.
func newForeignBlock(text, prompt string, width int, st blockStyle) foreignBlock {
	spans := safetext.Spans(text, safetext.Exact)
	lines := 1
	for _, sp := range spans {
		if sp.Break {
			lines++
		}
	}
	label := func(n int) string {
		if n == 0 {
			return strings.Repeat(" ", lipgloss.Width(prompt))
		}
		return prompt
	}
	if lines > 1 && !st.unnumbered {
		digits := len(strconv.Itoa(lines))
		label = func(n int) string {
			if n == 0 {
				return strings.Repeat(" ", digits+1)
			}
			return fmt.Sprintf("%*d ", digits, n)
		}
	}
	labelW := lipgloss.Width(label(1))
	textW := max(width-1-labelW, 1)

	b := foreignBlock{lines: lines}
	var row strings.Builder
	rowW, rowEscaped, line, first := 0, false, 1, true
	flush := func() {
		mark := " "
		if rowEscaped {
			mark = st.mark.Render("!")
		}
		n := 0
		if first {
			n = line
		}
		b.rows = append(b.rows, mark+st.gutter.Render(label(n))+row.String())
		row.Reset()
		rowW, rowEscaped, first = 0, false, false
	}
	// put adds s, a piece that is plain or escaped throughout, wrapping it
	// at the width; an escaped form is kept whole when it fits a row.
	put := func(s string, escaped bool) {
		style := st.text
		if escaped {
			style = st.escaped
			rowEscaped = true
			if w := utf8.RuneCountInString(s); w <= textW && rowW+w > textW {
				flush()
				rowEscaped = true
			}
		}
		start := 0
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			w := displaywidth.Rune(r)
			if rowW+w > textW && rowW > 0 {
				row.WriteString(style.Render(s[start:i]))
				flush()
				rowEscaped = escaped
				start = i
			}
			rowW += w
			i += size
		}
		if start < len(s) {
			row.WriteString(style.Render(s[start:]))
		}
	}
	for _, sp := range spans {
		switch {
		case sp.Break:
			flush()
			line++
			first = true
		default:
			b.escaped = b.escaped || sp.Escaped
			put(sp.Text, sp.Escaped)
		}
	}
	flush()
	return b
}

// facts is the line under a block that says what a glance could miss: how
// many lines the text has and whether anything in it was escaped.
func (b foreignBlock) facts() string {
	var parts []string
	if b.lines > 1 {
		parts = append(parts, fmt.Sprintf("%d lines", b.lines))
	}
	if b.escaped {
		parts = append(parts, "contains escaped characters (marked !)")
	}
	return strings.Join(parts, " · ")
}
