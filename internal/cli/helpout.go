package cli

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// trimLineEnds passes what is written on to w without the spaces at the
// end of each line, and, with a width, with each line wrapped to it. The
// help the command library draws pads every line to the terminal's width;
// in a pipe or a file those spaces are only noise. Nor does it wrap its
// lists of commands and flags, whose descriptions would run past an 80
// column page: wrapHanging continues them under their description.
type trimLineEnds struct {
	w     io.Writer
	width int    // the width lines are wrapped to; 0 leaves them whole
	line  []byte // the line written so far, passed on at its end
}

func (t *trimLineEnds) Write(p []byte) (int, error) {
	n := len(p)
	var out []byte
	for {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.line = append(t.line, p...)
			break
		}
		t.line = append(t.line, p[:i]...)
		out = append(append(out, t.take()...), '\n')
		p = p[i+1:]
	}
	if len(out) > 0 {
		if _, err := t.w.Write(out); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// Flush passes on the last line when it has no line break to end it.
func (t *trimLineEnds) Flush() error {
	if len(t.line) == 0 {
		return nil
	}
	_, err := t.w.Write(t.take())
	return err
}

// take returns the line held, trimmed and wrapped, and empties the hold.
func (t *trimLineEnds) take() []byte {
	line := strings.TrimRight(string(t.line), " ")
	t.line = t.line[:0]
	if t.width > 0 {
		line = wrapHanging(line, t.width)
	}
	return []byte(line)
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
// description of a "  name   description" row (the name may hold single
// spaces, as "-c --continue" does), else two spaces in from the line's
// own start.
func hangingIndent(line string) int {
	lead := len(line) - len(strings.TrimLeft(line, " "))
	rest := line[lead:]
	if i := strings.Index(rest, "  "); i > 0 {
		j := i
		for j < len(rest) && rest[j] == ' ' {
			j++
		}
		return lead + j
	}
	return lead + 2
}

// reflow wraps the prose of a command's description to width: each run of
// lines that starts at the margin (a paragraph) is joined and wrapped
// again, so an edit never leaves a ragged or overlong line behind;
// indented lines and list items ("- ", "* ") keep their own breaks and
// are wrapped with a hanging indent when too long. A line that ends in a
// colon ends its paragraph: it leads in what follows.
func reflow(text string, width int) string {
	lines := strings.Split(text, "\n")
	var out []string
	prose := func(l string) bool {
		return l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "- ") && !strings.HasPrefix(l, "* ")
	}
	for i := 0; i < len(lines); {
		if !prose(lines[i]) {
			out = append(out, wrapHanging(lines[i], width))
			i++
			continue
		}
		var para []string
		for ; i < len(lines) && prose(lines[i]); i++ {
			para = append(para, strings.TrimSpace(lines[i]))
			if strings.HasSuffix(lines[i], ":") {
				i++ // a lead-in ("Files:") ends its paragraph
				break
			}
		}
		out = append(out, wrapWords(strings.Join(para, " "), width))
	}
	return strings.Join(out, "\n")
}

// wrapWords breaks text at spaces into lines of at most width (a longer
// word stands alone), every line at the margin.
func wrapWords(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		switch {
		case n == 0:
		case n+1+utf8.RuneCountInString(w) > width:
			b.WriteString("\n")
			n = 0
		default:
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += utf8.RuneCountInString(w)
	}
	return b.String()
}

// reflowHelp reflows the description of cmd and of every command under
// it (see reflow).
func reflowHelp(cmd *cobra.Command, width int) {
	cmd.Long = reflow(cmd.Long, width)
	for _, sub := range cmd.Commands() {
		reflowHelp(sub, width)
	}
}
