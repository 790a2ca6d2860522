package transcript

import "strings"

// stableEnd returns how much of a streaming markdown answer is made of
// finished top-level blocks: the offset of the start of the block that may
// still grow. Text before it renders the same on its own as it does as part
// of the whole answer, so it can be rendered once and kept.
//
// A block is finished when a blank line is followed by a line that starts,
// without indentation, something that cannot continue it. The scan is
// conservative: where it cannot tell (an open code fence or HTML block, a
// list that another item may continue, a line too short to classify), it
// reports no boundary, and the text stays in the re-rendered tail.
//
// src must start at a block boundary (the start of the answer or an offset
// stableEnd returned before), so a scan can resume there.
func stableEnd(src string) int {
	return scanBoundaries(src, nil)
}

// boundaries returns every offset of src at which stableEnd would cut
// (src starts at a block boundary), in order.
func boundaries(src string) []int {
	var out []int
	scanBoundaries(src, func(at int) { out = append(out, at) })
	return out
}

// scanBoundaries is stableEnd, telling found about each boundary as it is
// found (found may be nil).
func scanBoundaries(src string, found func(int)) int {
	var (
		sc        blockScanner
		boundary  int
		prevBlank bool
		inList    bool // the current top-level block is a list
		joinNext  bool // the current top-level block glues to the next one
	)
	for pos := 0; pos < len(src); {
		line, complete, start := nextLine(src, &pos)
		kind := sc.scan(line, complete)
		switch kind {
		case lineLost:
			return boundary
		case lineBlank:
			prevBlank = prevBlank || complete
			continue
		case lineInFence, lineFenceClose, lineInHTML:
			prevBlank = false
			continue
		}
		indent, skip := indentation(line)
		if prevBlank && indent == 0 {
			switch blockStart(line, complete, inList) {
			case startsNewBlock:
				if !joinNext && start > boundary {
					boundary = start
					if found != nil {
						found(start)
					}
				}
				inList, joinNext = false, false
			case continuesBlock, undecided:
				// keep the current block open
			}
		}
		prevBlank = false
		// Glamour draws raw HTML with no blank line after it, and a
		// paragraph after a definition list may turn out to be its next
		// term: such blocks stay with what follows.
		if kind == lineHTMLOpen || (indent <= 3 && (line[skip] == '<' || line[skip] == ':')) {
			joinNext = true
		}
		if kind == lineText && indent <= 3 && listMarker(line[skip:], true) == isMarker {
			inList = true
		}
	}
	return boundary
}

// nextLine returns the line at *pos (without its newline), whether a
// newline ends it, and its offset; it moves *pos past it.
func nextLine(src string, pos *int) (line string, complete bool, start int) {
	start = *pos
	end := strings.IndexByte(src[start:], '\n')
	if end < 0 {
		*pos = len(src)
		return src[start:], false, start
	}
	*pos = start + end + 1
	return src[start : start+end], true, start
}

// Kinds of lines, as blockScanner sees them.
const (
	lineText       = iota // anything else
	lineBlank             // only spaces
	lineFenceOpen         // opens a fenced code block
	lineFenceClose        // closes the open fenced code block
	lineInFence           // inside a fenced code block
	lineHTMLOpen          // opens a raw HTML block that blank lines do not end
	lineInHTML            // inside such a block
	lineLost              // the scanner can no longer tell blocks apart
)

// blockScanner follows the block structure that matters for finding
// boundaries: fenced code and the raw HTML blocks that run across blank
// lines. Where telling them apart would need a real markdown parse (a
// fence or HTML block inside a list item that a less indented line may
// end; a fence right after a tag line, which is raw HTML or a fence
// depending on the tag), it reports lineLost and stays lost: callers then
// stop trusting it for the rest of the text.
type blockScanner struct {
	fence    string // the open fence's marker ("```", "~~~~", …) or ""
	fenceInd int    // columns the open fence is indented by
	htmlEnd  string // what closes the open raw HTML block, or ""
	htmlInd  int    // columns the open HTML block is indented by
	htmlLike bool   // since the last blank line, a line looked like an HTML tag
	lost     bool
}

// scan classifies the next line. complete says a newline ends it.
func (sc *blockScanner) scan(line string, complete bool) int {
	if sc.lost {
		return lineLost
	}
	blank := strings.TrimSpace(line) == ""
	indent, skip := indentation(line)
	switch {
	case sc.fence != "":
		if !blank && indent < sc.fenceInd {
			sc.lost = true // an indented fence may belong to a list item this line ends
			return lineLost
		}
		if complete && isFenceClose(line, sc.fence) {
			sc.fence = ""
			return lineFenceClose
		}
		return lineInFence
	case sc.htmlEnd != "":
		if !blank && indent < sc.htmlInd {
			sc.lost = true
			return lineLost
		}
		if strings.Contains(strings.ToLower(line), sc.htmlEnd) {
			sc.htmlEnd = ""
		}
		return lineInHTML
	case blank:
		if complete {
			sc.htmlLike = false
		}
		return lineBlank
	case indent > 3:
		return lineText
	}
	body := line[skip:]
	if f := fenceOpen(body); f != "" {
		if sc.htmlLike {
			sc.lost = true // raw HTML or a fence, depending on the tag
			return lineLost
		}
		sc.fence, sc.fenceInd = f, indent
		return lineFenceOpen
	}
	if e := htmlBlockEnd(body); e != "" {
		if !strings.Contains(strings.ToLower(body[1:]), e) {
			sc.htmlEnd, sc.htmlInd = e, indent
			return lineHTMLOpen
		}
		return lineText
	}
	if body[0] == '<' {
		sc.htmlLike = true
	}
	return lineText
}

// Kinds of line starts after a blank line.
const (
	startsNewBlock = iota
	continuesBlock
	undecided
)

// blockStart classifies an unindented line that follows a blank line.
func blockStart(line string, complete, inList bool) int {
	switch line[0] {
	case ':':
		return continuesBlock // a definition belongs to the paragraph before it
	case '<':
		return continuesBlock // glamour joins raw HTML to the block before it
	}
	if inList {
		switch listMarker(line, complete) {
		case isMarker:
			return continuesBlock // another item of the same list, maybe
		case maybeMarker:
			return undecided
		}
	}
	return startsNewBlock
}

// Results of listMarker.
const (
	notMarker = iota
	isMarker
	maybeMarker // the line is too short to tell
)

// listMarker reports whether s starts with a list item marker: "-", "+" or
// "*", or up to nine digits and "." or ")", followed by a space, a tab or the
// end of a complete line.
func listMarker(s string, complete bool) int {
	i := 0
	switch {
	case s == "":
		return notMarker
	case s[0] == '-' || s[0] == '+' || s[0] == '*':
		i = 1
	case s[0] >= '0' && s[0] <= '9':
		for i < len(s) && i < 10 && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == len(s) && !complete && i < 10 {
			return maybeMarker
		}
		if i > 9 || i == len(s) || (s[i] != '.' && s[i] != ')') {
			return notMarker
		}
		i++
	default:
		return notMarker
	}
	if i == len(s) {
		if complete {
			return isMarker // an empty item
		}
		return maybeMarker
	}
	if s[i] == ' ' || s[i] == '\t' {
		return isMarker
	}
	return notMarker
}

// fenceOpen returns the fence marker if s opens a fenced code block.
func fenceOpen(s string) string {
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	if s[0] == '`' && strings.IndexByte(s[n:], '`') >= 0 {
		return "" // a backtick fence's info string may not hold backticks
	}
	return s[:n]
}

// isFenceClose reports whether line closes a fence opened with marker: the
// same character, at least as many, indented at most three spaces, nothing
// after but spaces.
func isFenceClose(line, marker string) bool {
	indent, skip := indentation(line)
	if indent > 3 {
		return false
	}
	s := strings.TrimRight(line[skip:], " \t")
	if len(s) < len(marker) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != marker[0] {
			return false
		}
	}
	return true
}

// htmlBlockEnd returns, for a line that opens one of the raw HTML blocks that
// blank lines do not end (script, pre, style, textarea, comments, processing
// instructions, declarations, CDATA), the text that closes it.
func htmlBlockEnd(s string) string {
	if len(s) < 2 || s[0] != '<' {
		return ""
	}
	low := strings.ToLower(s)
	for _, tag := range [...]string{"script", "pre", "style", "textarea"} {
		if strings.HasPrefix(low[1:], tag) {
			rest := low[1+len(tag):]
			if rest == "" || rest[0] == ' ' || rest[0] == '>' || rest[0] == '\t' {
				return "</" + tag + ">"
			}
		}
	}
	switch {
	case strings.HasPrefix(low, "<!--"):
		return "-->"
	case strings.HasPrefix(low, "<?"):
		return "?>"
	case strings.HasPrefix(low, "<![cdata["):
		return "]]>"
	case len(low) > 2 && low[1] == '!' && low[2] >= 'a' && low[2] <= 'z':
		return ">"
	}
	return ""
}

// indentation returns the columns a line is indented by, a tab reaching
// the next multiple of four, and the bytes of that indentation.
func indentation(s string) (cols, bytes int) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			cols++
		case '\t':
			cols += tabWidth - cols%tabWidth
		default:
			return cols, i
		}
	}
	return cols, len(s)
}
