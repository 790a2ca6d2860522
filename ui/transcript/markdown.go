package transcript

import (
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/themes"
)

// markdownRenderer turns markdown into the lines of the transcript. The
// model calls it for each finished block of an answer once per width and
// theme; tests count the calls through this seam.
type markdownRenderer interface {
	Render(src string, width int) []string
}

// glamourRenderer renders with glamour in the theme's markdown style. It
// keeps the glamour renderer for the current width, since building one
// costs more than rendering a paragraph.
type glamourRenderer struct {
	style themes.Theme
	width int
	r     *glamour.TermRenderer
}

func newGlamourRenderer(th themes.Theme) *glamourRenderer {
	return &glamourRenderer{style: th}
}

// Render returns src rendered to lines no wider than width, blank lines at
// either end included (their number depends on the blocks, and the lines of
// separately rendered chunks must join exactly as glamour would have placed
// them). If glamour fails, the source is shown wrapped as plain text: an
// answer must never disappear.
func (g *glamourRenderer) Render(src string, width int) []string {
	width = max(width, 1)
	if g.r == nil || g.width != width {
		r, err := glamour.NewTermRenderer(
			glamour.WithStyles(g.style.Glamour()),
			glamour.WithWordWrap(width),
			glamour.WithChromaFormatter("terminal16m"),
		)
		if err != nil {
			return wrapPlain(src, width)
		}
		g.r, g.width = r, width
	}
	out, err := g.r.Render(labelFences(sanitize(src)))
	if err != nil {
		return wrapPlain(src, width)
	}
	return tidyRendered(out, width)
}

// tidyRendered splits glamour's output into tidy lines and folds any line
// that is still too wide (long code lines are not wrapped by glamour).
func tidyRendered(out string, width int) []string {
	raw := strings.Split(out, "\n")
	// After the last newline glamour may leave styling with no text (a
	// heading's suffix, for one). Inside a whole answer that belongs to the
	// next block's first line, so it is no line of its own.
	if last := raw[len(raw)-1]; tidyLine(last) == "" {
		raw = raw[:len(raw)-1]
	}
	lines := make([]string, 0, len(raw))
	for _, l := range raw {
		l = tidyLine(l)
		if ansi.StringWidth(l) > width {
			for _, part := range strings.Split(ansi.Hardwrap(l, width, true), "\n") {
				lines = append(lines, tidyLine(part))
			}
			continue
		}
		lines = append(lines, l)
	}
	return lines
}

// trimBlank drops empty lines at the start and end.
func trimBlank(lines []string) []string {
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// labelFences gives code fences without a language the language "text".
// Unlabelled, chroma would guess the language from the content, which is
// slow (it tries every lexer, every frame while the block streams) and
// colours shell output or logs at random. Where the block structure is
// unclear, the rest of the text is left as it is.
func labelFences(src string) string {
	if !strings.Contains(src, "```") && !strings.Contains(src, "~~~") {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 16)
	var sc blockScanner
	for pos := 0; pos < len(src); {
		line, complete, start := nextLine(src, &pos)
		switch sc.scan(line, complete) {
		case lineLost:
			b.WriteString(src[start:])
			return b.String()
		case lineFenceOpen:
			_, skip := indentation(line)
			f := fenceOpen(line[skip:])
			if strings.TrimSpace(line[skip+len(f):]) == "" {
				b.WriteString(line[:skip+len(f)])
				b.WriteString("text")
				b.WriteString(src[start+len(line) : pos])
				continue
			}
		}
		b.WriteString(src[start:pos])
	}
	return b.String()
}
