package transcript

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// keyArgNames are the arguments that say best what a tool call does, most
// telling first: a card shows the first one present.
var keyArgNames = [...]string{"command", "path", "file_path", "pattern", "query", "url", "name"}

// keyArgument picks the argument a tool card shows from a call's JSON
// arguments, which may still be streaming and so be cut off anywhere.
// It returns the value as far as it has arrived; ok is false while none of
// keyArgNames has started.
func keyArgument(args string) (name, value string, ok bool) {
	fields := partialStringFields(args)
	for _, k := range keyArgNames {
		for _, f := range fields {
			if f.key == k {
				return f.key, f.value, true
			}
		}
	}
	return "", "", false
}

// stringField is the value of the top-level string field key of a JSON
// object that may still be streaming, as far as it has arrived.
func stringField(args, key string) string {
	for _, f := range partialStringFields(args) {
		if f.key == key {
			return f.value
		}
	}
	return ""
}

// jsonField is a top-level string field of a JSON object.
type jsonField struct {
	key, value string
	complete   bool // the closing quote has arrived
}

// partialStringFields returns the top-level string fields of a JSON object
// that may be cut off anywhere, in the order they appear. The last one may
// be incomplete. Other values (numbers, arrays, objects) are skipped. It
// never fails: on text that is not JSON it returns what it read before.
func partialStringFields(s string) []jsonField {
	p := jsonScanner{s: s}
	p.space()
	if !p.eat('{') {
		return nil
	}
	var out []jsonField
	for {
		p.space()
		if p.eof() || p.eat('}') {
			return out
		}
		if p.eat(',') {
			continue
		}
		if !p.eat('"') {
			return out
		}
		key, done := p.str()
		if !done {
			return out
		}
		p.space()
		if !p.eat(':') {
			return out
		}
		p.space()
		if p.eof() {
			return out
		}
		if p.eat('"') {
			val, done := p.str()
			out = append(out, jsonField{key: key, value: val, complete: done})
			if !done {
				return out
			}
			continue
		}
		if !p.skipValue() {
			return out
		}
	}
}

type jsonScanner struct {
	s string
	i int
}

func (p *jsonScanner) eof() bool { return p.i >= len(p.s) }

func (p *jsonScanner) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *jsonScanner) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// str reads a string body after its opening quote. done is false when the
// input ends first; an escape cut off at the end is left out.
func (p *jsonScanner) str() (string, bool) {
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), true
		case c != '\\':
			// Copy the run up to the next quote or backslash at once.
			j := p.i
			for j < len(p.s) && p.s[j] != '"' && p.s[j] != '\\' {
				j++
			}
			b.WriteString(p.s[p.i:j])
			p.i = j
			continue
		}
		// An escape.
		if p.i+1 >= len(p.s) {
			p.i = len(p.s)
			return b.String(), false
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				p.i = len(p.s)
				return b.String(), false
			}
			if utf16.IsSurrogate(r) {
				// A pair is needed; the low half may not have arrived yet.
				if p.i+1 < len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					r2, ok := p.hex4()
					if !ok {
						p.i = len(p.s)
						return b.String(), false
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						b.WriteRune(dec)
						continue
					}
					p.i = save
				} else if p.i+2 > len(p.s) {
					p.i = len(p.s)
					return b.String(), false
				}
				b.WriteRune(utf8.RuneError)
				continue
			}
			b.WriteRune(r)
		default: // '"', '\\', '/' and anything unknown stand for themselves
			b.WriteByte(e)
		}
	}
	return b.String(), false
}

// hex4 reads the four hex digits of a \u escape.
func (p *jsonScanner) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(p.s[p.i : p.i+4]) {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			p.i += 4
			return utf8.RuneError, true
		}
	}
	p.i += 4
	return r, true
}

// skipValue skips a number, literal, array or object. It reports false when
// the input ends inside the value.
func (p *jsonScanner) skipValue() bool {
	depth := 0
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			if _, done := p.str(); !done {
				return false
			}
			if depth == 0 {
				return true
			}
			continue
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return true // the end of the enclosing object
			}
			depth--
			if depth == 0 {
				p.i++
				return true
			}
		case c == ',' && depth == 0:
			return true
		}
		p.i++
	}
	return false
}
