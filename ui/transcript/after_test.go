package transcript

import (
	"slices"
	"strings"
	"testing"

	"charm.land/glamour/v2"

	"pincer/themes"
)

// TestRenderAfterMatchesTheLead holds renderAfter to what it replaces: for
// every kind of block, in every built-in theme and at several widths, its
// lines must be exactly those of the block rendered behind chunkLead, as a
// whole chunk and block by block.
func TestRenderAfterMatchesTheLead(t *testing.T) {
	blocks := sampleBlocks()
	for _, th := range themes.Builtin() {
		g := newGlamourRenderer(th)
		for _, width := range []int{20, 57, 120} {
			for _, src := range blocks {
				want := g.Render(chunkLead+src, width)
				if got := renderAfter(g, src, width); !slices.Equal(got, want) {
					t.Errorf("%s at %d: %q\n got %q\nwant %q", th.Name, width, src, got, want)
				}
			}
		}
	}
}

// TestRendererMatchesGlamour holds the converter pincer builds (to reuse
// its buffers) to glamour's own: the same text, behind the lead or not, in
// every built-in theme and at several widths, gives the same output.
func TestRendererMatchesGlamour(t *testing.T) {
	blocks := sampleBlocks()
	for _, th := range themes.Builtin() {
		g := newGlamourRenderer(th)
		for _, width := range []int{20, 57, 120} {
			r, err := glamour.NewTermRenderer(
				glamour.WithStyles(th.Glamour()),
				glamour.WithWordWrap(width),
				glamour.WithChromaFormatter("terminal16m"),
			)
			if err != nil {
				t.Fatal(err)
			}
			for _, src := range blocks {
				for _, in := range []string{src, chunkLead + src} {
					out, err := r.Render(labelFences(sanitize(in)))
					if err != nil {
						t.Fatal(err)
					}
					if got, want := g.Render(in, width), tidyRendered(out, width); !slices.Equal(got, want) {
						t.Errorf("%s at %d: %q\n got %q\nwant %q", th.Name, width, in, got, want)
					}
				}
			}
		}
	}
}

// sampleBlocks are markdown blocks of every kind, alone and as the
// transcript cuts a whole answer.
func sampleBlocks() []string {
	blocks := []string{
		"A plain paragraph with **bold**, *emphasis*, `code` and ~~strike~~.\n",
		"A paragraph long enough to wrap over several lines at the narrower widths, with a [link](https://example.com/a/long/path) in it.\n",
		"Line one  \nline two after a hard break\n",
		"# Heading one\n",
		"## Heading two\nfollowed by text\n",
		"### Three\n\n#### Four\n\n##### Five\n\n###### Six\n",
		"Setext heading\n===\n",
		"Setext two\n---\n",
		"#\n",
		"- one\n- two\n  - nested\n",
		"1. first\n2. second\n",
		"- [ ] task\n- [x] done\n",
		"```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```\n",
		"```\nunlabelled\n```\n",
		"~~~python\nprint(1)\n~~~\n",
		"    indented code\n",
		"> a quote\n> over two lines\n",
		"> # quoted heading\n>\n> - and a list\n",
		"| a | b |\n|---|:-:|\n| 1 | 2 |\n| long cell text | x |\n",
		"---\n",
		"***\n",
		"[ref]: https://example.com\n\nuses [ref]\n",
		"[ref]: https://example.com\n",
		"![an image](https://example.com/i.png)\n",
		"<https://example.com/auto>\n",
		"https://example.com/bare\n",
		"Text with <b>inline</b> HTML and a <br> break.\n",
		"<span></span>\n",
		"<div>\nblock html\n</div>\n",
		"<!-- a comment -->\n",
		"a < b and c > d\n",
		"&amp; &lt; entities &copy;\n",
		"Term\n: definition\n",
		"Footnote[^1].\n\n[^1]: the note\n",
		"\\# not a heading\n",
		"*\n",
		"`\n",
		"text ending in two spaces  \n",
		"\n\nafter blank lines\n",
		"",
		"\n",
	}
	blocks = append(blocks, sampleAnswer)
	return append(blocks, boundariesOf(sampleAnswer)...)
}

// boundariesOf cuts src into the blocks the transcript renders apart.
func boundariesOf(src string) []string {
	var out []string
	start := 0
	for _, end := range append(boundaries(src), len(src)) {
		if end > start && strings.TrimSpace(src[start:end]) != "" {
			out = append(out, src[start:end])
		}
		start = max(start, end)
	}
	return out
}

// TestStreamedAnswerSkipsTheSanitiser streams an answer without HTML and
// checks that no render carried chunkLead: the lead makes glamour run its
// HTML sanitiser, which cost an eighth of the bytes streaming allocated.
func TestStreamedAnswerSkipsTheSanitiser(t *testing.T) {
	answer := strings.ReplaceAll(longAnswer(6000), "<", "(")
	m := newTestModel(100, 40)
	counts := countRenders(&m)
	m.AddUser("question")
	for i := 0; i < len(answer); i += 40 {
		m.AppendText(answer[i:min(i+40, len(answer))])
		m.View()
	}
	m.FinishAssistant(false)
	m.View()
	m.SetSize(70, 40)
	m.View()
	if counts.calls == 0 {
		t.Fatal("nothing was rendered")
	}
	for src := range counts.bySrc {
		if strings.Contains(src, chunkLead) {
			t.Errorf("rendered behind the lead: %q", src)
		}
	}
}
