package termscreen

import (
	"bytes"
	"strconv"
	"strings"
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
	t := cursorTrack{w: width, h: height, tabs: tabs}
	if x >= 0 && y >= 0 && x < width && y < height {
		t.place(x, y)
	}
	res := make([]byte, 0, len(out))
	run := -1 // where in res the run of moves being read began
	var from cursorTrack
	// end replaces the run of moves that ends here by the shortest move
	// from where it began to where it ended, when that is shorter.
	end := func() {
		if run < 0 {
			return
		}
		if t.rowKnown && t.colKnown && !t.region {
			best := from.moveTo(t.x, t.y)
			if best == "" {
				best = cursorPosition(t.x, t.y)
			}
			if len(best) < len(res)-run {
				res = append(res[:run], best...)
			}
		}
		run = -1
	}
	// move notes that out[i:n] only moves the cursor, and copies it.
	move := func(i, n int) {
		if run < 0 {
			run, from = len(res), t
		}
		res = append(res, out[i:n]...)
	}
	for i := 0; i < len(out); {
		c := out[i]
		switch {
		case c == 0x1b && i+1 < len(out) && out[i+1] == '[':
			n, prefix, params, final, ok := parseCSI(out, i)
			if !ok {
				end()
				return keepRest(res, out, i)
			}
			if prefix == 0 && !t.region && isMove(final) {
				move(i, n)
			} else {
				end()
				res = append(res, out[i:n]...)
			}
			t.csi(prefix, params, final)
			i = n
		case c == 0x1b:
			n := skipEscape(out, i)
			if n < 0 {
				end()
				return keepRest(res, out, i)
			}
			switch out[i+1] {
			case ']', 'P', '_', '^', '=', '>', '(', ')':
				// Strings and modes: the cursor stays.
				end()
				res = append(res, out[i:n]...)
			case 'M': // reverse index: a move up, unless it scrolls
				if t.rowKnown && t.y > 0 && !t.region {
					move(i, n)
				} else {
					end()
					res = append(res, out[i:n]...)
				}
				if t.rowKnown {
					t.y = max(t.y-1, 0)
				}
			default:
				end()
				res = append(res, out[i:n]...)
				t.forget()
			}
			i = n
		case c == '\r':
			move(i, i+1)
			t.x, t.colKnown = 0, t.rowKnown
			i++
		case c == '\n':
			if t.rowKnown && t.y < t.h-1 && !t.region {
				move(i, i+1) // no scroll
			} else {
				end()
				res = append(res, c)
			}
			if t.rowKnown {
				t.y = min(t.y+1, t.h-1)
			}
			i++
		case c == '\b':
			move(i, i+1)
			if t.colKnown {
				t.x = max(t.x-1, 0)
			}
			i++
		case c < 0x20 || c == 0x7f:
			end()
			if c == '\t' {
				t.forget()
			}
			res = append(res, c)
			i++
		case c < utf8.RuneSelf:
			end()
			t.advance(1, true)
			res = append(res, c)
			i++
		default:
			end()
			r, n := utf8.DecodeRune(out[i:])
			// A terminal may give a character outside ASCII another width
			// than the renderer did: the column is not certain after it,
			// the row is while the line is well away from the right edge.
			t.advance(max(ansi.StringWidth(string(r)), 1), false)
			res = append(res, out[i:i+n]...)
			i += n
		}
	}
	end()
	return res
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

// cursorPosition is the shortest absolute move to (x, y).
func cursorPosition(x, y int) string {
	switch {
	case x == 0 && y == 0:
		return "\x1b[H"
	case x == 0:
		return "\x1b[" + strconv.Itoa(y+1) + "H"
	case y == 0:
		return "\x1b[;" + strconv.Itoa(x+1) + "H"
	}
	return "\x1b[" + strconv.Itoa(y+1) + ";" + strconv.Itoa(x+1) + "H"
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

// moveTo is the shortest relative move to (x, y) from where the cursor
// is, or "" when its row is not certain.
func (t *cursorTrack) moveTo(x, y int) string {
	if !t.rowKnown || y < 0 || y >= t.h || x < 0 || x >= t.w {
		return ""
	}
	var v string
	switch d := y - t.y; {
	case d > 0:
		v = ansi.CursorDown(d)
		if d < len(v) {
			v = strings.Repeat("\n", d)
		}
	case d == -1:
		v = ansi.ReverseIndex // t.y is at least 1: no scroll
	case d < 0:
		v = ansi.CursorUp(-d)
	}
	// From the first column, after a carriage return.
	best := "\r" + v + t.across(0, x)
	if col := v + ansi.CursorHorizontalAbsolute(x+1); len(col) < len(best) {
		best = col
	}
	if t.colKnown {
		if rel := v + t.across(t.x, x); len(rel) < len(best) {
			best = rel
		}
	}
	return best
}

// across is the shortest move along a row from column from to column to:
// cells forward or back, or tabs to a tab stop.
func (t *cursorTrack) across(from, to int) string {
	var h string
	switch d := to - from; {
	case d > 0:
		h = ansi.CursorForward(d)
	case d < 0:
		h = ansi.CursorBackward(-d)
		if -d < len(h) {
			h = strings.Repeat("\b", -d)
		}
	}
	if n := t.tabsTo(from, to); n > 0 && n < len(h) {
		h = strings.Repeat("\t", n)
	}
	return h
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
// missing or 0.
func param(params []byte, n, def int) int {
	for k, p := range bytes.Split(params, []byte(";")) {
		if k == n {
			if v, err := strconv.Atoi(string(p)); err == nil && v > 0 {
				return v
			}
			return def
		}
	}
	return def
}
