package diffview

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/clipperhouse/displaywidth"
)

// segment is a run of a drawn line in one token type; it ends at byte end of
// the line's text and starts where the previous one ended.
type segment struct {
	end int
	tok chroma.TokenType
}

// markToken is the token type of the line-ending mark drawn after a line
// whose line break differs from the rest of its file.
const markToken chroma.TokenType = -1 << 20

// Line-ending marks: a "\r\n" line in a file of "\n" lines, and the reverse.
const (
	markCR = "␍"
	markLF = "␊"
)

// side is one version of the file, prepared for drawing.
type side struct {
	src    string
	lines  []string // with their line breaks
	starts []int    // byte offset of each line, and len(src)
	text   []string // each line as drawn, its ending mark included
	width  []int    // display width of text
	body   []int    // length of text before the ending mark
	noEOL  bool     // the last line has no line break
	crlf   bool     // most line breaks are "\r\n"

	segs [][]segment // syntax segments per line; nil entries are plain
	// revealed marks lines drawn with look-alike characters told apart
	// (see revealLookalikes); they are drawn plain.
	revealed []bool
}

func newSide(src string) *side {
	s := &side{src: src}
	s.lines, s.starts = splitLines(src)
	s.noEOL = len(src) > 0 && src[len(src)-1] != '\n'
	s.crlf = 2*strings.Count(src, "\r\n") > strings.Count(src, "\n")
	s.text = make([]string, len(s.lines))
	s.width = make([]int, len(s.lines))
	s.body = make([]int, len(s.lines))
	var buf []byte
	for i, l := range s.lines {
		buf, _ = appendDisplay(buf[:0], lineContent(l), 0)
		s.body[i] = len(buf)
		buf = append(buf, s.endingMark(l)...)
		s.text[i] = string(buf)
		s.width[i] = displaywidth.String(s.text[i])
	}
	return s
}

// endingMark is what is drawn after a line whose line break is not the one
// the file mostly uses, so a change of line ending alone is visible; lines
// like the rest of their file get none, so CRLF files look like any other.
func (s *side) endingMark(line string) string {
	switch {
	case !strings.HasSuffix(line, "\n"):
		return ""
	case strings.HasSuffix(line, "\r\n") && !s.crlf:
		return markCR
	case !strings.HasSuffix(line, "\r\n") && s.crlf:
		return markLF
	}
	return ""
}

// segments returns the syntax segments of line i: the highlighted ones when
// there are, else one plain run, with the ending mark as its own run.
func (s *side) segments(i int) []segment {
	if s.segs != nil && s.segs[i] != nil {
		return s.segs[i]
	}
	segs := make([]segment, 0, 2)
	if s.body[i] > 0 {
		segs = append(segs, segment{end: s.body[i], tok: chroma.Text})
	}
	if len(s.text[i]) > s.body[i] {
		segs = append(segs, segment{end: len(s.text[i]), tok: markToken})
	}
	return segs
}
