package transcript

import (
	"bufio"
	"bytes"
	"strings"

	glamouransi "charm.land/glamour/v2/ansi"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"pincer/themes"
)

// markdownRenderer turns markdown into the lines of the transcript. The
// model calls it for each finished block of an answer once per width and
// theme; tests count the calls through this seam.
type markdownRenderer interface {
	Render(src string, width int) []string
}

// glamourRenderer renders with glamour in the theme's markdown style. It
// keeps the markdown converter for the current width, since building one
// costs more than rendering a paragraph, and the buffers it writes into:
// glamour's own Render gives each call a fresh output buffer and a 4 KB
// write buffer, a sixth of what streaming allocated.
type glamourRenderer struct {
	style themes.Theme
	width int
	md    goldmark.Markdown
	out   bytes.Buffer
	w     *bufio.Writer // over out
}

func newGlamourRenderer(th themes.Theme) *glamourRenderer {
	return &glamourRenderer{style: th}
}

// newMarkdown builds the converter glamour.NewTermRenderer builds for
// these options (the same extensions, parser options and ANSI renderer),
// so that pincer can hand it a buffered writer of its own.
func newMarkdown(style themes.Theme, width int) goldmark.Markdown {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.DefinitionList),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
	ar := glamouransi.NewRenderer(glamouransi.Options{
		WordWrap:        width,
		Styles:          style.Glamour(),
		ChromaFormatter: "terminal16m",
	})
	md.SetRenderer(renderer.NewRenderer(renderer.WithNodeRenderers(util.Prioritized(ar, 1000))))
	return md
}

// Render returns src rendered to lines no wider than width, blank lines at
// either end included (their number depends on the blocks, and the lines of
// separately rendered chunks must join exactly as glamour would have placed
// them). If glamour fails, the source is shown wrapped as plain text: an
// answer must never disappear.
func (g *glamourRenderer) Render(src string, width int) []string {
	width = max(width, 1)
	if g.md == nil || g.width != width {
		g.md, g.width = newMarkdown(g.style, width), width
	}
	if g.w == nil {
		g.w = bufio.NewWriter(&g.out)
	}
	g.out.Reset()
	g.w.Reset(&g.out)
	if err := g.md.Convert([]byte(labelFences(sanitize(src))), g.w); err != nil {
		return wrapPlain(src, width)
	}
	_ = g.w.Flush()
	return tidyRendered(g.out.String(), width)
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
