package transcript

import "strings"

// streamDoc is an answer's markdown split at stable block boundaries. Every
// chunk but the last holds finished blocks and is rendered once per width
// and theme; the tail holds the block that may still grow and is rendered
// again when it changes. A finished answer is a streamDoc whose tail is
// final, so finishing costs one render of the tail, not of the whole.
//
// Chunks render on their own, so a view that needs only the end of a long
// answer (the bottom of the transcript after a resize) renders only the
// chunks it shows (lastLines).
type streamDoc struct {
	src    strings.Builder
	stable int // src[:stable] is covered by chunks
	chunks []docChunk

	// The tail's lines, the text and generation they were rendered for,
	// and whether the tail was the answer's first chunk then.
	tailLines []string
	tailSrc   string
	tailGen   int
	tailFirst bool
	preview   fencePreview // the tail while it is one long open code block

	gen    int      // render generation of joined; -1 for none
	joined []string // the lines of chunks[:nJoined], in order
	nJoin  int

	// paused says that no text is arriving for now (the model went on to
	// a tool call): the tail is drawn whole, not only its settled part
	// (see settledEnd).
	paused bool

	// closing closes the markup an interrupted answer left open; it is
	// drawn after the last chunk, never part of the text (see
	// unclosedMarkup).
	closing string
}

// docChunk is a run of finished blocks and its lines, rendered for gen
// (-1: not rendered).
type docChunk struct {
	start, end int
	gen        int
	lines      []string
}

// loadedChunk is about how much of a finished answer one chunk holds: its
// blocks render together (one glamour call each costs a fixed part), and
// a view of the answer's end renders a chunk or two of them.
const loadedChunk = 1500

func newStreamDoc(src string) *streamDoc {
	d := &streamDoc{gen: -1, tailGen: -1}
	d.append(src)
	return d
}

// finishedDoc is a complete answer, cut at block boundaries into chunks of
// about loadedChunk bytes, rendered as they come into view.
func finishedDoc(src string) *streamDoc {
	d := &streamDoc{gen: -1, tailGen: -1}
	d.src.WriteString(src)
	start := 0
	for _, at := range boundaries(src) {
		if at-start >= loadedChunk {
			d.chunks = append(d.chunks, docChunk{start: start, end: at, gen: -1})
			start = at
		}
	}
	d.stable = start
	d.finish()
	return d
}

// text returns the markdown received so far.
func (d *streamDoc) text() string { return d.src.String() }

// append adds a piece of the answer and moves finished blocks out of the
// tail.
func (d *streamDoc) append(s string) {
	if s == "" {
		return
	}
	d.paused = false
	d.src.WriteString(s)
	all := d.src.String()
	if end := d.stable + stableEnd(all[d.stable:]); end > d.stable {
		// Blocks that finish between two frames render together: a
		// glamour call costs a fixed part whatever it renders, and an
		// answer arrives in pieces of a few words.
		if n := len(d.chunks); n > 0 && d.chunks[n-1].gen == -1 && d.chunks[n-1].end == d.stable &&
			end-d.chunks[n-1].start <= loadedChunk {
			d.chunks[n-1].end = end
		} else {
			d.chunks = append(d.chunks, docChunk{start: d.stable, end: end, gen: -1})
		}
		d.stable = end
	}
}

// finish makes the tail a chunk of its own: nothing more will arrive.
func (d *streamDoc) finish() {
	all := d.src.String()
	if d.stable < len(all) && strings.TrimSpace(all[d.stable:]) != "" {
		d.chunks = append(d.chunks, docChunk{start: d.stable, end: len(all), gen: -1})
		d.stable = len(all)
	}
}

// finishInterrupted finishes an answer cut short: its last chunk is
// drawn with the inline markup it left open closed.
func (d *streamDoc) finishInterrupted() {
	d.finish()
	d.closing = unclosedMarkup(d.src.String())
	if n := len(d.chunks); n > 0 && d.closing != "" {
		// Lines drawn before the answer was cut lack the closing.
		d.chunks[n-1].gen = -1
		d.gen = -1
	}
}

// chunkLead stands in for the blocks before a chunk when it is rendered on
// its own. Glamour puts a blank line before a heading or paragraph only when
// something precedes it; behind this empty comment, which draws nothing, a
// chunk starts with exactly the blank lines it gets inside the whole answer.
// What a block puts after itself does not depend on what follows, so chunks
// join exactly. (A paragraph would do too, but costs a padded line.) The
// comment costs glamour an HTML sanitiser pass, so renderAfter does without
// it where it can.
const chunkLead = "<!-- -->\n\n"

// renderAfter renders src as it is drawn after other blocks: the lines
// md.Render(chunkLead+src) would give. Every block but a heading or a
// paragraph starts with its own blank line, and those two start with one
// exactly when something precedes them, so a first line that is not blank
// gets the blank line the lead would have given it, without the sanitiser
// pass the lead costs (an eighth of what streaming allocated). Text that
// holds HTML is rendered behind the lead: what its tags leave may be blank.
func renderAfter(md markdownRenderer, src string, width int) []string {
	if needsLead(src) {
		return md.Render(chunkLead+src, width)
	}
	return blankBefore(md.Render(src, width))
}

// needsLead reports whether src is drawn after other blocks only behind
// chunkLead: when it holds HTML, whose tags may leave a blank first line.
// Anything else is its own lines behind a blank line.
func needsLead(src string) bool { return strings.IndexByte(src, '<') >= 0 }

// blankBefore gives lines a blank first line unless they start with one.
func blankBefore(lines []string) []string {
	if len(lines) == 0 || lines[0] == "" {
		return lines
	}
	return append([]string{""}, lines...)
}

// render returns the answer's lines at width, rendering only chunks that
// have no lines for this generation and the tail if it changed.
func (d *streamDoc) render(gen, width int, md markdownRenderer) []string {
	if d.gen != gen {
		d.joined, d.nJoin, d.gen = d.joined[:0], 0, gen
	}
	for ; d.nJoin < len(d.chunks); d.nJoin++ {
		d.joined = append(d.joined, d.chunkLines(d.nJoin, gen, width, md)...)
	}
	lines := append(d.joined, d.tail(gen, width, md)...)
	return trimBlank(lines)
}

// fixedLines is how many of the lines render returned last for gen come
// from finished chunks: text appended later adds lines after them and
// changes none of them.
func (d *streamDoc) fixedLines(gen int) int {
	if d.gen != gen || d.nJoin != len(d.chunks) {
		return 0
	}
	lead := 0
	for lead < len(d.joined) && d.joined[lead] == "" {
		lead++
	}
	return len(d.joined) - lead
}

// lastLines returns the answer's last need lines at width (all of them when
// it has fewer), rendering chunks from the end only as far as that takes;
// whole says they are all of the answer's lines.
func (d *streamDoc) lastLines(gen, width int, md markdownRenderer, need int) (lines []string, whole bool) {
	if d.gen == gen && d.nJoin == len(d.chunks) {
		all := d.render(gen, width, md)
		return all[max(len(all)-need, 0):], len(all) <= need
	}
	if k := len(d.chunks) - 1; k >= 0 {
		// First, so that a chunk that was the tail takes the tail's lines.
		d.chunkLines(k, gen, width, md)
	}
	parts := [][]string{d.tail(gen, width, md)}
	n, blankEnd := 0, true
	count := func(ls []string) {
		for k := len(ls) - 1; k >= 0; k-- {
			if blankEnd && ls[k] == "" {
				continue // trailing blank lines are trimmed
			}
			blankEnd = false
			n++
		}
	}
	count(parts[0])
	i := len(d.chunks) - 1
	for ; i >= 0 && n < need; i-- {
		ls := d.chunkLines(i, gen, width, md)
		parts = append(parts, ls)
		count(ls)
	}
	if i < 0 {
		all := d.render(gen, width, md) // every chunk has its lines now
		return all[max(len(all)-need, 0):], len(all) <= need
	}
	var out []string
	for k := len(parts) - 1; k >= 0; k-- {
		out = append(out, parts[k]...)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out[max(len(out)-need, 0):], false
}

// chunkLines returns chunk i's lines at width, rendering them when they
// are missing or stale. A chunk whose text is the tail last rendered (the
// end of a finished answer) takes the tail's lines.
func (d *streamDoc) chunkLines(i, gen, width int, md markdownRenderer) []string {
	c := &d.chunks[i]
	if c.gen == gen {
		return c.lines
	}
	all := d.src.String()
	src, first := all[c.start:c.end], i == 0
	if d.closing != "" && c.end == len(all) {
		src = strings.TrimRight(src, " \t") + d.closing
	}
	if d.tailGen == gen && d.tailLines != nil && d.tailSrc == src && d.tailFirst == first {
		c.lines = d.tailLines
	} else {
		c.lines = renderBlocks(md, src, width, first)
	}
	c.gen = gen
	return c.lines
}

// tail returns the lines of the text after the last chunk (of its settled
// part while text arrives, see settledEnd), rendering them again when that
// text, its place or the generation changed.
func (d *streamDoc) tail(gen, width int, md markdownRenderer) []string {
	tail, first := d.src.String()[d.stable:], len(d.chunks) == 0
	if !d.paused {
		tail = tail[:settledEnd(tail)]
	}
	if tail != d.tailSrc || first != d.tailFirst || gen != d.tailGen {
		d.tailSrc, d.tailFirst, d.tailGen = tail, first, gen
		d.tailLines = nil
		if lines, ok := d.preview.render(md, tail, width, gen, first); ok {
			d.tailLines = lines
		} else if strings.HasSuffix(tail, "\n\n") && strings.TrimSpace(tail) != "" {
			// Ended by a blank line, the tail is most likely a block
			// that is finished as it stands (only the next block's
			// start can tell): its lines are kept for the chunk.
			d.tailLines = renderBlocks(md, tail, width, first)
		} else if strings.TrimSpace(tail) != "" {
			d.tailLines = renderChunk(md, tail, width, first)
		}
	}
	return d.tailLines
}

// renderBlocks renders a chunk of finished blocks block by block, each
// through md's cache (see blockCache): a block costs a render the first
// time it is seen at a width, whichever chunk it is in. Blocks join
// exactly as chunks do (see chunkLead). Rendering blocks apart costs
// glamour's fixed part once per block rather than once per chunk (an
// answer whose blocks all differ allocates some 5-10% more while it
// streams); an answer that repeats blocks, or a width the pane had before,
// costs a lookup per block.
func renderBlocks(md markdownRenderer, src string, width int, first bool) []string {
	if _, ok := md.(*blockCache); !ok {
		return renderChunk(md, src, width, first)
	}
	var out []string
	start := 0
	for _, end := range append(boundaries(src), len(src)) {
		if end <= start {
			continue
		}
		out = append(out, renderFinished(md, src[start:end], width, !first || start > 0)...)
		start = end
	}
	return out
}

// renderChunk renders one chunk of an answer; see chunkLead.
func renderChunk(md markdownRenderer, src string, width int, first bool) []string {
	if first {
		return md.Render(src, width)
	}
	return renderAfter(md, src, width)
}
