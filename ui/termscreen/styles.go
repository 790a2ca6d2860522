package termscreen

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// penAttr is an attribute of the terminal's pen that a parameter of its
// own turns on.
type penAttr uint8

const (
	penBold penAttr = 1 << iota
	penFaint
	penItalic
	penBlink
	penRapidBlink
	penReverse
	penConceal
	penStrike
)

// pen is a terminal's graphic rendition (SGR state). Colours and the
// underline are kept as the parameters that set them ("38;2;1;2;3",
// "31", "4:3"), so that they are written again exactly as the renderer
// wrote them; "" is the default.
type pen struct {
	fg, bg, ulColor, underline string
	attrs                      penAttr
}

func (p pen) isZero() bool { return p == pen{} }

// blankLooksSame reports whether a blank drawn with pen a looks like one
// drawn with b: they agree on all that shows on a blank (the background,
// and anything that draws in the foreground colour over it: underline,
// strike-through, reverse video, blinking).
func blankLooksSame(a, b pen) bool {
	const shows = penReverse | penStrike | penBlink | penRapidBlink
	if a.bg != b.bg || a.attrs&shows != b.attrs&shows {
		return false
	}
	if a.underline != "" || b.underline != "" || a.attrs&(penReverse|penStrike) != 0 {
		// The line or the reversed cell is drawn in the foreground
		// colour (and intensity), or in the underline colour.
		return a == b
	}
	return true
}

// styleRewrite writes a frame's styles (SGR sequences) lazily: a change of
// style goes out only before a character that shows it, as the shortest
// sequence from the terminal's pen to the one wanted. So a style that is
// set and then set back before anything it shows on is never written
// (the reset at the end of every frame, and of each pass of render, when
// the next one starts in the same style); changes next to each other go
// out as one sequence; a reset followed by a full style is one sequence;
// and blanks whose look does not depend on the foreground (spaces with no
// background, underline, strike-through or reverse video of their own)
// are written in whatever pen the terminal has. The pen is carried from
// frame to frame: term is what the terminal has, want what the renderer
// has asked for.
type styleRewrite struct {
	term, want pen
	// opaque says a style was met that is not read here: styles go out as
	// they are until a reset makes the pen known again.
	opaque bool
}

// rewrite returns out with its styles written lazily.
func (s *styleRewrite) rewrite(out []byte) []byte {
	res := make([]byte, 0, len(out))
	// last is the character written last, which a REP repeats; nil once
	// anything but a style came after it. lastEnd is where it ends in res.
	var last []byte
	lastEnd := -1
	for i := 0; i < len(out); {
		c := out[i]
		if c != 0x1b {
			last = nil
		}
		switch {
		case c == 0x1b && i+1 < len(out) && out[i+1] == '[':
			n, prefix, params, final, ok := parseCSI(out, i)
			if !ok {
				res = s.flush(res)
				return append(res, out[i:]...)
			}
			if !(prefix == 0 && (final == 'm' || final == 'b')) {
				last = nil
			}
			switch {
			case prefix == 0 && final == 'm':
				res = s.sgr(res, out[i:n], params)
			case prefix == 0 && final == 'b':
				res = s.rep(res, out[i:n], params, last, lastEnd)
			case prefix == 0 && isMove(final):
				// Moves draw nothing (CUD and CUU stop at the margins:
				// they never scroll).
				res = append(res, out[i:n]...)
			default:
				res = s.flush(res)
				res = append(res, out[i:n]...)
			}
			i = n
		case c == '\r' || c == '\b' || c == '\t':
			res = append(res, c)
			i++
		case c == '\n' || c == '\v' || c == '\f':
			// A line feed on the last row scrolls, and the new row takes
			// the pen's background.
			if !blankLooksSame(s.term, s.want) {
				res = s.flush(res)
			}
			res = append(res, c)
			i++
		case c == ' ':
			if s.opaque || !blankLooksSame(s.term, s.want) {
				res = s.flush(res)
			}
			res = append(res, c)
			last, lastEnd = out[i:i+1], len(res)
			i++
		case c >= 0x20 && c != 0x7f && c < utf8.RuneSelf:
			res = s.flush(res)
			res = append(res, c)
			last, lastEnd = out[i:i+1], len(res)
			i++
		case c >= utf8.RuneSelf:
			res = s.flush(res)
			_, n := utf8.DecodeRune(out[i:])
			res = append(res, out[i:i+n]...)
			last, lastEnd = out[i:i+n], len(res)
			i += n
		default:
			// Anything else (other escape sequences, erasing, scrolling,
			// modes, hyperlinks) gets the pen as the renderer meant it.
			res = s.flush(res)
			last = nil
			n := i + 1
			if c == 0x1b {
				if n = skipEscape(out, i); n < 0 {
					return append(res, out[i:]...)
				}
			}
			res = append(res, out[i:n]...)
			i = n
		}
	}
	return res
}

// sgr takes in the style sequence seq with parameters params.
func (s *styleRewrite) sgr(res, seq, params []byte) []byte {
	if s.opaque {
		if p, ok := applySGR(pen{}, params); ok && startsWithReset(params) {
			s.opaque, s.term, s.want = false, p, p
		}
		return append(res, seq...)
	}
	p, ok := applySGR(s.want, params)
	if !ok {
		// Not read here: what is pending goes first, then this as it is.
		res = s.flush(res)
		s.opaque = true
		return append(res, seq...)
	}
	s.want = p
	return res
}

// rep takes in REP (seq, with parameters params: the character last
// again, n times), where res ended with last at lastEnd. Terminals such
// as tmux forget the character to repeat at any control sequence, a style
// included, so nothing is ever written between the character and its
// REP: when anything is (a style change due, or one the renderer wrote
// there that goes out as it is), the character goes out once more after
// it and the REP repeats the rest.
func (s *styleRewrite) rep(res, seq, params, last []byte, lastEnd int) []byte {
	if last == nil {
		// Nothing known to repeat: as the renderer wrote it.
		res = s.flush(res)
		return append(res, seq...)
	}
	if !(last[0] == ' ' && blankLooksSame(s.term, s.want)) {
		res = s.flush(res)
	}
	if len(res) == lastEnd {
		return append(res, seq...)
	}
	n, err := strconv.Atoi(string(params))
	if err != nil || n < 1 {
		n = 1
	}
	res = append(res, last...)
	if n > 1 {
		res = append(res, "\x1b["...)
		res = strconv.AppendInt(res, int64(n-1), 10)
		res = append(res, 'b')
	}
	return res
}

// startsWithReset reports SGR parameters that begin with a reset, so that
// the pen after them does not depend on the one before.
func startsWithReset(params []byte) bool {
	return len(params) == 0 || params[0] == ';' || params[0] == '0' && (len(params) == 1 || params[1] == ';')
}

// flush writes the change from the terminal's pen to the one wanted.
func (s *styleRewrite) flush(res []byte) []byte {
	if s.opaque || s.term == s.want {
		return res
	}
	res = appendPenChange(res, s.term, s.want)
	s.term = s.want
	return res
}

// reset says what puts the terminal's pen back to the default, "" when it
// is there; the pen is then taken to be the default.
func (s *styleRewrite) reset() string {
	was := s.opaque || !s.term.isZero()
	*s = styleRewrite{}
	if was {
		return "\x1b[m"
	}
	return ""
}

// appendPenChange appends the shortest SGR sequence that changes pen from
// to pen to: the attributes that differ, or a reset and to's whole style.
func appendPenChange(dst []byte, from, to pen) []byte {
	if to.isZero() {
		return append(dst, "\x1b[m"...)
	}
	var db, fb [96]byte
	diff := penDiff(db[:0], from, to)
	full := penParams(append(fb[:0], '0'), to)
	best := diff
	if len(full) < len(diff) {
		best = full
	}
	dst = append(dst, "\x1b["...)
	dst = append(dst, best...)
	return append(dst, 'm')
}

// attrParams are the parameters that turn each attribute on and off, in
// the order of penAttr.
var attrParams = [...]struct{ on, off string }{
	{"1", "22"}, {"2", "22"}, {"3", "23"}, {"5", "25"}, {"6", "25"}, {"7", "27"}, {"8", "28"}, {"9", "29"},
}

// penParams appends the parameters that set p on a pen reset just before.
func penParams(dst []byte, p pen) []byte {
	add := func(v string) {
		if len(dst) > 0 {
			dst = append(dst, ';')
		}
		dst = append(dst, v...)
	}
	for _, v := range []string{p.fg, p.bg, p.ulColor, p.underline} {
		if v != "" {
			add(v)
		}
	}
	for k, a := range attrParams {
		if p.attrs&(1<<k) != 0 {
			add(a.on)
		}
	}
	return dst
}

// penDiff appends the parameters that change pen from into pen to.
func penDiff(dst []byte, from, to pen) []byte {
	add := func(v string) {
		if len(dst) > 0 {
			dst = append(dst, ';')
		}
		dst = append(dst, v...)
	}
	for _, c := range []struct{ from, to, def string }{
		{from.fg, to.fg, "39"}, {from.bg, to.bg, "49"}, {from.ulColor, to.ulColor, "59"}, {from.underline, to.underline, "24"},
	} {
		switch {
		case c.from == c.to:
		case c.to == "":
			add(c.def)
		default:
			add(c.to)
		}
	}
	// One parameter turns off both bold and faint, and one both blinks:
	// after it the one still wanted is set again.
	gone := from.attrs &^ to.attrs
	set := to.attrs &^ from.attrs
	for _, pair := range []penAttr{penBold | penFaint, penBlink | penRapidBlink} {
		if gone&pair != 0 {
			set |= to.attrs & pair
			gone = gone&^pair | pair&-pair // its first attribute's parameter turns off both
		}
	}
	for k, a := range attrParams {
		if gone&(1<<k) != 0 {
			add(a.off)
		}
	}
	for k, a := range attrParams {
		if set&(1<<k) != 0 {
			add(a.on)
		}
	}
	return dst
}

// applySGR is p after the SGR parameters params; ok is false for a
// parameter not read here.
func applySGR(p pen, params []byte) (pen, bool) {
	if len(params) == 0 {
		return pen{}, true
	}
	fields := bytes.Split(params, []byte(";"))
	for i := 0; i < len(fields); i++ {
		f := string(fields[i])
		switch f {
		case "", "0":
			p = pen{}
		case "1", "2", "3", "5", "6", "7", "8", "9":
			for k, a := range attrParams {
				if a.on == f {
					p.attrs |= 1 << k
				}
			}
		case "4":
			p.underline = f
		case "22":
			p.attrs &^= penBold | penFaint
		case "23":
			p.attrs &^= penItalic
		case "24":
			p.underline = ""
		case "25":
			p.attrs &^= penBlink | penRapidBlink
		case "27":
			p.attrs &^= penReverse
		case "28":
			p.attrs &^= penConceal
		case "29":
			p.attrs &^= penStrike
		case "39":
			p.fg = ""
		case "49":
			p.bg = ""
		case "59":
			p.ulColor = ""
		case "38", "48", "58":
			// 38;5;n or 38;2;r;g;b, kept whole.
			n := 0
			switch {
			case i+2 < len(fields) && string(fields[i+1]) == "5":
				n = 2
			case i+4 < len(fields) && string(fields[i+1]) == "2":
				n = 4
			default:
				return p, false
			}
			v := string(bytes.Join(fields[i:i+n+1], []byte(";")))
			i += n
			switch f {
			case "38":
				p.fg = v
			case "48":
				p.bg = v
			default:
				p.ulColor = v
			}
		default:
			switch {
			case len(f) == 2 && (f[0] == '3' || f[0] == '9') && f[1] >= '0' && f[1] <= '7':
				p.fg = f
			case len(f) == 2 && f[0] == '4' && f[1] >= '0' && f[1] <= '7':
				p.bg = f
			case len(f) == 3 && f[:2] == "10" && f[2] >= '0' && f[2] <= '7':
				p.bg = f
			case f == "4:0":
				p.underline = ""
			case len(f) == 3 && f[:2] == "4:" && f[2] >= '1' && f[2] <= '5':
				p.underline = f
			default:
				return p, false
			}
		}
	}
	return p, true
}
