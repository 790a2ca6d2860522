package llm

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// decodeTextChunk decodes the common shape of a streamed chunk (text or
// reasoning in the first choice's delta, a finish reason, fields pincer
// does not read) into c without reflection, and reports whether it could.
// A streamed answer is thousands of such chunks and decoding them with
// encoding/json was most of what reading the stream cost. Whenever the
// chunk holds anything else (tool calls, usage, an error, a key that
// differs from a known one only in case, a repeated key, an escaped key,
// invalid JSON), it returns false and the caller decodes with
// encoding/json: when it returns true, c is what json.Unmarshal would have
// made of data.
func decodeTextChunk(data []byte, c *wireChunk) bool {
	if bytes.Contains(data, []byte(`"tool_calls"`)) || bytes.Contains(data, []byte(`"function_call"`)) {
		// A call's fragments (or its finish) take the full decoder: no
		// work is spent on the fast one first. Inside a string a quote
		// is escaped, so these are keys or whole values.
		return false
	}
	d := chunkScanner{b: data}
	ok := d.object(func(key []byte) bool {
		switch string(key) {
		case "choices":
			return d.choices(c)
		case "object":
			s, ok := d.plainString()
			c.Object = s
			return ok
		case "usage":
			return d.null() // usage-only chunks take the full decoder
		}
		return d.other(key, "choices", "object", "usage", "error")
	})
	d.space()
	return ok && d.i == len(d.b)
}

// chunkScanner walks one chunk's bytes; i is the next byte to read.
type chunkScanner struct {
	b []byte
	i int
}

func (d *chunkScanner) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// next skips space and reports whether the next byte is c, consuming it
// when it is.
func (d *chunkScanner) next(c byte) bool {
	d.space()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// object reads an object, calling field for each key with the scanner at
// its value; field reads the value and reports whether that went well. A
// key that repeats fails: encoding/json's rules for repeats are not worth
// copying.
func (d *chunkScanner) object(field func(key []byte) bool) bool {
	if !d.next('{') {
		return false
	}
	var seen [16][]byte
	n := 0
	if d.next('}') {
		return true
	}
	for {
		d.space()
		key, ok := d.key()
		if !ok || !d.next(':') {
			return false
		}
		for _, k := range seen[:n] {
			if bytes.Equal(k, key) {
				return false
			}
		}
		if n == len(seen) {
			return false
		}
		seen[n] = key
		n++
		d.space()
		if !field(key) {
			return false
		}
		if d.next('}') {
			return true
		}
		if !d.next(',') {
			return false
		}
	}
}

// key reads an object key without escapes.
func (d *chunkScanner) key() ([]byte, bool) {
	start := d.i
	if !d.str() {
		return nil, false
	}
	k := d.b[start+1 : d.i-1]
	for _, c := range k {
		if c == '\\' || c >= utf8.RuneSelf {
			return nil, false // escaped, or matched by Unicode case folding
		}
	}
	return k, true
}

// other skips the value of a key pincer does not read at this level; a key
// that encoding/json would match to one of known (it ignores case) fails.
func (d *chunkScanner) other(key []byte, known ...string) bool {
	for _, k := range known {
		if strings.EqualFold(string(key), k) {
			return false
		}
	}
	return d.value()
}

// null consumes a JSON null.
func (d *chunkScanner) null() bool {
	if bytes.HasPrefix(d.b[d.i:], []byte("null")) {
		d.i += 4
		return true
	}
	return false
}

// plainString reads a string without escapes or control characters.
func (d *chunkScanner) plainString() (string, bool) {
	start := d.i
	if !d.str() {
		return "", false
	}
	s := d.b[start+1 : d.i-1]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return "", false
	}
	switch string(s) { // the usual values, without a copy each chunk
	case "chat.completion.chunk":
		return "chat.completion.chunk", true
	case "stop":
		return "stop", true
	}
	return string(s), true
}

func (d *chunkScanner) choices(c *wireChunk) bool {
	if d.null() {
		c.Choices = nil
		return true
	}
	if !d.next('[') {
		return false
	}
	c.Choices = []wireChoice{}
	if d.next(']') {
		return true
	}
	for {
		var ch wireChoice
		if !d.choice(&ch) {
			return false
		}
		c.Choices = append(c.Choices, ch)
		if d.next(']') {
			return true
		}
		if !d.next(',') {
			return false
		}
	}
}

func (d *chunkScanner) choice(ch *wireChoice) bool {
	d.space()
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "index":
			if d.null() {
				return true
			}
			n, ok := d.smallInt()
			ch.Index = &n
			return ok
		case "delta":
			if d.null() {
				return true
			}
			ch.Delta = &wireDelta{}
			return d.delta(ch.Delta)
		case "finish_reason":
			if d.null() {
				return true
			}
			s, ok := d.plainString()
			ch.FinishReason = &s
			return ok
		}
		return d.other(key, "index", "delta", "message", "finish_reason")
	})
}

func (d *chunkScanner) delta(w *wireDelta) bool {
	return d.object(func(key []byte) bool {
		start := d.i
		switch string(key) {
		case "content":
			ok := d.value()
			w.Content = rawText(d.b[start:d.i])
			return ok
		case "reasoning_content":
			ok := d.value()
			w.ReasoningContent = rawText(d.b[start:d.i])
			return ok
		case "reasoning":
			ok := d.value()
			w.Reasoning = rawText(d.b[start:d.i])
			return ok
		case "tool_calls", "function_call":
			return d.null()
		}
		return d.other(key, "content", "reasoning_content", "reasoning", "tool_calls", "function_call")
	})
}

// smallInt reads an integer of at most nine digits.
func (d *chunkScanner) smallInt() (int, bool) {
	neg := d.i < len(d.b) && d.b[d.i] == '-'
	if neg {
		d.i++
	}
	start, n := d.i, 0
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' && d.i-start < 10 {
		n = n*10 + int(d.b[d.i]-'0')
		d.i++
	}
	digits := d.i - start
	if digits == 0 || digits > 9 || digits > 1 && d.b[start] == '0' {
		return 0, false
	}
	if d.i < len(d.b) {
		switch d.b[d.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

// value skips one JSON value, checking it as strictly as encoding/json.
func (d *chunkScanner) value() bool {
	d.space()
	if d.i >= len(d.b) {
		return false
	}
	switch c := d.b[d.i]; {
	case c == '"':
		return d.str()
	case c == '{':
		d.i++
		if d.next('}') {
			return true
		}
		for {
			d.space()
			if !d.str() || !d.next(':') || !d.value() {
				return false
			}
			if d.next('}') {
				return true
			}
			if !d.next(',') {
				return false
			}
		}
	case c == '[':
		d.i++
		if d.next(']') {
			return true
		}
		for {
			if !d.value() {
				return false
			}
			if d.next(']') {
				return true
			}
			if !d.next(',') {
				return false
			}
		}
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return false
}

func (d *chunkScanner) literal(s string) bool {
	if bytes.HasPrefix(d.b[d.i:], []byte(s)) {
		d.i += len(s)
		return true
	}
	return false
}

// number skips a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *chunkScanner) number() bool {
	digits := func() int {
		n := 0
		for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.b[d.i] == '-' {
		d.i++
	}
	if d.i < len(d.b) && d.b[d.i] == '0' {
		d.i++
	} else if digits() == 0 {
		return false
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return false
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// str skips a string literal: no raw control characters, only the escapes
// JSON allows.
func (d *chunkScanner) str() bool {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return false
	}
	for d.i++; d.i < len(d.b); d.i++ {
		switch c := d.b[d.i]; {
		case c == '"':
			d.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			d.i++
			if d.i >= len(d.b) {
				return false
			}
			switch d.b[d.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if d.i+4 >= len(d.b) {
					return false
				}
				for _, h := range d.b[d.i+1 : d.i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return false
					}
				}
				d.i += 4
			default:
				return false
			}
		}
	}
	return false
}
