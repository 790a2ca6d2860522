package termscreen

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// shortenMoves rewrites the cursor moves of a frame's output as the
// shortest moves that land in the same place, wherever the cursor's place
// is certain: a line feed, a carriage return and a tab to the
// transcript's first column ("\r\n\t", 3 bytes) instead of "\x1b[288;37H"
// (10) or "\n\x1b[24D" (6). The renderer moves absolutely whenever a move
// is not local (more than a few cells away and away from both edges), and
// relatively by the cells it counts otherwise: beside a pane either is a
// move to the start of the next line, ten or so for every block of an
// answer.
//
// Each run of moves with nothing written between them (absolute and
// relative moves, carriage returns, line feeds and backspaces that do not
// scroll) is one move from where the run starts to where it ends. x and y
// are where the cursor is when out begins, negative when not known; tabs
// are the terminal's tab stops, ascending (nil: tabs are not used). The
// cursor is followed through out; wherever its place stops being certain
// (a character wider than one cell, which a terminal may measure
// otherwise; the right edge; margins set; a sequence not known here) a run
// becomes at most an absolute move. A column that is uncertain on a row
// that is not costs a carriage return instead. width and height are the
// screen's.
func shortenMoves(out []byte, x, y, width, height int, tabs []int) []byte {
	rw := rewrite{t: cursorTrack{w: width, h: height, tabs: tabs}, res: make([]byte, 0, len(out)), run: -1}
	if x >= 0 && y >= 0 && x < width && y < height {
		rw.t.place(x, y)
	}
	t := &rw.t
	for i := 0; i < len(out); {
		c := out[i]
		switch {
		case c == 0x1b && i+1 < len(out) && out[i+1] == '[':
			n, prefix, params, final, ok := parseCSI(out, i)
			if !ok {
				rw.end()
				return keepRest(rw.res, out, i)
			}
			if prefix == 0 && !t.region && isMove(final) {
				rw.move(out, i, n)
			} else {
				rw.end()
				rw.res = append(rw.res, out[i:n]...)
			}
			t.csi(prefix, params, final)
			i = n
		case c == 0x1b:
			n := skipEscape(out, i)
			if n < 0 {
				rw.end()
				return keepRest(rw.res, out, i)
			}
			switch out[i+1] {
			case ']', 'P', '_', '^', '=', '>', '(', ')':
				// Strings and modes: the cursor stays.
				rw.end()
				rw.res = append(rw.res, out[i:n]...)
			case 'M': // reverse index: a move up, unless it scrolls
				if t.rowKnown && t.y > 0 && !t.region {
					rw.move(out, i, n)
				} else {
					rw.end()
					rw.res = append(rw.res, out[i:n]...)
				}
				if t.rowKnown {
					t.y = max(t.y-1, 0)
				}
			default:
				rw.end()
				rw.res = append(rw.res, out[i:n]...)
				t.forget()
			}
			i = n
		case c == '\r':
			rw.move(out, i, i+1)
			t.x, t.colKnown = 0, t.rowKnown
			i++
		case c == '\n':
			if t.rowKnown && t.y < t.h-1 && !t.region {
				rw.move(out, i, i+1) // no scroll
			} else {
				rw.end()
				rw.res = append(rw.res, c)
			}
			if t.rowKnown {
				t.y = min(t.y+1, t.h-1)
			}
			i++
		case c == '\b':
			rw.move(out, i, i+1)
			if t.colKnown {
				t.x = max(t.x-1, 0)
			}
			i++
		case c < 0x20 || c == 0x7f:
			rw.end()
			if c == '\t' {
				t.forget()
			}
			rw.res = append(rw.res, c)
			i++
		case c < utf8.RuneSelf:
			rw.end()
			t.advance(1, true)
			rw.res = append(rw.res, c)
			i++
		default:
			rw.end()
			r, n := utf8.DecodeRune(out[i:])
			// A terminal may give a character outside ASCII another width
			// than the renderer did: the column is not certain after it,
			// the row is while the line is well away from the right edge.
			t.advance(max(ansi.StringWidth(string(r)), 1), false)
			rw.res = append(rw.res, out[i:i+n]...)
			i += n
		}
	}
	rw.end()
	return rw.res
}

// rewrite is shortenMoves' state: the cursor, what is written so far, and
// the run of moves being read.
type rewrite struct {
	t, from cursorTrack // the cursor now, and where the run began
	res     []byte
	run     int // where in res the run began, -1 for none
}

// end replaces the run of moves that ends here by the shortest move from
// where it began to where it ended, when that is shorter.
func (rw *rewrite) end() {
	if rw.run < 0 {
		return
	}
	if t := &rw.t; t.rowKnown && t.colKnown && !t.region {
		// The shortest move goes after what the run replaces, and takes
		// its place if it is shorter.
		at := len(rw.res)
		var ok bool
		if rw.res, ok = rw.from.appendMoveTo(rw.res, t.x, t.y); !ok {
			rw.res = appendCursorPosition(rw.res, t.x, t.y)
		}
		if best := rw.res[at:]; len(best) < at-rw.run {
			rw.res = append(rw.res[:rw.run], best...)
		} else {
			rw.res = rw.res[:at]
		}
	}
	rw.run = -1
}

// move notes that out[i:n] only moves the cursor, and copies it.
func (rw *rewrite) move(out []byte, i, n int) {
	if rw.run < 0 {
		rw.run, rw.from = len(rw.res), rw.t
	}
	rw.res = append(rw.res, out[i:n]...)
}

// isMove reports a control sequence (with no prefix) that only moves the
// cursor, and that cursorTrack follows.
func isMove(final byte) bool {
	switch final {
	case 'H', 'f', 'A', 'B', 'C', 'D', 'G', '`', 'd':
		return true
	}
	return false
}

// appendCursorPosition appends the shortest absolute move to (x, y).
func appendCursorPosition(dst []byte, x, y int) []byte {
	dst = append(dst, "\x1b["...)
	if y > 0 {
		dst = strconv.AppendInt(dst, int64(y+1), 10)
	}
	if x > 0 {
		dst = append(dst, ';')
		dst = strconv.AppendInt(dst, int64(x+1), 10)
	}
	return append(dst, 'H')
}

// appendCSI appends the control sequence with parameter n (left out when
// it is 1, the default) and final byte final.
func appendCSI(dst []byte, n int, final byte) []byte {
	dst = append(dst, "\x1b["...)
	if n != 1 {
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	return append(dst, final)
}

// appendRepeat appends n copies of c.
func appendRepeat(dst []byte, c byte, n int) []byte {
	for range n {
		dst = append(dst, c)
	}
	return dst
}

// csiLen is the length appendCSI gives.
func csiLen(n int) int {
	if n == 1 {
		return 3
	}
	return 3 + len(strconv.Itoa(n))
}

// keepRest ends a rewrite at something it cannot read: the rest goes out
// as it is.
func keepRest(res, out []byte, i int) []byte { return append(res, out[i:]...) }

// cursorTrack is where the cursor is, as far as it is certain.
type cursorTrack struct {
	x, y, w, h         int
	rowKnown, colKnown bool
	region             bool  // margins are set: moves are left alone
	tabs               []int // the terminal's tab stops, ascending; nil: not used
}

func (t *cursorTrack) forget() { t.rowKnown, t.colKnown = false, false }

func (t *cursorTrack) place(x, y int) {
	t.x, t.y = min(max(x, 0), t.w-1), min(max(y, 0), t.h-1)
	t.rowKnown, t.colKnown = true, true
}

// advance follows n cells written; sure says the terminal measures them
// as the renderer does.
func (t *cursorTrack) advance(n int, sure bool) {
	t.x += n
	if !sure {
		t.colKnown = false
	}
	// Writing up to the right edge leaves a wrap pending, which the
	// terminal may or may not have taken; near it an uncertain width may
	// have wrapped.
	if t.x >= t.w-1 || !t.colKnown && t.x >= t.w-4 {
		t.forget()
	}
}

// csi follows a control sequence other than an absolute move.
func (t *cursorTrack) csi(prefix byte, params []byte, final byte) {
	n := param(params, 0, 1)
	if prefix != 0 {
		switch {
		case prefix == '?' && (final == 'h' || final == 'l'):
			for _, p := range bytes.Split(params, []byte(";")) {
				switch string(p) {
				case "6", "47", "69", "1047", "1049": // origin mode, screens, margins
					t.forget()
				}
			}
		case final == 'm' || final == 'u' || final == 'n' || final == 'c' || final == 'p' || final == 'q':
			// Keyboard modes and queries: the cursor stays.
		default:
			t.forget()
		}
		return
	}
	switch final {
	case 'H', 'f':
		if t.region {
			t.forget() // origin mode may be set: leave it be
			return
		}
		t.place(param(params, 1, 1)-1, param(params, 0, 1)-1)
	case 'A':
		t.y = max(t.y-n, 0)
	case 'B':
		t.y = min(t.y+n, t.h-1)
	case 'C':
		t.x = min(t.x+n, t.w-1)
	case 'D':
		t.x = max(t.x-n, 0)
	case 'G', '`':
		t.x, t.colKnown = min(max(n-1, 0), t.w-1), t.rowKnown
	case 'd':
		t.y, t.rowKnown = min(max(n-1, 0), t.h-1), true
	case 'b': // the last character again, n times
		if t.colKnown {
			t.advance(n, true)
		}
	case 'm', 'K', 'X', 'J', '@', 'P', 'S', 'T', 'n', 'c':
		// Style, erasing, inserting, deleting and scrolling: the cursor
		// stays.
	case 'r':
		t.region = len(params) > 0 && string(params) != ";"
		t.forget()
	default:
		t.forget()
	}
}

// appendMoveTo appends the shortest relative move to (x, y) from where
// the cursor is; ok is false (and nothing appended) when its row is not
// certain.
func (t *cursorTrack) appendMoveTo(dst []byte, x, y int) (_ []byte, ok bool) {
	if !t.rowKnown || y < 0 || y >= t.h || x < 0 || x >= t.w {
		return dst, false
	}
	var vb, ab, bb, cb [48]byte
	v := vb[:0]
	switch d := y - t.y; {
	case d > 0 && d < csiLen(d):
		v = appendRepeat(v, '\n', d)
	case d > 0:
		v = appendCSI(v, d, 'B')
	case d == -1:
		v = append(v, "\x1bM"...) // t.y is at least 1: no scroll
	case d < 0:
		v = appendCSI(v, -d, 'A')
	}
	// From the first column, after a carriage return.
	best := t.appendAcross(append(append(ab[:0], '\r'), v...), 0, x)
	if col := appendCSI(append(bb[:0], v...), x+1, 'G'); len(col) < len(best) {
		best = col
	}
	if t.colKnown {
		if rel := t.appendAcross(append(cb[:0], v...), t.x, x); len(rel) < len(best) {
			best = rel
		}
	}
	return append(dst, best...), true
}

// appendAcross appends the shortest move along a row from column from to
// column to: cells forward or back, or tabs to a tab stop.
func (t *cursorTrack) appendAcross(dst []byte, from, to int) []byte {
	d := to - from
	switch n := t.tabsTo(from, to); {
	case d == 0:
		return dst
	case n > 0 && n < csiLen(d):
		return appendRepeat(dst, '\t', n)
	case d > 0:
		return appendCSI(dst, d, 'C')
	case -d < csiLen(-d):
		return appendRepeat(dst, '\b', -d)
	}
	return appendCSI(dst, -d, 'D')
}

// tabsTo is how many tabs move the cursor from column from to column to,
// or 0 when tabs do not land there: to must be a tab stop to the right.
func (t *cursorTrack) tabsTo(from, to int) int {
	n := 0
	for _, s := range t.tabs {
		if s <= from {
			continue
		}
		n++
		if s == to {
			return n
		}
		if s > to {
			return 0
		}
	}
	return 0
}

// parseCSI reads the control sequence at out[i:]: where it ends, its
// private prefix (0 for none), its parameters and final byte; ok is false
// when it is cut off or has intermediates.
func parseCSI(out []byte, i int) (end int, prefix byte, params []byte, final byte, ok bool) {
	j := i + 2
	if j < len(out) && out[j] >= '<' && out[j] <= '?' {
		prefix = out[j]
		j++
	}
	start := j
	for j < len(out) && (out[j] >= '0' && out[j] <= '9' || out[j] == ';' || out[j] == ':') {
		j++
	}
	params = out[start:j]
	for j < len(out) && out[j] >= 0x20 && out[j] <= 0x2f {
		// Intermediates (DECRQM's '$'): nothing that moves the cursor is
		// written with one here.
		prefix = out[j]
		j++
	}
	if j >= len(out) || out[j] < 0x40 || out[j] > 0x7e {
		return 0, 0, nil, 0, false
	}
	return j + 1, prefix, params, out[j], true
}

// skipEscape is where the escape sequence at out[i:] (not a CSI) ends, or
// -1 when it is cut off.
func skipEscape(out []byte, i int) int {
	if i+1 >= len(out) {
		return -1
	}
	switch out[i+1] {
	case ']', 'P', '_', '^': // strings, ended by BEL or ST
		for j := i + 2; j < len(out); j++ {
			if out[j] == 0x07 {
				return j + 1
			}
			if out[j] == 0x1b && j+1 < len(out) && out[j+1] == '\\' {
				return j + 2
			}
		}
		return -1
	case '(', ')', '*', '+', '#', ' ':
		if i+2 >= len(out) {
			return -1
		}
		return i + 3
	}
	return i + 2
}

// param is the n-th parameter of a control sequence, def when it is
// missing or 0. It is read in place: shortenMoves calls it for every
// control sequence of every frame, most of them colours, and splitting
// the parameters allocated for each.
func param(params []byte, n, def int) int {
	for k := 0; k < n; k++ {
		i := bytes.IndexByte(params, ';')
		if i < 0 {
			return def
		}
		params = params[i+1:]
	}
	if i := bytes.IndexByte(params, ';'); i >= 0 {
		params = params[:i]
	}
	if v, err := strconv.Atoi(string(params)); err == nil && v > 0 {
		return v
	}
	return def
}
