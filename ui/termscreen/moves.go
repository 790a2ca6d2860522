package termscreen

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// shortenMoves rewrites the absolute cursor moves (CUP) of a frame's
// output as relative ones wherever those are shorter and the cursor's
// place is certain: a line feed and a move back to the transcript's first
// column ("\n\x1b[24D", 6 bytes) instead of "\x1b[288;37H" (10). The
// renderer moves absolutely whenever a move is not local (more than a few
// cells away and away from both edges): beside a pane that is every move
// to the start of the next line, ten or so for every block of an answer.
//
// x and y are where the cursor is when out begins, negative when not
// known. The cursor is followed through out; wherever its place stops
// being certain (a character wider than one cell, which a terminal may
// measure otherwise; the right edge; margins set; a sequence not known
// here) nothing is rewritten until the next absolute move. A column that
// is uncertain on a row that is not costs a carriage return instead of
// the absolute move. width and height are the screen's.
func shortenMoves(out []byte, x, y, width, height int) []byte {
	t := cursorTrack{w: width, h: height}
	if x >= 0 && y >= 0 && x < width && y < height {
		t.place(x, y)
	}
	var res []byte
	for i := 0; i < len(out); {
		c := out[i]
		switch {
		case c == 0x1b && i+1 < len(out) && out[i+1] == '[':
			end, prefix, params, final, ok := parseCSI(out, i)
			if !ok {
				return keepRest(res, out, i)
			}
			if prefix == 0 && (final == 'H' || final == 'f') && !t.region {
				row, col := param(params, 0, 1)-1, param(params, 1, 1)-1
				if short := t.moveTo(col, row); short != "" && len(short) < end-i {
					res = append(res, short...)
				} else {
					res = append(res, out[i:end]...)
				}
				t.place(col, row)
				i = end
				continue
			}
			t.csi(prefix, params, final)
			res = append(res, out[i:end]...)
			i = end
		case c == 0x1b:
			end := skipEscape(out, i)
			if end < 0 {
				return keepRest(res, out, i)
			}
			switch out[i+1] {
			case ']', 'P', '_', '^', '=', '>', '(', ')':
				// Strings and modes: the cursor stays.
			case 'M': // reverse index
				if t.rowKnown {
					t.y = max(t.y-1, 0)
				}
			default:
				t.forget()
			}
			res = append(res, out[i:end]...)
			i = end
		case c == '\r':
			t.x, t.colKnown = 0, t.rowKnown
			res = append(res, c)
			i++
		case c == '\n':
			if t.rowKnown {
				t.y = min(t.y+1, t.h-1)
			}
			res = append(res, c)
			i++
		case c == '\b':
			if t.colKnown {
				t.x = max(t.x-1, 0)
			}
			res = append(res, c)
			i++
		case c < 0x20 || c == 0x7f:
			if c == '\t' {
				t.forget()
			}
			res = append(res, c)
			i++
		case c < utf8.RuneSelf:
			t.advance(1, true)
			res = append(res, c)
			i++
		default:
			r, n := utf8.DecodeRune(out[i:])
			// A terminal may give a character outside ASCII another width
			// than the renderer did: the column is not certain after it,
			// the row is while the line is well away from the right edge.
			t.advance(max(ansi.StringWidth(string(r)), 1), false)
			res = append(res, out[i:i+n]...)
			i += n
		}
	}
	return res
}

// keepRest ends a rewrite at something it cannot read: the rest goes out
// as it is.
func keepRest(res, out []byte, i int) []byte { return append(res, out[i:]...) }

// cursorTrack is where the cursor is, as far as it is certain.
type cursorTrack struct {
	x, y, w, h         int
	rowKnown, colKnown bool
	region             bool // margins are set: moves are left alone
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
			v = string(bytes.Repeat([]byte{'\n'}, d))
		}
	case d == -1:
		v = ansi.ReverseIndex // t.y is at least 1: no scroll
	case d < 0:
		v = ansi.CursorUp(-d)
	}
	best := "\r" + v
	if x > 0 {
		best += ansi.CursorForward(x)
	}
	if t.colKnown {
		h := ""
		switch d := x - t.x; {
		case d > 0:
			h = ansi.CursorForward(d)
		case d < 0:
			h = ansi.CursorBackward(-d)
			if -d < len(h) {
				h = string(bytes.Repeat([]byte{'\b'}, -d))
			}
		}
		if len(v)+len(h) < len(best) {
			best = v + h
		}
	}
	return best
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
