package llm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// sseEvent is one dispatched server-sent event: its name (empty for the
// default "message") and its data with the lines joined by "\n".
type sseEvent struct {
	Name string
	Data []byte
}

// sseReader splits a text/event-stream body into events. It follows the
// WHATWG rules (CR, LF or CRLF line ends, comments, "data:" with or without
// the space, several data lines joined by "\n") and is lenient where
// OpenAI-compatible servers are sloppy: an event that is not ended by a blank
// line is still delivered, an "error:" line is delivered as an event named
// "error", and consecutive data lines that each hold a whole
// JSON value are delivered as separate events.
type sseReader struct {
	r    *bufio.Reader
	line []byte
	data bytes.Buffer
	name string
	has  bool     // data holds at least one data line
	next [][]byte // lines split off a line that contained bare CRs
	eof  bool
	max  int // bound on one event in bytes; 0: none
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 32*1024)}
}

// newSSEReaderMax is newSSEReader with a bound on one event (and one
// line) in bytes: past it, reading stops with errEventTooLarge rather
// than holding whatever the server sends.
func newSSEReaderMax(r io.Reader, max int) *sseReader {
	s := newSSEReader(r)
	s.max = max
	return s
}

// errEventTooLarge is returned for an event over the reader's bound.
var errEventTooLarge = errors.New("the model server sent one event larger than pincer reads; the answer was stopped (a tool call's arguments are bounded by tool_args_max_kb)")

// Next returns the next event, or io.EOF once the body is exhausted and
// every buffered event has been delivered.
func (s *sseReader) Next() (sseEvent, error) {
	for {
		line, err := s.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && s.has {
				return s.dispatch(), nil
			}
			return sseEvent{}, err
		}
		if len(line) == 0 {
			if s.has {
				return s.dispatch(), nil
			}
			s.name = ""
			continue
		}
		if line[0] == ':' {
			continue // comment or keep-alive
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			if s.has && completeJSON(s.data.Bytes()) && len(bytes.TrimSpace(value)) > 0 {
				// A server that omits the blank line between events: the
				// buffered data is already a whole value, so deliver it and
				// keep this line for the next event.
				ev := s.dispatch()
				s.appendData(value)
				return ev, nil
			}
			s.appendData(value)
			if s.max > 0 && s.data.Len() > s.max {
				return sseEvent{}, errEventTooLarge
			}
		case "event":
			s.name = string(value)
		case "error":
			// Not a standard field: older llama.cpp servers report a failure
			// at HTTP 200 as a line "error: {...}". It is an error event.
			if s.has {
				ev := s.dispatch()
				s.name = "error"
				s.appendData(value)
				return ev, nil
			}
			s.name = "error"
			s.appendData(value)
		}
	}
}

func (s *sseReader) appendData(value []byte) {
	if s.has {
		s.data.WriteByte('\n')
	}
	s.data.Write(value)
	s.has = true
}

func (s *sseReader) dispatch() sseEvent {
	ev := sseEvent{Name: s.name, Data: bytes.Clone(s.data.Bytes())}
	s.data.Reset()
	s.has = false
	s.name = ""
	return ev
}

// readLine returns the next line without its terminator. A line ended by
// EOF is returned before io.EOF.
func (s *sseReader) readLine() ([]byte, error) {
	if len(s.next) > 0 {
		l := s.next[0]
		s.next = s.next[1:]
		return l, nil
	}
	if s.eof {
		return nil, io.EOF
	}
	s.line = s.line[:0]
	for {
		chunk, err := s.r.ReadSlice('\n')
		s.line = append(s.line, chunk...)
		if s.max > 0 && len(s.line) > s.max {
			return nil, errEventTooLarge
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return nil, err
			}
			s.eof = true
			if len(s.line) == 0 {
				return nil, io.EOF
			}
		}
		break
	}
	l := bytes.TrimSuffix(s.line, []byte("\n"))
	l = bytes.TrimSuffix(l, []byte("\r"))
	if bytes.IndexByte(l, '\r') >= 0 {
		parts := bytes.Split(l, []byte("\r"))
		s.next = append(s.next, parts[1:]...)
		return parts[0], nil
	}
	return l, nil
}

// completeJSON reports whether b is one whole JSON value, cheaply ruling out
// the common case of a value that is still open.
func completeJSON(b []byte) bool {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return false
	}
	switch b[len(b)-1] {
	case '}', ']':
		return json.Valid(b)
	}
	return bytes.Equal(b, []byte("[DONE]"))
}

// splitJSONValues splits data holding several concatenated JSON values (the
// data lines of a server that never sends blank lines) into the values. It
// returns nil when data is not such a sequence.
func splitJSONValues(data []byte) [][]byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out [][]byte
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) && len(out) > 1 {
				return out
			}
			return nil
		}
		out = append(out, raw)
	}
}
