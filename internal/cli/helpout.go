package cli

import (
	"bytes"
	"io"
	"strings"
)

// trimLineEnds passes what is written on to w without the spaces at the
// end of each line. The help the command library draws pads every line to
// the terminal's width; in a pipe or a file those spaces are only noise.
type trimLineEnds struct {
	w      io.Writer
	spaces int // spaces held back: they end the line, or come before more text
}

func (t *trimLineEnds) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p))
	for _, b := range p {
		switch b {
		case ' ':
			t.spaces++
			continue
		case '\n':
		default:
			out = append(out, bytes.Repeat([]byte{' '}, t.spaces)...)
		}
		t.spaces = 0
		out = append(out, b)
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// wrapHanging wraps each line of text to width at spaces, keeping its
// own spacing. A row of a list ("  name       description") continues
// under its description, any other line two spaces in; so the rows stay
// readable where nothing else wraps them, and the help's own wrapping,
// which breaks words, never has to.
func wrapHanging(text string, width int) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		nl := strings.HasSuffix(line, "\n")
		line = strings.TrimSuffix(line, "\n")
		indent := hangingIndent(line)
		for first := true; ; first = false {
			if !first {
				line = strings.Repeat(" ", indent) + strings.TrimLeft(line, " ")
			}
			cut := -1
			if len(line) > width {
				cut = strings.LastIndex(line[:width+1], " ")
				if cut <= indent {
					cut = -1 // one word longer than the room: left whole
					if i := strings.Index(line[indent+1:], " "); i >= 0 {
						cut = indent + 1 + i
					}
				}
			}
			if cut < 0 {
				b.WriteString(line)
				break
			}
			b.WriteString(strings.TrimRight(line[:cut], " ") + "\n")
			line = line[cut:]
		}
		if nl {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// hangingIndent is where the continued lines of line start: under the
// description of a "  name   description" row, else two spaces in from
// the line's own start.
func hangingIndent(line string) int {
	lead := len(line) - len(strings.TrimLeft(line, " "))
	rest := line[lead:]
	if i := strings.Index(rest, "  "); i > 0 && !strings.Contains(rest[:i], " ") {
		j := i
		for j < len(rest) && rest[j] == ' ' {
			j++
		}
		return lead + j
	}
	return lead + 2
}
