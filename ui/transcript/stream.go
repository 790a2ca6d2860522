package transcript

import "strings"

// streamDoc is an answer's markdown split at stable block boundaries. Every
// chunk but the last holds finished blocks and is rendered once per width
// and theme; the tail holds the block that may still grow and is rendered
// again when it changes. A finished answer is a streamDoc whose tail is
// final, so finishing costs one render of the tail, not of the whole.
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

	gen   int      // render generation of the cached lines; -1 for none
	lines []string // chunk lines joined, then the tail lines
	fixed int      // lines[:fixed] belong to chunks and stay valid

	// closing closes the markup an interrupted answer left open; it is
	// drawn after the last chunk, never part of the text (see
	// unclosedMarkup).
	closing string
}

// docChunk is a run of finished blocks; its rendered lines live in
// streamDoc.lines once rendered is set.
type docChunk struct {
	start, end int
	rendered   bool
}

func newStreamDoc(src string) *streamDoc {
	d := &streamDoc{gen: -1, tailGen: -1}
	d.append(src)
	return d
}

// finishedDoc is a complete answer as one chunk, rendered whole when it
// first comes into view.
func finishedDoc(src string) *streamDoc {
	d := &streamDoc{gen: -1, tailGen: -1}
	d.src.WriteString(src)
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
	d.src.WriteString(s)
	all := d.src.String()
	if end := d.stable + stableEnd(all[d.stable:]); end > d.stable {
		d.chunks = append(d.chunks, docChunk{start: d.stable, end: end})
		d.stable = end
	}
}

// finish makes the tail a chunk of its own: nothing more will arrive.
func (d *streamDoc) finish() {
	all := d.src.String()
	if d.stable < len(all) && strings.TrimSpace(all[d.stable:]) != "" {
		d.chunks = append(d.chunks, docChunk{start: d.stable, end: len(all)})
		d.stable = len(all)
	}
}

// finishInterrupted finishes an answer cut short: its last chunk is
// drawn with the inline markup it left open closed.
func (d *streamDoc) finishInterrupted() {
	d.finish()
	d.closing = unclosedMarkup(d.src.String())
}

// chunkLead stands in for the blocks before a chunk when it is rendered on
// its own. Glamour puts a blank line before a heading or paragraph only when
// something precedes it; behind this empty comment, which draws nothing, a
// chunk starts with exactly the blank lines it gets inside the whole answer.
// What a block puts after itself does not depend on what follows, so chunks
// join exactly. (A paragraph would do too, but costs a padded line.)
const chunkLead = "<!-- -->\n\n"

// render returns the answer's lines at width, rendering only chunks that
// have no lines for this generation and the tail if it changed. A chunk
// whose text is the tail last rendered (the end of a finished answer) takes
// the tail's lines.
func (d *streamDoc) render(gen, width int, md markdownRenderer) []string {
	all := d.src.String()
	if d.gen != gen {
		for i := range d.chunks {
			d.chunks[i].rendered = false
		}
		d.lines, d.fixed, d.gen = d.lines[:0], 0, gen
	}
	d.lines = d.lines[:d.fixed]
	for i := range d.chunks {
		c := &d.chunks[i]
		if c.rendered {
			continue
		}
		src, first := all[c.start:c.end], i == 0
		if d.closing != "" && c.end == len(all) {
			src = strings.TrimRight(src, " \t") + d.closing
		}
		if d.tailGen == gen && d.tailLines != nil && d.tailSrc == src && d.tailFirst == first {
			d.lines = append(d.lines, d.tailLines...)
		} else {
			d.lines = append(d.lines, renderChunk(md, src, width, first)...)
		}
		c.rendered = true
	}
	d.fixed = len(d.lines)
	tail, first := all[d.stable:], len(d.chunks) == 0
	if tail != d.tailSrc || first != d.tailFirst || gen != d.tailGen {
		d.tailSrc, d.tailFirst, d.tailGen = tail, first, gen
		d.tailLines = nil
		if lines, ok := d.preview.render(md, tail, width, gen, first); ok {
			d.tailLines = lines
		} else if strings.TrimSpace(tail) != "" {
			d.tailLines = renderChunk(md, tail, width, first)
		}
	}
	d.lines = append(d.lines, d.tailLines...)
	return trimBlank(d.lines)
}

// renderChunk renders one chunk of an answer; see chunkLead.
func renderChunk(md markdownRenderer, src string, width int, first bool) []string {
	if first {
		return md.Render(src, width)
	}
	return md.Render(chunkLead+src, width)
}
