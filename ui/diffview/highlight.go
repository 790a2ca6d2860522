package diffview

import (
	"path/filepath"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

const (
	// syncHighlightBytes bounds the size of a change (both versions) that
	// is lexed when it is first drawn, on the event loop: under 20 ms of
	// chroma. A larger one is lexed by the command from Model.Init and
	// drawn in the diff colours alone until that is done.
	syncHighlightBytes = 24 << 10
	// maxHighlightBytes bounds the size of a version that is highlighted at
	// all; lexing a larger one would take more than a second.
	maxHighlightBytes = 1 << 20
)

// highlightedMsg carries the syntax segments of both versions of a change,
// lexed off the event loop.
type highlightedMsg struct {
	d        *doc
	old, new [][]segment
}

// lexerFor picks the lexer for a file by its name, or nil when chroma knows
// no language for it. The content is not used to guess: a wrong guess looks
// worse than no colours.
func lexerFor(name string) chroma.Lexer {
	if name == "" {
		return nil
	}
	l := lexers.Match(filepath.Base(name))
	if l == nil {
		return nil
	}
	return chroma.Coalesce(l)
}

// lex splits every line of s into syntax segments; lines whose tokens do
// not add up to the line get nil, and so does every line when s cannot be
// lexed. It only reads s, so it may run off the event loop.
func (s *side) lex(lexer chroma.Lexer) [][]segment {
	if lexer == nil || len(s.lines) == 0 || len(s.src) > maxHighlightBytes {
		return nil
	}
	tokens, ok := tokenise(lexer, strings.ReplaceAll(s.src, "\r\n", "\n"))
	if !ok {
		return nil
	}
	byLine := chroma.SplitTokensIntoLines(tokens)
	out := make([][]segment, len(s.lines))
	var buf []byte
	for i := range s.lines {
		if i >= len(byLine) {
			break
		}
		var segs []segment
		segs, buf = lineSegments(byLine[i], lineContent(s.lines[i]), buf)
		if segs == nil || len(buf) != s.body[i] || s.revealed != nil && s.revealed[i] {
			continue
		}
		if len(s.text[i]) > s.body[i] {
			segs = append(segs, segment{end: len(s.text[i]), tok: markToken})
		}
		out[i] = segs
	}
	return out
}

// lineSegments converts the tokens of one line into segments of its drawn
// text, which it builds in buf. It returns nil segments when the tokens do
// not spell content.
func lineSegments(tokens []chroma.Token, content string, buf []byte) ([]segment, []byte) {
	buf = buf[:0]
	segs := make([]segment, 0, len(tokens))
	pos, col := 0, 0
	for _, t := range tokens {
		v := strings.TrimSuffix(t.Value, "\n")
		if !strings.HasPrefix(content[pos:], v) {
			return nil, buf
		}
		pos += len(v)
		if v == "" {
			continue
		}
		buf, col = appendDisplay(buf, v, col)
		if n := len(segs); n > 0 && segs[n-1].tok == t.Type {
			segs[n-1].end = len(buf)
			continue
		}
		segs = append(segs, segment{end: len(buf), tok: t.Type})
	}
	if pos != len(content) {
		return nil, buf
	}
	return segs, buf
}

// tokenise runs the lexer over text. A lexer that fails or panics on odd
// input costs the colours, never the review.
func tokenise(lexer chroma.Lexer, text string) (tokens []chroma.Token, ok bool) {
	defer func() {
		if recover() != nil {
			tokens, ok = nil, false
		}
	}()
	it, err := lexer.Tokenise(&chroma.TokeniseOptions{State: "root"}, text)
	if err != nil {
		return nil, false
	}
	return it.Tokens(), true
}
