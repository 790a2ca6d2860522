package safetext

import (
	"io"
	"unicode/utf8"
)

// Writer sanitises a stream of text under a mode as it is written to a
// terminal: a rune, or a "\r\n", split between two writes is handled as if
// it had been written at once. Call Flush at the end, which writes what a
// last, unfinished write held back.
type Writer struct {
	w    io.Writer
	m    Mode
	col  int
	held []byte // an incomplete rune or a "\r" at the end of the last write
	buf  []byte
}

// NewWriter returns a Writer that writes s sanitised under m to w.
func NewWriter(w io.Writer, m Mode) *Writer { return &Writer{w: w, m: m} }

// Write implements io.Writer. It reports len(p) written when the
// sanitised text was written whole.
func (w *Writer) Write(p []byte) (int, error) {
	s := string(append(w.held, p...))
	w.held = w.held[:0]
	cut := len(s)
	// Hold back an incomplete rune at the end, and a "\r" that a "\n" in
	// the next write could make a line break.
	if i := lastRuneStart(s); i >= 0 && !utf8.FullRuneInString(s[i:]) {
		cut = i
	} else if cut > 0 && s[cut-1] == '\r' {
		cut--
	}
	w.held = append(w.held, s[cut:]...)
	w.buf, w.col = Append(w.buf[:0], s[:cut], w.col, w.m)
	if _, err := w.w.Write(w.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what the last write held back.
func (w *Writer) Flush() error {
	if len(w.held) == 0 {
		return nil
	}
	w.buf, w.col = Append(w.buf[:0], string(w.held), w.col, w.m)
	w.held = w.held[:0]
	_, err := w.w.Write(w.buf)
	return err
}

// lastRuneStart is the index of the first byte of the last rune of s, or
// -1 when s is empty or ends in ASCII.
func lastRuneStart(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if c := s[i]; c < utf8.RuneSelf {
			return -1
		} else if utf8.RuneStart(c) {
			return i
		}
	}
	return -1
}

// JSONWriter makes JSON safe to show on a terminal without changing what
// it means: control and format characters that encoding/json leaves in
// strings as they are (C1 controls, bidirectional and zero-width
// characters) are written as \u escapes, which decode to the same text.
// Flush writes an incomplete rune a last write held back.
type JSONWriter struct {
	w    io.Writer
	held []byte
	buf  []byte
}

// NewJSONWriter returns a JSONWriter writing to w.
func NewJSONWriter(w io.Writer) *JSONWriter { return &JSONWriter{w: w} }

// Write implements io.Writer.
func (w *JSONWriter) Write(p []byte) (int, error) {
	s := string(append(w.held, p...))
	w.held = w.held[:0]
	cut := len(s)
	if i := lastRuneStart(s); i >= 0 && !utf8.FullRuneInString(s[i:]) {
		cut = i
	}
	w.held = append(w.held, s[cut:]...)
	w.buf = appendJSON(w.buf[:0], s[:cut])
	if _, err := w.w.Write(w.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what the last write held back.
func (w *JSONWriter) Flush() error {
	if len(w.held) == 0 {
		return nil
	}
	w.buf = appendJSON(w.buf[:0], string(w.held))
	w.held = w.held[:0]
	_, err := w.w.Write(w.buf)
	return err
}

// appendJSON appends JSON text s with every character the policy escapes
// written as a JSON \u escape (a surrogate pair above U+FFFF). Control
// characters below 0x20 only occur escaped in valid JSON; a raw one is
// escaped too, and an invalid byte becomes U+FFFD, as encoding/json does.
func appendJSON(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	u := func(b []byte, r rune) []byte {
		return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf || c == '\n' || c == '\t' {
			b = append(b, c)
			i++
			continue
		}
		k, size := classify(s, i, Exact)
		r, _ := utf8.DecodeRuneInString(s[i:])
		switch {
		case k != kindEscape:
			b = append(b, s[i:i+size]...)
		case r == utf8.RuneError && size == 1:
			b = u(b, utf8.RuneError)
		case r > 0xffff:
			r -= 0x10000
			b = u(u(b, 0xd800+(r>>10)), 0xdc00+(r&0x3ff))
		default:
			b = u(b, r)
		}
		i += size
	}
	return b
}
