package transcript

import "strings"

// growingText is text that arrives in pieces (reasoning) and is shown
// wrapped. Lines that are complete are wrapped once per width; only the
// last, unfinished line is wrapped again as it grows.
type growingText struct {
	b     strings.Builder
	gen   int
	done  int      // b.String()[:done] is wrapped into lines
	lines []string // wrapped complete lines
}

func (g *growingText) String() string { return g.b.String() }

func (g *growingText) append(s string) { g.b.WriteString(s) }

// wrapped returns the text wrapped at width for render generation gen.
func (g *growingText) wrapped(gen, width int) []string {
	if g.gen != gen {
		g.gen, g.done, g.lines = gen, 0, g.lines[:0]
	}
	all := g.b.String()
	if last := strings.LastIndexByte(all, '\n'); last+1 > g.done {
		for _, line := range strings.Split(sanitize(all[g.done:last]), "\n") {
			g.lines = appendWrapped(g.lines, line, width)
		}
		g.done = last + 1
	}
	rest := all[g.done:]
	if rest == "" {
		return g.lines
	}
	out := make([]string, len(g.lines), len(g.lines)+2)
	copy(out, g.lines)
	return appendWrapped(out, sanitize(rest), width)
}
