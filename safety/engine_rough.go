package safety

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

const (
	// maxSource is the longest command text that is parsed and classified
	// in full. Longer text is at least Confirm, and only scanned roughly
	// for dangerous commands: nobody reviews more at a glance, and the
	// time of a classification stays bounded.
	maxSource = 16 << 10
	// maxRough is the longest text the rough scan reads; past it a command
	// is too large to analyse at all.
	maxRough = 1 << 20
	// maxNesting is the deepest nesting of brackets, braces, parentheses
	// and quotes a command may have to be parsed.
	maxNesting = 100
	// roughWords is how many words of each chunk the unlimited rough scan
	// looks at: enough for a program, its options and a target.
	roughWords = 64
)

// tooComplex says why src is not parsed at all, or "" when it can be.
func tooComplex(src string) string {
	if len(src) > maxSource {
		return fmt.Sprintf("too long to classify (%d bytes; pincer reads up to %d)", len(src), maxSource)
	}
	if nestingDepth(src) > maxNesting {
		return fmt.Sprintf("nested too deeply to classify (more than %d levels)", maxNesting)
	}
	return ""
}

// nestingDepth estimates how deeply src nests: every (, {, [, $( and
// backquote opens a level and the matching closer ends it, quotes aside.
// It over-counts unbalanced openers, which only makes it stricter.
func nestingDepth(src string) int {
	depth, top := 0, 0
	var quote byte
	tick := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && quote != '\'':
			i++
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\'' && quote == 0:
			quote = '\''
		case c == '"':
			if quote == '"' {
				quote = 0
			} else if quote == 0 {
				quote = '"'
			}
		case c == '`':
			if tick {
				depth--
			} else {
				depth++
			}
			tick = !tick
		case c == '(' || c == '{' || c == '[':
			if quote == 0 || i > 0 && src[i-1] == '$' {
				depth++
			}
		case c == ')' || c == '}' || c == ']':
			if depth > 0 && (quote == 0 || c != ']') {
				depth--
			}
		}
		if depth > top {
			top = depth
		}
	}
	return top
}

// oversized handles text that tooComplex refused: at least Confirm, and a
// linear rough scan for dangerous commands, so that padding cannot hide
// one. Text past maxRough is not read at all.
func (w *walker) oversized(src, why string) {
	w.sh.acc.add(Confirm, display(src)+": "+why)
	if len(src) > maxRough {
		w.sh.acc.add(Dangerous, display(src)+": too large to analyse")
		return
	}
	w.roughChunks(src, 0)
	if m := pipeToShellRe().FindString(src); m != "" {
		w.sh.acc.add(Dangerous, display(m)+": pipes text into a shell or interpreter, in a command too long to classify")
	}
}

// pipeToShellRe finds a pipe into a shell or an interpreter, which the
// chunk scan cannot see: the chunk after the pipe is only the shell's name.
var pipeToShellRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:\S*/)?(?:ba|z|da|k|mk|a|fi)?sh\b|\|\s*(?:sudo\s+)?(?:\S*/)?(?:python[0-9.]*|perl|ruby|node|php|lua|pwsh|powershell|iex)\b`)
})

// roughScan looks at text the parser rejected. It cuts the text at every
// character that can separate commands, strips quotes and backslashes, and
// classifies each run of words as a command. Only dangerous findings are
// recorded: the text already needs approval because it does not parse, and
// the scan exists so that a syntax error cannot hide `rm -rf ~` next to it.
func (w *walker) roughScan(src string) {
	w.roughChunks(src, 256)
}

// roughChunks is roughScan with a limit on the number of chunks: past it
// the text is too large to analyse, which is dangerous. A limit of 0 scans
// every chunk, looking only at the first words of each, so the time stays
// linear in the length of the text.
func (w *walker) roughChunks(src string, limit int) {
	chunks := strings.FieldsFunc(src, func(r rune) bool {
		switch r {
		case '\n', ';', '&', '|', '(', ')', '`', '{', '}', '<', '>':
			return true
		}
		return false
	})
	strip := strings.NewReplacer(`"`, "", `'`, "", `\`, "", "$", "")
	for i, chunk := range chunks {
		if limit > 0 && i >= limit {
			w.sh.acc.add(Dangerous, display(src)+": too large to analyse")
			return
		}
		var argv []field
		for _, word := range strings.Fields(chunk) {
			if limit == 0 && len(argv) == roughWords {
				break
			}
			word = strip.Replace(word)
			if word != "" {
				argv = append(argv, field{s: word})
			}
		}
		if len(argv) == 0 {
			continue
		}
		if _, known := w.sh.c.lookup(progName(argv[0].s)); !known && limit == 0 {
			continue // an unknown program is never dangerous by itself
		}
		sh := newShared(w.sh.c)
		tw := &walker{sh: sh, sc: newScope(), src: chunk, depth: w.depth + 1, cwd: w.cwd}
		if tw.depth > maxDepth {
			return
		}
		p := tw.newPart(chunk, stream{})
		p.run(argv)
		if p.tier() == Dangerous || sh.acc.top == Dangerous {
			why := ""
			for _, r := range p.raises {
				if r.tier == Dangerous {
					why = r.why
					break
				}
			}
			if why == "" && len(sh.acc.dangerous) > 0 {
				why = sh.acc.dangerous[0]
			}
			w.sh.acc.add(Dangerous, display(chunk)+": "+why)
		}
	}
}
