package llm

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// rawText is a JSON value kept undecoded, so that string fragments can be
// unescaped without losing bytes that only make sense joined with the next
// fragment (a multi-byte character or a surrogate pair split across chunks).
type rawText []byte

// UnmarshalJSON keeps a copy of the raw value.
func (r *rawText) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}

// fragment returns the bytes a rawText contributes to a text stream: the
// unescaped string (invalid UTF-8 and lone surrogates preserved), the text
// parts of an array of content parts, or nothing for null and other values.
func (r rawText) fragment() []byte {
	b := bytes.TrimSpace(r)
	if len(b) == 0 {
		return nil
	}
	switch b[0] {
	case '"':
		return unquoteLoose(b)
	case '[':
		var parts []struct {
			Type string  `json:"type"`
			Text rawText `json:"text"`
		}
		if json.Unmarshal(b, &parts) != nil {
			return nil
		}
		var out []byte
		for _, p := range parts {
			out = append(out, p.Text.fragment()...)
		}
		return out
	}
	return nil
}

// unquoteLoose decodes a JSON string literal like encoding/json does, except
// that bytes which are not valid UTF-8 are kept as they are and a lone
// surrogate escape is written as its three-byte (WTF-8) form, so a later
// fragment can complete it. An unterminated or malformed literal yields what
// could be decoded.
func unquoteLoose(q []byte) []byte {
	if len(q) < 2 || q[0] != '"' {
		return nil
	}
	s := q[1:]
	if end := len(s) - 1; end >= 0 && s[end] == '"' && bytes.IndexByte(s[:end], '\\') < 0 {
		return bytes.Clone(s[:end]) // fast path: no escapes
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			break
		}
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(s) {
			break
		}
		switch s[i] {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			r, ok := hex4(s[i+1:])
			if !ok {
				out = append(out, '\\', 'u')
				continue
			}
			i += 4
			if r >= 0xD800 && r < 0xDC00 && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				if lo, ok := hex4(s[i+3:]); ok && lo >= 0xDC00 && lo < 0xE000 {
					out = utf8.AppendRune(out, 0x10000+(r-0xD800)<<10+(lo-0xDC00))
					i += 6
					continue
				}
			}
			out = appendWTF8(out, r)
		default:
			out = append(out, s[i]) // \" \\ \/ and anything else literally
		}
	}
	return out
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// appendWTF8 writes r in the three-byte form UTF-8 would use, even for a
// surrogate, which utf8.AppendRune would replace.
func appendWTF8(b []byte, r rune) []byte {
	if r < 0xD800 || r > 0xDFFF {
		return utf8.AppendRune(b, r)
	}
	return append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
}

// textStream joins the fragments of one streamed text (the answer, the
// reasoning, or one tool call's arguments). It hands out only complete
// characters: an incomplete UTF-8 sequence or a high surrogate at the end is
// held back until the next fragment completes it, and what cannot be
// completed becomes U+FFFD. The full text is always the concatenation of
// what was handed out.
type textStream struct {
	pending []byte
	full    strings.Builder
}

// add appends a fragment and returns the newly completed text.
func (t *textStream) add(frag []byte) string {
	if len(frag) == 0 {
		return ""
	}
	if len(t.pending) > 0 {
		t.pending = append(t.pending, frag...)
	} else {
		t.pending = frag
	}
	t.pending = joinSurrogates(t.pending)
	end := completePrefix(t.pending)
	out := t.emit(t.pending[:end])
	t.pending = append([]byte(nil), t.pending[end:]...)
	return out
}

// flush hands out whatever is still held back, replacing what cannot form a
// character.
func (t *textStream) flush() string {
	out := t.emit(t.pending)
	t.pending = nil
	return out
}

// replace drops everything and starts over with s, for servers that send a
// whole value where fragments were expected.
func (t *textStream) replace(s string) {
	t.pending = nil
	t.full.Reset()
	t.full.WriteString(strings.ToValidUTF8(s, "\uFFFD"))
}

func (t *textStream) emit(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	s := string(b)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	t.full.WriteString(s)
	return s
}

// String returns the text handed out so far.
func (t *textStream) String() string { return t.full.String() }

// Len is the length of the text handed out so far.
func (t *textStream) Len() int { return t.full.Len() }

// joinSurrogates turns each WTF-8 high surrogate followed by a WTF-8 low
// surrogate into the four-byte UTF-8 form of the pair.
func joinSurrogates(b []byte) []byte {
	for i := bytes.IndexByte(b, 0xED); i >= 0 && i+6 <= len(b); {
		if b[i+1] >= 0xA0 && b[i+1] <= 0xAF && b[i+3] == 0xED && b[i+4] >= 0xB0 && b[i+4] <= 0xBF {
			hi := rune(b[i+1]&0x0F)<<6 | rune(b[i+2]&0x3F) | 0xD800
			lo := rune(b[i+4]&0x0F)<<6 | rune(b[i+5]&0x3F) | 0xDC00
			r := 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00)
			var enc [4]byte
			n := utf8.EncodeRune(enc[:], r)
			b = append(b[:i], append(enc[:n], b[i+6:]...)...)
		}
		j := bytes.IndexByte(b[i+1:], 0xED)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return b
}

// completePrefix returns the length of the longest prefix of b that does not
// end in the middle of a character or on a high surrogate that a following
// fragment could complete.
func completePrefix(b []byte) int {
	n := len(b)
	// Look at most 3 bytes back for the start of the last sequence.
	for back := 1; back <= 3 && back <= n; back++ {
		c := b[n-back]
		if c < 0x80 {
			return n // ASCII: nothing open
		}
		if c >= 0xC0 { // a leading byte
			need := 0
			switch {
			case c >= 0xF0:
				need = 4
			case c >= 0xE0:
				need = 3
			default:
				need = 2
			}
			if back < need {
				return n - back // incomplete: hold it back
			}
			if need == 3 && c == 0xED && b[n-back+1] >= 0xA0 && b[n-back+1] <= 0xAF {
				return n - back // a high surrogate waiting for its pair
			}
			return n
		}
	}
	return n
}
