package transcript

import (
	"math/rand/v2"
	"strings"
	"testing"

	"pincer/themes"
)

// splitCorpus is markdown that exercises every kind of block boundary.
var splitCorpus = []string{
	"# Title\n\nSome paragraph with `code` and **bold** text that goes on for a while.\n\n- item one\n- item two\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\nFinal para.\n\n## Sub\n\n> quote here\n> more\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter table.\n\n1. one\n2. two\n\n---\n\nend",
	"Intro:\n\n- a\n\n- b\n\n  nested para\n\nAfter.\n\n1. x\n\n   ```sh\n   ls\n\n   pwd\n   ```\n2. y\n\nTail text with [link](http://x.y) and *emph*.\n\n> q1\n\n> q2\n\n### H3\nText right after heading.\n\n    indented code\n\n    more code\n\nend\n",
	"Here:\n\n```python\ndef f():\n    '''doc\n\n    string'''\n    return 1\n```\nRight after fence.\n\n<!-- comment\n\nstill comment -->\n\nok\n\n* * *\n\nTerm\n\n: definition\n",
	"- a\n\n  ```\n  x\n\nnot yet\n  ```\n\nAfter\n\n```\nclose\n```\n\nDone.",
	"Intro\n\n<div>\n```\n</div>\n\n```\ncode\n\nmore\n```\n\nEnd\n\n- [ ] task\n- [x] done\n\n~~struck~~ and ![img](a.png)\n",
	"Setext\n======\n\nPara\nwith two lines\n\n```\nunlabelled\n```\n\n1) paren\n2) list\n\n12abc\n\n- a\n* b\n+ c\n\nlast",
	"Para\n\n<div>\nhello\n</div>\n\nAfter\n\n<!-- note -->\n\nMore\n\n<pre>\nx\n\ny\n</pre>\n\nEnd\n\nPlain one.\n\nPlain two.",
	sampleAnswer,
	"Long block:\n\n```go\n/* a comment\nthat spans\n" + longCode(20) + "lines */\nvar s = `raw\n" + longCode(20) + "string`\n" + longCode(10) + "```\n\nAfter the block.\n\nEnd.",
}

// minChunks is how many boundaries streaming each corpus document three
// bytes at a time must find, so that the test exercises splitting (larger
// pieces find fewer: one piece may finish several blocks). Documents 3 and 4
// are made so that the scanner must give up early.
var minChunks = []int{10, 7, 2, 0, 0, 5, 2, 12, 2}

// TestStreamingMatchesWholeRender streams each document in pieces of
// several sizes and checks that the finished answer's lines equal a render
// of the whole text in one go: splitting at stable boundaries must not
// change the output.
//
// Every piece is appended, so the boundary scanner sees every cut point.
// The screen renders at most a few times a second, not after every piece,
// and a render changes the outcome only through what it caches: the tail's
// lines (reused when the tail becomes a chunk unchanged) and an open code
// block's segments. So the test renders where that can matter: around every
// cut point at which a boundary became stable (before, at and after it),
// at regular steps in between (which covers code blocks in flight), and
// just before the end. Rendering after every piece, as this test once did,
// cost over 30 s (each render of a tail with an unlabelled code block runs
// chroma's language guessing) for no case this choice misses.
func TestStreamingMatchesWholeRender(t *testing.T) {
	g := newGlamourRenderer(themes.Dark())
	rng := rand.New(rand.NewPCG(1, 2))
	for di, doc := range splitCorpus {
		for _, width := range []int{40, 100} {
			whole := trimBlank(g.Render(doc, width))
			steps := []int{3, 0} // 0: random sizes
			if len(doc) < 400 {
				steps = append(steps, 1)
			}
			for _, step := range steps {
				pieces := cutDoc(doc, step, rng)
				renderAt := renderPoints(doc, pieces)
				d := newStreamDoc("")
				streamedChunks := 0 // boundaries found
				for i, p := range pieces {
					before := d.stable
					d.append(p)
					if d.stable != before {
						streamedChunks++
					}
					if renderAt[i] {
						d.render(0, width, g)
					}
				}
				d.finish()
				got := d.render(0, width, g)
				if want := minChunks[di]; (step == 3 && streamedChunks < want) || (want > 0 && streamedChunks == 0) {
					t.Errorf("doc %d step %d: streaming found %d boundaries, want at least %d", di, step, streamedChunks, minChunks[di])
				}
				if diff := firstDiff(got, whole); diff != "" {
					t.Errorf("doc %d width %d step %d (%d chunks): %s", di, width, step, len(d.chunks), diff)
				}
			}
		}
	}
}

// cutDoc cuts doc into pieces of step bytes, or of random sizes from 1 to
// 60 when step is 0.
func cutDoc(doc string, step int, rng *rand.Rand) []string {
	var out []string
	for i := 0; i < len(doc); {
		n := step
		if n == 0 {
			n = 1 + rng.IntN(60)
		}
		out = append(out, doc[i:min(i+n, len(doc))])
		i += n
	}
	return out
}

// renderEvery is how many pieces may pass without a render between the
// boundaries; an open code block grows by a few lines in that time.
const renderEvery = 8

// renderPoints marks the pieces after which TestStreamingMatchesWholeRender
// renders: the piece before, at and after each one that made a boundary
// stable, every renderEvery-th, and the last.
func renderPoints(doc string, pieces []string) []bool {
	at := make([]bool, len(pieces))
	d := newStreamDoc("")
	for i, p := range pieces {
		before := d.stable
		d.append(p)
		if d.stable != before {
			for _, j := range []int{i - 1, i, i + 1} {
				if j >= 0 && j < len(at) {
					at[j] = true
				}
			}
		}
		if i%renderEvery == 0 {
			at[i] = true
		}
	}
	if len(at) > 0 {
		at[len(at)-1] = true
	}
	return at
}

// TestRenderPointsCoverEveryBoundary holds the sampling of
// TestStreamingMatchesWholeRender to its promise.
func TestRenderPointsCoverEveryBoundary(t *testing.T) {
	doc := splitCorpus[0]
	pieces := cutDoc(doc, 3, nil)
	at := renderPoints(doc, pieces)
	d := newStreamDoc("")
	gap := 0
	for i, p := range pieces {
		before := d.stable
		d.append(p)
		if d.stable != before && (!at[i] || i > 0 && !at[i-1] || i+1 < len(at) && !at[i+1]) {
			t.Errorf("piece %d made a boundary stable but is not rendered around", i)
		}
		if at[i] {
			gap = 0
		} else if gap++; gap >= renderEvery {
			t.Errorf("%d pieces without a render before piece %d", gap, i)
		}
	}
	if !at[len(at)-1] {
		t.Error("the last piece is not rendered")
	}
}

// TestTailIsRenderedAlone checks that while an answer streams, the lines of
// finished blocks are reused and only the tail is rendered again.
func TestTailIsRenderedAlone(t *testing.T) {
	c := &countingRenderer{inner: newGlamourRenderer(themes.Dark())}
	d := newStreamDoc("")
	d.append("First paragraph.\n\nSecond paragraph.\n\nThird is still grow")
	d.render(0, 60, c)
	before := c.calls
	d.append("ing ")
	d.render(0, 60, c)
	if got := c.calls - before; got != 1 {
		t.Fatalf("a delta in the tail rendered %d times, want 1 (the tail)", got)
	}
	if last := c.last; last != "Third is still growing " {
		t.Fatalf("re-rendered %q, want only the tail", last)
	}
	before = c.calls
	d.render(0, 60, c)
	if c.calls != before {
		t.Fatal("rendering again without a change rendered something")
	}
	// A word not complete yet waits (see settledEnd): nothing to render.
	d.append("wo")
	d.render(0, 60, c)
	if c.calls != before {
		t.Fatalf("half a word rendered the tail again (%q)", c.last)
	}
	// A new generation (width or theme) renders everything once more.
	before = c.calls
	d.render(1, 50, c)
	if got := c.calls - before; got != 2 {
		t.Fatalf("new generation rendered %d times, want 2 (one chunk, the tail)", got)
	}
}

// countingRenderer counts renders and remembers the last source.
type countingRenderer struct {
	inner markdownRenderer
	calls int
	bytes int // of source rendered
	last  string
	bySrc map[string]int
}

func (c *countingRenderer) Render(src string, width int) []string {
	c.calls++
	c.bytes += len(src)
	c.last = src
	if c.bySrc == nil {
		c.bySrc = map[string]int{}
	}
	c.bySrc[src]++
	return c.inner.Render(src, width)
}

// firstDiff describes the first difference between two line lists.
func firstDiff(got, want []string) string {
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return "line " + itoa(i) + ": got " + quote(g) + ", want " + quote(w) +
				" (" + itoa(len(got)) + " vs " + itoa(len(want)) + " lines)"
		}
	}
	return ""
}

func quote(s string) string { return "\"" + strings.ReplaceAll(s, "\x1b", `\e`) + "\"" }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

// blockSnippets are markdown blocks that random documents are made of.
var blockSnippets = []string{
	"A plain paragraph that is long enough to wrap at narrow widths, with `code`, **bold** and a [link](https://example.com).",
	"Two lines\nof one paragraph.",
	"# Heading one",
	"### Heading three",
	"Setext heading\n---",
	"- bullet one\n- bullet two\n  - nested",
	"1. first\n2. second",
	"- loose one\n\n- loose two",
	"- [ ] open task\n- [x] done task",
	"```go\nfunc f() int {\n\treturn 1\n}\n```",
	"```\nplain block\n\nwith a blank line\n```",
	"~~~sh\n$ ls -la\n~~~",
	"| col | other |\n|-----|-------|\n| 1 | two |\n| 3 | four |",
	"> a quote\n> that goes on",
	"---",
	"    indented code\n    block",
	"<div>\nraw html\n</div>",
	"<!-- a comment -->",
	"Term\n: definition",
	"Text with trailing spaces  \nand a hard break.",
	"> - quoted list\n> - item",
	"3. third\n4. fourth",
	"```\n" + strings.Repeat("a_long_code_line ", 12) + "\n```",
	"漢字とかなの段落。幅の広い文字を含む長めの文です。折り返されるはずです。",
	"An emoji 🚀 and ~~struck~~ text.",
	"#### Heading four ####",
}

// TestRandomDocumentsStreamLikeWholeRender builds random documents from
// blockSnippets and streams them in random pieces: every one must end up
// rendered exactly as the whole text.
func TestRandomDocumentsStreamLikeWholeRender(t *testing.T) {
	g := newGlamourRenderer(themes.Dark())
	rng := rand.New(rand.NewPCG(7, 11))
	docs := 200
	if testing.Short() {
		docs = 40 // the full run (.ci/run) streams all 200
	}
	for n := 0; n < docs; n++ {
		var b strings.Builder
		for k := 3 + rng.IntN(6); k > 0; k-- {
			b.WriteString(blockSnippets[rng.IntN(len(blockSnippets))])
			if rng.IntN(5) == 0 {
				b.WriteString("\n") // blocks right after each other
			} else {
				b.WriteString("\n\n")
			}
		}
		doc := b.String()
		width := 30 + rng.IntN(70)
		whole := trimBlank(g.Render(doc, width))
		var pieces []string
		for i := 0; i < len(doc); {
			step := 1 + rng.IntN(40)
			pieces = append(pieces, doc[i:min(i+step, len(doc))])
			i += step
		}
		renderAt := renderPoints(doc, pieces) // see TestStreamingMatchesWholeRender
		d := newStreamDoc("")
		for i, p := range pieces {
			d.append(p)
			if renderAt[i] {
				d.render(0, width, g)
			}
		}
		d.finish()
		if diff := firstDiff(d.render(0, width, g), whole); diff != "" {
			t.Errorf("document %d at width %d (%d chunks): %s\n%q", n, width, len(d.chunks), diff, doc)
		}
	}
}
