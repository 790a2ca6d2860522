// Package safetext is pincer's one policy for drawing foreign text — the
// model's words and tool arguments, files, command output, server bodies —
// on a terminal: nothing in it may drive the terminal or hide from the
// reader, so what a person sees is what is there.
//
// The policy, the same in every view:
//
//   - C0 controls and DEL are shown as their Unicode control pictures:
//     ESC as ␛, BEL as ␇, backspace as ␈, a carriage return as ␍, DEL as ␡.
//     An escape sequence is therefore drawn, not obeyed: "\x1b[2J" is shown
//     as "␛[2J", an OSC 52 clipboard write as "␛]52;c;…␇", an OSC 8 link as
//     "␛]8;;url␛\". The same holds for DCS, APC, SOS and PM strings.
//   - C1 controls (U+0080–U+009F, including the 8-bit CSI U+009B), invisible
//     format characters (Unicode category Cf: bidirectional overrides,
//     embeddings, isolates and marks, zero-width spaces and joiners, the
//     byte-order mark, tag characters, the soft hyphen) and the line and
//     paragraph separators U+2028/U+2029 are shown by code point: "⟨U+202E⟩".
//   - A byte that is not valid UTF-8 is shown by value: "⟨0x9B⟩".
//   - Tabs are expanded to the next stop of TabWidth columns.
//   - In a multi-line view (Text) "\n" is kept and "\r\n" is a line break; a
//     carriage return anywhere else is shown as ␍ and never returns the
//     cursor. Exact keeps every "\r" visible, for text whose bytes matter
//     (a command about to run). In a one-line view (Line) "\n" is shown as
//     ␊.
//
// Sanitise foreign text before styling it; pincer's own styling (lipgloss,
// glamour) is applied afterwards and is not foreign.
package safetext

import (
	"encoding/binary"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// TabWidth is the distance between tab stops; it is also CommonMark's, so
// expanding tabs keeps markdown's meaning.
const TabWidth = 4

// Mode says how line breaks are drawn.
type Mode uint8

const (
	// Line is for one-line views (paths, names, the status line, pickers):
	// a newline is shown as ␊ and a carriage return as ␍.
	Line Mode = iota
	// Text is for multi-line views (the transcript, tool output): "\n" and
	// "\r\n" are line breaks, a lone "\r" is shown as ␍.
	Text
	// Exact is Text with every "\r" shown, also before "\n", and every
	// space other than U+0020 by its code point, for text whose bytes
	// matter, like a command about to run.
	Exact
)

// LineOf returns s made safe for a one-line view.
func LineOf(s string) string { return Sanitize(s, Line) }

// TextOf returns s made safe for a multi-line view.
func TextOf(s string) string { return Sanitize(s, Text) }

// Sanitize returns s drawn under mode m. Text that needs no change
// (printable ASCII, and newlines where m keeps them) is returned as it is,
// without copying.
func Sanitize(s string, m Mode) string {
	if isPlain(s, m) {
		return s
	}
	b, _, _ := appendSafe(make([]byte, 0, len(s)+len(s)/4+16), s, 0, m)
	return string(b)
}

// Append appends s as drawn under mode m to b. col is the column s starts
// at (tab stops depend on it); the column after s is returned, so text can
// be converted piece by piece with the same result as converting it whole.
// After a kept line break the column starts again at 0.
func Append(b []byte, s string, col int, m Mode) ([]byte, int) {
	b, col, mark := appendSafe(b, s, col, m)
	return b, col + displaywidth.Bytes(b[mark:])
}

// appendSafe appends s as drawn under m to b. It measures widths only when
// a tab needs its column: it returns the column at b[mark], and what
// follows mark, which holds no line break, is not measured yet.
func appendSafe(b []byte, s string, col int, m Mode) ([]byte, int, int) {
	mark := len(b)
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			// A run of printable ASCII, the common case, is copied at once.
			j := i + 1
			for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f {
				j++
			}
			b = append(b, s[i:j]...)
			i = j
			continue
		}
		k, size := classify(s, i, m)
		switch k {
		case kindBreak:
			b = append(b, '\n')
			col, mark = 0, len(b)
		case kindTab:
			col += displaywidth.Bytes(b[mark:])
			n := TabWidth - col%TabWidth
			b = append(b, "    "[:n]...)
			col += n
			mark = len(b)
		case kindEscape:
			b = appendEscape(b, s[i:i+size])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return b, col, mark
}

// Span is a piece of drawn text: either foreign text as it is, or the
// visible form of something that was escaped.
type Span struct {
	Text    string
	Escaped bool
	// Break reports a kept line break; Text is empty.
	Break bool
}

// Spans splits s as drawn under mode m into plain and escaped pieces and
// kept line breaks, so a view can mark what was escaped (the approval
// dialog shows it in reverse video). Tabs are expanded from column 0 after
// each break. Joining the texts, with "\n" for breaks, gives Sanitize(s, m).
func Spans(s string, m Mode) []Span {
	var out []Span
	var plain []byte
	col := 0
	flush := func() {
		if len(plain) > 0 {
			out = append(out, Span{Text: string(plain)})
			plain = plain[:0]
		}
	}
	for i := 0; i < len(s); {
		k, size := classify(s, i, m)
		switch k {
		case kindBreak:
			flush()
			out = append(out, Span{Break: true})
			col = 0
		case kindEscape:
			flush()
			repr := string(appendEscape(nil, s[i:i+size]))
			out = append(out, Span{Text: repr, Escaped: true})
			col += utf8.RuneCountInString(repr)
		default:
			plain, col = Append(plain, s[i:i+size], col, m)
		}
		i += size
	}
	flush()
	return out
}

type kind uint8

const (
	kindPlain kind = iota
	kindBreak
	kindTab
	kindEscape
)

// classify says what the character at s[i] is under mode m, and its
// length in bytes.
func classify(s string, i int, m Mode) (kind, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		switch {
		case c == '\n':
			if m == Line {
				return kindEscape, 1
			}
			return kindBreak, 1
		case c == '\r' && m == Text && i+1 < len(s) && s[i+1] == '\n':
			return kindBreak, 2
		case c == '\t':
			return kindTab, 1
		case c < 0x20, c == 0x7f:
			return kindEscape, 1
		}
		return kindPlain, 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1,
		r < 0xa0, r == 0x2028, r == 0x2029,
		r >= 0xad && unicode.Is(unicode.Cf, r):
		return kindEscape, size
	case m == Exact && unicode.Is(unicode.Zs, r):
		// A space that is not U+0020 looks like a word break in a
		// command and is none: the shell keeps it inside the word.
		return kindEscape, size
	}
	return kindPlain, size
}

// appendEscape appends the visible form of e, one character that
// classify calls an escape: a control picture for a C0 control or DEL, the
// byte's value for a byte that is not UTF-8, else the code point.
func appendEscape(b []byte, e string) []byte {
	const hex = "0123456789ABCDEF"
	c := e[0]
	switch {
	case c < 0x20:
		return append(b, controlPicture(c)...)
	case c == 0x7f:
		return append(b, "␡"...)
	}
	r, size := utf8.DecodeRuneInString(e)
	if r == utf8.RuneError && size == 1 {
		b = append(b, "⟨0x"...)
		return append(append(b, hex[c>>4], hex[c&0xf]), "⟩"...)
	}
	b = append(b, "⟨U+"...)
	digits := 4
	for v := r >> 16; v > 0; v >>= 4 {
		digits++
	}
	for d := digits - 1; d >= 0; d-- {
		b = append(b, hex[r>>(4*d)&0xf])
	}
	return append(b, "⟩"...)
}

// isPlain reports whether s is drawn as it is under m: printable ASCII,
// and newlines where m keeps them. It is the fast path for most text, so it
// looks at eight bytes at a time and only at bytes one by one in a word
// that holds a control character or a byte from 0x7f up.
func isPlain(s string, m Mode) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		// A byte below 0x20 borrows into its high bit when 0x20 is taken
		// away; a byte from 0x7f up has its high bit set after adding 1.
		if ((w-0x20*ones)&^w|(w+ones)|w)&highs == 0 {
			continue
		}
		if !plainBytes(s[i:i+8], m) {
			return false
		}
	}
	return plainBytes(s[i:], m)
}

// plainBytes is isPlain a byte at a time.
func plainBytes(s string, m Mode) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x7f || (c < 0x20 && (c != '\n' || m == Line)) {
			return false
		}
	}
	return true
}

// controlPictures are the Unicode control pictures of the C0 controls,
// U+2400–U+241F, three bytes each.
const controlPictures = "␀␁␂␃␄␅␆␇␈␉␊␋␌␍␎␏␐␑␒␓␔␕␖␗␘␙␚␛␜␝␞␟"

// controlPicture is the picture of C0 control c.
func controlPicture(c byte) string { return controlPictures[3*int(c) : 3*int(c)+3] }
