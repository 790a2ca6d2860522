package complete

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is what a token completes.
type Kind int

// The kinds of token.
const (
	// FileMention is "@" followed by a path, anywhere in the input after
	// a space or at its start (so "a@b.com" is not one).
	FileMention Kind = iota + 1
	// SlashCommand is "/" followed by a name at the very start of the
	// input.
	SlashCommand
)

// String names the kind for messages and tests.
func (k Kind) String() string {
	switch k {
	case FileMention:
		return "file"
	case SlashCommand:
		return "command"
	}
	return "none"
}

// sigil is the character that starts a token of the kind.
func (k Kind) sigil() string {
	if k == SlashCommand {
		return "/"
	}
	return "@"
}

// Token is the word under the cursor that a popup completes.
type Token struct {
	Kind Kind
	// Query is what was typed after the sigil, up to the cursor: what the
	// popup ranks by.
	Query string
	// Start and End are rune offsets into the input: [Start, End) is the
	// whole word, sigil included, which accepting a completion replaces.
	Start, End int
}

// FindToken returns the token being typed at cursor (a rune offset into
// text, clamped to it): "@partial/pa" or an open or closed quoted
// `@"dir with sp` anywhere after whitespace or at the start, or "/com" at
// the very start of the input. ok is false when the
// cursor is not in such a word.
func FindToken(text string, cursor int) (Token, bool) {
	r := []rune(text)
	cursor = max(min(cursor, len(r)), 0)
	if tok, ok := quotedToken(r, cursor); ok {
		return tok, true
	}
	start := cursor
	for start > 0 && !unicode.IsSpace(r[start-1]) {
		start--
	}
	end := cursor
	for end < len(r) && !unicode.IsSpace(r[end]) {
		end++
	}
	if start == cursor {
		return Token{}, false // the cursor is before the word, not in it
	}
	switch r[start] {
	case '@':
		if start+1 < cursor && r[start+1] == '"' {
			return Token{}, false // after a closed @"…", which quotedToken did not claim
		}
		return Token{Kind: FileMention, Query: string(r[start+1 : cursor]), Start: start, End: end}, true
	case '/':
		if start == 0 {
			return Token{Kind: SlashCommand, Query: string(r[1:cursor]), Start: 0, End: end}, true
		}
	}
	return Token{}, false
}

// quotedToken finds the quoted mention @"dir with space/a b" the cursor is
// in, closed or still being typed, so a name with spaces completes like
// any other: the spaces in it would otherwise end the word. Its Query is
// the path typed so far, unquoted; [Start, End) runs to the closing quote,
// or, while the quote is open, to the end of the word at the cursor. The
// quote never spans a line, as the literal it is cannot.
func quotedToken(r []rune, cursor int) (Token, bool) {
	lineStart := cursor
	for lineStart > 0 && r[lineStart-1] != '\n' {
		lineStart--
	}
	for i := lineStart; i < cursor; i++ {
		if r[i] != '@' || i+1 >= len(r) || r[i+1] != '"' || (i > 0 && !unicode.IsSpace(r[i-1])) {
			continue
		}
		closing := -1 // the index of the closing quote
		for j := i + 2; j < len(r) && r[j] != '\n'; j++ {
			if r[j] == '\\' {
				j++
				continue
			}
			if r[j] == '"' {
				closing = j
				break
			}
		}
		if closing >= 0 && closing < cursor {
			i = closing // a finished mention before the cursor
			continue
		}
		end := closing + 1
		if closing < 0 {
			end = cursor
			for end < len(r) && !unicode.IsSpace(r[end]) {
				end++
			}
		}
		typed := string(r[min(i+2, cursor):cursor])
		if q, err := strconv.Unquote(`"` + typed + `"`); err == nil {
			typed = q
		}
		return Token{Kind: FileMention, Query: typed, Start: i, End: end}, true
	}
	return Token{}, false
}

// Apply replaces the token in text with the completed value (the sigil is
// added) followed by a space, and returns the new text and the rune offset
// just after that space, where typing goes on.
func (t Token) Apply(text, value string) (string, int) {
	r := []rune(text)
	start, end := max(min(t.Start, len(r)), 0), max(min(t.End, len(r)), 0)
	end = max(end, start)
	insert := t.Kind.sigil() + value
	var b strings.Builder
	b.WriteString(string(r[:start]))
	b.WriteString(insert)
	cursor := start + utf8.RuneCountInString(insert) + 1
	if end < len(r) && unicode.IsSpace(r[end]) {
		b.WriteString(string(r[end:])) // reuse the space that is there
	} else {
		b.WriteByte(' ')
		b.WriteString(string(r[end:]))
	}
	return b.String(), cursor
}

// Offset turns a cursor given as line and column (both counted from 0, the
// column in runes, as the bubbles textarea reports them) into a rune offset
// into text, for FindToken.
func Offset(text string, line, col int) int {
	off := 0
	for i, l := range strings.Split(text, "\n") {
		n := utf8.RuneCountInString(l)
		if i == line {
			return off + max(min(col, n), 0)
		}
		off += n + 1
	}
	return utf8.RuneCountInString(text)
}
