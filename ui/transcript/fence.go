package transcript

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// segmentLines is how many complete lines of an open code block are
// rendered together and then kept while the block streams.
const segmentLines = 16

// segmentMark is a code line put around a segment so that its lines can be
// found in glamour's output. It is one narrow character that no lexer joins
// to its neighbours.
const segmentMark = "⁂"

// openFence reports whether tail is a single fenced code block that is still
// open: a fence line at the start and no closing line after it. It returns
// the fence line, the fence marker and the code.
func openFence(tail string) (fenceLine, marker, code string, ok bool) {
	nl := strings.IndexByte(tail, '\n')
	if nl < 0 || tail[0] == ' ' || tail[0] == '\t' {
		return "", "", "", false
	}
	fenceLine = tail[:nl]
	if marker = fenceOpen(fenceLine); marker == "" {
		return "", "", "", false
	}
	code = tail[nl+1:]
	for pos := 0; pos < len(code); {
		line, complete, _ := nextLine(code, &pos)
		if complete && isFenceClose(line, marker) {
			return "", "", "", false
		}
	}
	return fenceLine, marker, code, true
}

// codeSegment is a run of complete lines of an open code block and its
// rendered lines.
type codeSegment struct {
	end   int // offset in the code after the segment's last line
	lines []string
}

// fencePreview renders an open code block in flight: the complete lines in
// segments of segmentLines, each rendered once, and the lines after the last
// segment again on every change. Highlighting that spans segments (a long
// string or comment) may be off while the block streams; once its fence
// closes, the block is rendered whole like any other. ok is false when the
// block is too short to be worth it or the segments cannot be cut out. The
// zero value is ready: its fence line matches no block.
type fencePreview struct {
	gen      int
	fence    string // the fence line the segments belong to
	lead     []string
	segments []codeSegment
}

func (p *fencePreview) render(md markdownRenderer, tail string, width, gen int, first bool) ([]string, bool) {
	fenceLine, marker, code, ok := openFence(tail)
	if !ok || width < 8 || strings.Count(code, "\n") < segmentLines {
		return nil, false
	}
	if p.gen != gen || p.fence != fenceLine || (len(p.segments) > 0 && p.segments[len(p.segments)-1].end > len(code)) {
		*p = fencePreview{gen: gen, fence: fenceLine}
	}
	// Freeze every full segment of complete lines.
	for {
		start := 0
		if n := len(p.segments); n > 0 {
			start = p.segments[n-1].end
		}
		end, lines := start, 0
		for lines < segmentLines {
			nl := strings.IndexByte(code[end:], '\n')
			if nl < 0 {
				break
			}
			end += nl + 1
			lines++
		}
		if lines < segmentLines {
			break
		}
		lead, body, ok := renderSegment(md, fenceLine, marker, code[start:end], width, first && start == 0)
		if !ok {
			return nil, false
		}
		if start == 0 {
			p.lead = lead
		}
		p.segments = append(p.segments, codeSegment{end: end, lines: body})
	}
	if len(p.segments) == 0 {
		return nil, false
	}
	rest := code[p.segments[len(p.segments)-1].end:]
	_, restLines, ok := renderSegment(md, fenceLine, marker, rest, width, false)
	if !ok {
		return nil, false
	}
	out := append([]string(nil), p.lead...)
	for _, s := range p.segments {
		out = append(out, s.lines...)
	}
	return append(out, restLines...), true
}

// renderSegment renders code as a closed block between marker lines and
// cuts its lines out: lead are the lines before the block (the blank lines
// that separate it from what precedes it), body the code's own.
func renderSegment(md markdownRenderer, fenceLine, marker, code string, width int, first bool) (lead, body []string, ok bool) {
	var b strings.Builder
	b.WriteString(fenceLine)
	b.WriteString("\n" + segmentMark + "\n")
	b.WriteString(code)
	if code != "" && !strings.HasSuffix(code, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(segmentMark + "\n" + marker + "\n")
	var lines []string
	if first {
		lines = md.Render(b.String(), width)
	} else {
		lines = renderAfter(md, b.String(), width)
	}
	open, closing := -1, -1
	for i, l := range lines {
		if strings.TrimSpace(ansi.Strip(l)) == segmentMark {
			if open < 0 {
				open = i
			} else {
				closing = i
			}
		}
	}
	if open < 0 || closing < 0 {
		return nil, nil, false
	}
	return lines[:open], lines[open+1 : closing], true
}
