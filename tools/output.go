package tools

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"pincer/internal/human"
)

// noticeReserve is the room kept for the cut notice inside a capped text.
const noticeReserve = 160

// capText keeps s within max bytes: when it is longer, the head and the tail
// are kept (cut at line breaks where one is near) and the middle is replaced
// by a line that says how much was left out.
func capText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	h := newHeadTail(max)
	h.WriteString(s)
	return h.Capped(max)
}

// headTail is an io.Writer that remembers the first and the last limit
// bytes written and counts the rest, so a command can print gigabytes
// without pincer holding them.
type headTail struct {
	limit int
	head  []byte
	tail  []byte // the most recent bytes after head, at most 2*limit
	total int64
	lines int64
}

func newHeadTail(limit int) *headTail {
	return &headTail{limit: limit}
}

// Write never fails.
func (h *headTail) Write(p []byte) (int, error) {
	n := len(p)
	h.total += int64(n)
	h.lines += int64(bytes.Count(p, []byte{'\n'}))
	if room := h.limit - len(h.head); room > 0 {
		take := min(room, len(p))
		h.head = append(h.head, p[:take]...)
		p = p[take:]
	}
	if len(p) > 0 {
		h.tail = append(h.tail, p...)
		if len(h.tail) > 2*h.limit {
			keep := h.tail[len(h.tail)-h.limit:]
			h.tail = append(h.tail[:0], keep...)
		}
	}
	return n, nil
}

// WriteString is Write for strings.
func (h *headTail) WriteString(s string) (int, error) {
	return h.Write([]byte(s))
}

// Total is how many bytes were written.
func (h *headTail) Total() int64 { return h.total }

// Capped returns everything written when it fits in limit bytes, else the
// head and tail with the cut stated on a line of its own between them.
func (h *headTail) Capped(limit int) string {
	if h.total <= int64(limit) {
		return string(h.head) + string(h.tail)
	}
	if limit < 2*noticeReserve {
		head := h.head[:runeStart(h.head, min(max(0, limit-80), len(h.head)))]
		return fmt.Sprintf("%s\n[… output cut: %d of %d bytes not shown …]", head, h.total-int64(len(head)), h.total)
	}
	half := (limit - noticeReserve) / 2
	head := h.head[:headCut(h.head, half)]
	rest := h.tail
	if h.total == int64(len(h.head)+len(h.tail)) {
		// Nothing was dropped: the tail may reach back into the buffered head.
		rest = append(append([]byte(nil), h.head[len(head):]...), h.tail...)
	}
	tail := rest[tailCut(rest, limit-noticeReserve-len(head)):]
	cutBytes := h.total - int64(len(head)) - int64(len(tail))
	cutLines := h.lines - int64(bytes.Count(head, []byte{'\n'})) - int64(bytes.Count(tail, []byte{'\n'}))
	var b strings.Builder
	b.Write(head)
	if len(head) > 0 && head[len(head)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "\n[… %d bytes (%s) cut from the middle; %d bytes in total, the first and last parts are shown …]\n\n", cutBytes, human.Plural(int(cutLines), "line"), h.total)
	b.Write(tail)
	return b.String()
}

// headCut returns how many bytes of p to keep as a head of at most n bytes,
// ending after a line break when one is in the second half.
func headCut(p []byte, n int) int {
	if n >= len(p) {
		return len(p)
	}
	if i := bytes.LastIndexByte(p[:n], '\n'); i >= n/2 {
		return i + 1
	}
	return runeStart(p, n)
}

// tailCut returns where a tail of at most n bytes of p starts, just after a
// line break when one is in its first half.
func tailCut(p []byte, n int) int {
	if n >= len(p) {
		return 0
	}
	start := len(p) - n
	if i := bytes.IndexByte(p[start:start+n/2], '\n'); i >= 0 {
		return start + i + 1
	}
	return runeStart(p, start)
}

// runeStart moves i back to the start of the UTF-8 sequence it falls in.
func runeStart(p []byte, i int) int {
	for j := 0; j < utf8.UTFMax && i > 0 && i < len(p) && !utf8.RuneStart(p[i]); j++ {
		i--
	}
	return i
}

// clipLine shortens one line of text for display, saying how much was left.
func clipLine(line string, max int) string {
	if len(line) <= max {
		return line
	}
	return cutLine(line, max, len(line))
}

// cutLine is line cut at max bytes on a rune's start, saying how many of
// the line's total bytes were left: a reader that held only the head of a
// long line (read_file) passes the length it counted.
func cutLine(line string, max, total int) string {
	cut := runeStart([]byte(line), max)
	return fmt.Sprintf("%s… [line cut: %d more bytes]", line[:cut], total-cut)
}

// CapText keeps s within max bytes the way every tool result is kept
// (head and tail, the cut stated), for tools built outside this package.
// max <= 0 means DefaultMaxOutput.
func CapText(s string, max int) string {
	if max <= 0 {
		max = DefaultMaxOutput
	}
	return capText(s, max)
}
