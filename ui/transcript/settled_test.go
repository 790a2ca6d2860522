package transcript

import (
	"fmt"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"

	"pincer/themes"
	"pincer/ui/transcript/transcripttest"
)

// TestGrowingEndDrawnAsFinished: at every length an answer arrives in, each
// cell its growing render draws is the cell the finished answer has there,
// so the screen only ever adds cells and never draws one again in another
// colour or moves a word to the next row. Without settledEnd "fo" in a code
// block is drawn plain and then again as the keyword "for", "`refer" with
// its backtick, and the end of a wrapping word on the row it leaves.
func TestGrowingEndDrawnAsFinished(t *testing.T) {
	const width = 60
	for _, c := range []struct {
		name, src string
		every     int // prefix lengths tried: every this many bytes
	}{
		{"paragraph wraps", "The parser reads the whole file first, then walks each declaration and records the names it defines, so that a later pass can resolve them.\n", 1},
		{"inline code", "Call `resolve` and then `evict(c, n)` before the read; **bold words** and *emphasis* and ~~gone~~ too.\n", 1},
		{"link", "See [the guide](https://example.com/guide) for more, and [a note] in brackets.\n", 1},
		{"lists", "Steps:\n\n- keep the **cache** small\n- drop entries\n\n1. first\n2. second\n", 1},
		{"heading", "## Step 12: the parser\n\nText under it.\n", 1},
		{"chinese", "解析器先读取整个文件，然后遍历每个声明并记录它定义的名字，这样后面的一遍可以解析引用而不必再读一次磁盘。\n", 1},
		{"code", "```go\nfunc evict(c *cache, n int) {\n\tfor len(c.items) > n {\n\t\treturn \"both config parser\"\n\t}\n}\n```\n\nAfter.\n", 1},
		{"varied answer", transcripttest.VariedAnswer(5000), 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			md := newBlockCache(newGlamourRenderer(themes.Dark()))
			whole := newStreamDoc(c.src)
			whole.finish()
			final := whole.render(0, width, md)
			finalCells := make([][]uv.Cell, len(final))
			for y, l := range final {
				finalCells[y] = lineCells(l, width)
			}
			d := newStreamDoc("")
			for n, k := 0, 0; n < len(c.src); n = k {
				k = min(n+c.every, len(c.src))
				d.append(c.src[n:k])
				if diff := drawnDiff(d.render(0, width, md), finalCells, width); diff != "" {
					t.Fatalf("after %q the growing end %s", c.src[:k], diff)
				}
			}
		})
	}
}

// drawnDiff describes the first cell drawn in lines that differs from the
// same cell of final, or returns "".
func drawnDiff(lines []string, final [][]uv.Cell, width int) string {
	for y, l := range lines {
		if y >= len(final) {
			return fmt.Sprintf("has row %d %q, which the finished answer lacks", y, ansiStrip(l))
		}
		for x, cell := range lineCells(l, width) {
			if cell.Content == "" || cell.Content == " " && cell.Style.IsZero() {
				continue // not drawn yet
			}
			if !cell.Equal(&final[y][x]) {
				return fmt.Sprintf("draws %q at row %d column %d (%q), where the finished answer has %q (%q)",
					cell.Content, y, x, ansiStrip(l), final[y][x].Content, ansiStrip(cellsText(final[y])))
			}
		}
	}
	return ""
}

// lineCells is what a terminal shows of a rendered line, cell by cell.
func lineCells(line string, width int) []uv.Cell {
	buf := uv.NewScreenBuffer(width, 1)
	uv.NewStyledString(line).Draw(buf, uv.Rect(0, 0, width, 1))
	out := make([]uv.Cell, width)
	for x := range out {
		if c := buf.CellAt(x, 0); c != nil {
			out[x] = *c
		}
	}
	return out
}

func cellsText(cells []uv.Cell) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c.Content)
	}
	return strings.TrimRight(b.String(), " ")
}

// TestSettledEnd: what of a growing end waits for more text.
func TestSettledEnd(t *testing.T) {
	for _, c := range []struct{ tail, want string }{
		{"", ""},
		{"Whole line.\n", "Whole line.\n"},
		{"Some words and a wo", "Some words and a "},
		{"```go\nfunc main() {\n\tfo", "```go\nfunc main() {\n"},
		{"```go\nx := \"open string ", "```go\n"},
		{"Text.\n\n- ", "Text.\n\n"},
		{"## ", ""},
		{"## Step ", "## Step "},
		{"Call `resolve", "Call "},
		{"Call `resolve` now ", "Call `resolve` now "},
		{"keep the **cache sm", "keep the "},
		{"see [the guide](https://exa", "see "},
		{"see [the guide](https://example.com) and **mo", "see [the guide](https://example.com) and "},
		{"a * b is ", "a * b is "[:2]},
		{"解析器先读取整个文件", "解析器先读取整个文件"},
		{"see https://example.com/" + strings.Repeat("a", 90), "see https://example.com/" + strings.Repeat("a", 90)},
		{"a * b " + strings.Repeat("word ", 20), "a * b " + strings.Repeat("word ", 20)},
	} {
		if got := c.tail[:settledEnd(c.tail)]; got != c.want {
			t.Errorf("settledEnd(%q) keeps %q, want %q", c.tail, got, c.want)
		}
	}
}
