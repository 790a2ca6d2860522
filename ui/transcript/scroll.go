package transcript

// The transcript is a list of entries, each drawn as gap blank lines then
// its rendered lines. The view is placed by an anchor (an entry and a line
// in it) or sticks to the bottom; moving it walks entries one by one, so
// scrolling and drawing touch only the entries near the view.

import "time"

// stepEvery is how often a stepped view (SetSteppedScroll) may move.
const stepEvery = 500 * time.Millisecond

// stepKeeps is how many lines a step keeps in sight: the line being
// written, at the top, for the reader's bearings. A stepped view is drawn
// where the terminal scrolls whole rows beside the tree, so every step
// draws the page again and the lines it keeps are sent again: keeping one
// line rather than a quarter of the page makes the fewest steps (each
// moves a page less one line) and sends least again, a fifth fewer bytes
// over an answer.
const stepKeeps = 1

// count is the number of positions: the entries and the queued block.
func (s *state) count() int { return len(s.items) + 1 }

// gap is the number of blank lines above entry i.
func (s *state) gap(i int) int {
	if i == 0 {
		return 0
	}
	if i == len(s.items) {
		return 1 // before the queued messages
	}
	prev, cur := s.items[i-1].kind, s.items[i].kind
	if compact(prev) && compact(cur) && (prev == cur || prev != KindTool && cur != KindTool) {
		return 0
	}
	return 1
}

// compact kinds stack without blank lines between entries of a kind.
func compact(k Kind) bool { return k == KindTool || k == KindNotice || k == KindRetry }

// lines returns what position i draws, without gap and gutter.
func (s *state) lines(i int) []string {
	if i == len(s.items) {
		return s.queuedBlock()
	}
	return s.itemLines(s.items[i])
}

// span is the number of lines position i takes, gap included. An entry
// with nothing to show takes none.
func (s *state) span(i int) int {
	n := len(s.lines(i))
	if n == 0 {
		return 0
	}
	return s.gap(i) + n
}

// bottomAnchor is the anchor that shows the last screenful.
func (s *state) bottomAnchor() anchor { return s.anchorAbove(s.page()) }

// anchorAbove is the anchor need lines above the end.
func (s *state) anchorAbove(need int) anchor {
	for i := s.count() - 1; i >= 0; i-- {
		h := s.span(i)
		if h >= need {
			return anchor{i, h - need}
		}
		need -= h
	}
	return anchor{}
}

// page is the pane's height, at least one line.
func (s *state) page() int { return max(s.height, 1) }

// viewTop is the first visible line, following or not.
func (s *state) viewTop() anchor {
	switch {
	case !s.follow:
		return s.top
	case s.holding:
		return s.held
	}
	return s.bottomAnchor()
}

// inFlight reports whether output is still arriving: an answer, reasoning
// or a tool call streaming.
func (s *state) inFlight() bool {
	return s.answer != nil || s.reasoning != nil || len(s.calls) > 0
}

// frameTop is the first line of the frame being drawn, or atBottom when
// the frame shows the end at the bottom. A stepped view that follows
// output in flight holds its first line while the end fits, and moves, at
// most once a stepEvery, to put the end on the top line (see stepKeeps).
func (s *state) frameTop() (top anchor, atBottom bool) {
	switch {
	case !s.follow:
		s.holding = false
		return s.top, false
	case !s.stepped || !s.inFlight():
		s.holding = false
		return anchor{}, true
	}
	now := s.now()
	if !s.holding || s.heldGen != s.gen || s.held.idx >= s.count() {
		s.holding, s.held, s.heldGen, s.lastStep = true, s.bottomAnchor(), s.gen, now
		return s.held, false
	}
	if s.linesFrom(s.held, s.page()) <= s.page() || now.Sub(s.lastStep) < stepEvery {
		return s.held, false
	}
	s.held, s.lastStep = s.anchorAbove(stepKeeps), now
	return s.held, false
}

// up moves an anchor up n lines, stopping at the top.
func (s *state) up(a anchor, n int) anchor {
	for n > 0 {
		if a.off >= n {
			a.off -= n
			return a
		}
		n -= a.off
		a.off = 0
		// Find the previous position with lines.
		i := a.idx - 1
		for i >= 0 && s.span(i) == 0 {
			i--
		}
		if i < 0 {
			return a
		}
		a = anchor{i, s.span(i) - 1}
		n--
	}
	return a
}

// down moves an anchor down n lines, stopping at the last line.
func (s *state) down(a anchor, n int) anchor {
	for n > 0 {
		h := s.span(a.idx)
		if a.off+n < h {
			a.off += n
			return a
		}
		// Find the next position with lines.
		i := a.idx + 1
		for i < s.count() && s.span(i) == 0 {
			i++
		}
		if i >= s.count() {
			a.off = max(h-1, 0)
			return a
		}
		n -= h - a.off
		a = anchor{i, 0}
	}
	return a
}

// linesFrom counts the lines from a to the end, stopping once it passes
// limit.
func (s *state) linesFrom(a anchor, limit int) int {
	n := s.span(a.idx) - a.off
	for i := a.idx + 1; i < s.count() && n <= limit; i++ {
		n += s.span(i)
	}
	return n
}

// settle sticks the view to the bottom when the anchor shows the end.
func (s *state) settle() {
	if !s.follow && s.linesFrom(s.top, s.page()) <= s.page() {
		s.follow = true
	}
	if s.follow {
		s.newBelow = false
	}
}

// clampTop keeps the anchor inside the transcript after entries changed
// size.
func (s *state) clampTop() {
	if s.follow {
		return
	}
	if s.top.idx >= s.count() {
		s.top = anchor{s.count() - 1, 0}
	}
	if h := s.span(s.top.idx); s.top.off >= h {
		s.top.off = max(h-1, 0)
	}
	s.settle()
}

// scrollUp moves the view up n lines.
func (s *state) scrollUp(n int) {
	top := s.viewTop()
	s.top = s.up(top, n)
	s.follow = false
	s.settle()
	s.changed()
}

// scrollDown moves the view down n lines.
func (s *state) scrollDown(n int) {
	if s.follow {
		return
	}
	s.top = s.down(s.top, n)
	s.settle()
	s.changed()
}

// toTop shows the start of the transcript.
func (s *state) toTop() {
	s.top = anchor{}
	s.follow = false
	s.settle()
	s.changed()
}

// toBottom shows the end and follows new output again.
func (s *state) toBottom() {
	s.follow, s.holding = true, false
	s.newBelow = false
	s.changed()
}

// grew records that content changed: when the view does not follow, the
// person is told that more arrived below.
func (s *state) grew() {
	if !s.follow {
		s.newBelow = true
	}
	s.changed()
}

// arrived is grew for output that keeps coming (an answer, reasoning, a
// tool call): a frame drawn while output is deferred (DeferOutput) may
// leave it for the next one.
func (s *state) arrived() {
	s.arrivedText()
	s.shownFixed = false
}

// arrivedText is arrived for text added to the answer in flight, which
// changes only the answer's lines after those it has finished.
func (s *state) arrivedText() {
	if !s.follow {
		s.newBelow = true
	}
	s.frameValid = false
}

// holdsStill reports whether the frame drawn last is still right although
// text arrived for the answer in flight: a stepped view holds its first
// line, its rows are all above the answer's unfinished end (shownFixed),
// and no step is due. Such a frame is not drawn again, and the answer's end,
// out of sight, is not rendered until the view steps or the end comes into
// view: a fast answer beside the tree otherwise costs a render of its
// growing end every frame for nothing to show.
func (s *state) holdsStill() bool {
	return s.shownFixed && !s.personal && s.frame != "" && s.follow && s.stepped && s.holding &&
		s.heldGen == s.gen && s.answer != nil && s.now().Sub(s.lastStep) < stepEvery
}

// rowsFixed reports whether the page drawn from a is full and ends above
// the lines of the answer in flight that text arriving for it may change
// (its unfinished end, and what follows it).
func (s *state) rowsFixed(a anchor, rows int) bool {
	if s.answer == nil || rows < s.page() {
		return false
	}
	ai := -1
	for i := len(s.items) - 1; i >= 0; i-- {
		if s.items[i] == s.answer {
			ai = i
			break
		}
	}
	if ai < 0 || s.answer.gen != s.gen {
		return false
	}
	// The last row's position and line.
	idx, off, need := a.idx, a.off, s.page()
	for {
		if idx >= s.count() {
			return false
		}
		if h := s.span(idx); off+need <= h {
			off += need - 1
			break
		} else {
			need -= max(h-off, 0)
		}
		idx, off = idx+1, 0
	}
	switch {
	case idx < ai:
		return true
	case idx > ai:
		return false
	}
	return off-s.gap(idx) < s.answer.doc.fixedLines(s.gen)
}
