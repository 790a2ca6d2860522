package tools

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits on how text is shown to the model.
const (
	maxLineBytes   = 2000 // longer lines are cut in read_file and grep output
	snippetContext = 3    // lines of context around a changed region
	snippetMax     = 40   // most lines of a changed region shown
	sniffBytes     = 8000 // bytes looked at to tell text from binary
)

// isBinary reports whether data looks like a binary file: a NUL byte in its
// first bytes, or many bytes (over 30%) that are neither UTF-8 text nor common
// control characters.
func isBinary(data []byte) bool {
	head := data[:min(len(data), sniffBytes)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if len(head) == 0 {
		return false
	}
	odd := 0
	for i := 0; i < len(head); {
		c := head[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v' && c != 0x1b {
				odd++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && size == 1 {
			// A multi-byte sequence cut by the end of the sample is still text.
			if len(head)-i < utf8.UTFMax && len(head) == sniffBytes {
				break
			}
			odd++
		}
		i += size
	}
	return odd*10 > len(head)*3 // more than 30% odd bytes
}

// splitLines splits text into lines without their "\n"; a trailing newline
// does not start another line. A "\r" before the "\n" stays on the line.
func splitLines(text []byte) []string {
	if len(text) == 0 {
		return nil
	}
	s := string(text)
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// usesCRLF reports whether most line breaks in data are "\r\n".
func usesCRLF(data []byte) bool {
	crlf := bytes.Count(data, []byte("\r\n"))
	return crlf > 0 && crlf*2 >= bytes.Count(data, []byte{'\n'})
}

// numberedLine formats one line the way read_file shows it: the 1-based line
// number right-aligned, a tab, the text.
func numberedLine(n int, line string) string {
	return fmt.Sprintf("%6d\t%s", n, clipLine(strings.TrimSuffix(line, "\r"), maxLineBytes))
}

// changedSnippet shows the region of after that differs from before, with a
// few lines of context and line numbers. It returns "" when nothing differs
// or the file is new.
func changedSnippet(before, after []byte) string {
	if before == nil || bytes.Equal(before, after) {
		return ""
	}
	b, a := splitLines(before), splitLines(after)
	prefix := 0
	for prefix < len(b) && prefix < len(a) && b[prefix] == a[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < len(b)-prefix && suffix < len(a)-prefix && b[len(b)-1-suffix] == a[len(a)-1-suffix] {
		suffix++
	}
	from := max(0, prefix-snippetContext)
	to := min(len(a), len(a)-suffix+snippetContext)
	if to <= from {
		return ""
	}
	var sb strings.Builder
	shown := 0
	for i := from; i < to; i++ {
		if shown == snippetMax {
			fmt.Fprintf(&sb, "… %d more lines (use read_file to see them)\n", to-i)
			break
		}
		sb.WriteString(numberedLine(i+1, a[i]))
		sb.WriteByte('\n')
		shown++
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// lineCount counts lines the way an editor does: a final line without a
// newline still counts.
func lineCount(text []byte) int {
	if len(text) == 0 {
		return 0
	}
	n := bytes.Count(text, []byte{'\n'})
	if text[len(text)-1] != '\n' {
		n++
	}
	return n
}
