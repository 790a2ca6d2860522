package transcript

import (
	"slices"
)

// blockCacheBytes bounds what a blockCache keeps: the source and lines of
// about a hundred pages of answers.
const blockCacheBytes = 2 << 20

// blockCache is the transcript's markdown renderer with a memory: the lines
// of every finished block it rendered, by the block's source and the width,
// for as long as the theme lasts. Glamour costs a few hundred microseconds
// per screen line it writes (it pads every line to the width, a cell at a
// time, and strips the padding again), so a block is rendered once: an answer that repeats a block (a
// heading pattern, the same code twice), a width the pane had before (the
// tree shown and hidden again), or the same text drawn again after a
// resize, costs a lookup. Text that may still grow (the tail of the answer
// in flight) goes to the renderer without being kept.
type blockCache struct {
	inner markdownRenderer
	kept  map[blockKey][]string
	order []blockKey // oldest first, for dropping when full
	size  int
}

// blockKey is a finished block as rendered: its source, whether it is drawn
// after other blocks (see renderAfter) and the width.
type blockKey struct {
	src   string
	after bool
	width int
}

func newBlockCache(inner markdownRenderer) *blockCache {
	return &blockCache{inner: inner, kept: map[blockKey][]string{}}
}

// Render renders src without keeping it: the text may still change.
func (c *blockCache) Render(src string, width int) []string { return c.inner.Render(src, width) }

// finished returns the lines of a finished block, rendering it only the
// first time. The lines are shared: callers copy before changing them.
func (c *blockCache) finished(src string, width int, after bool) []string {
	k := blockKey{src, after, width}
	if lines, ok := c.kept[k]; ok {
		return lines
	}
	var lines []string
	switch {
	case after && !needsLead(src):
		// The same lines as drawn first, behind a blank line: one render
		// serves both (see renderAfter).
		lines = blankBefore(c.finished(src, width, false))
	case after:
		lines = renderAfter(c.inner, src, width)
	default:
		lines = c.inner.Render(src, width)
	}
	lines = slices.Clip(lines)
	n := keptSize(k, lines)
	if n > blockCacheBytes/4 {
		return lines // too big to be worth keeping
	}
	for c.size+n > blockCacheBytes && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= keptSize(old, c.kept[old])
		delete(c.kept, old)
	}
	c.kept[k] = lines
	c.order = append(c.order, k)
	c.size += n
	return lines
}

// keptSize is about what an entry holds in memory.
func keptSize(k blockKey, lines []string) int {
	n := len(k.src)
	for _, l := range lines {
		n += len(l) + 16
	}
	return n
}

// renderFinished renders finished markdown, drawn after other blocks when
// after is set, through md's cache when it has one.
func renderFinished(md markdownRenderer, src string, width int, after bool) []string {
	if c, ok := md.(*blockCache); ok {
		return c.finished(src, width, after)
	}
	if after {
		return renderAfter(md, src, width)
	}
	return md.Render(src, width)
}
