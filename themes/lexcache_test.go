package themes

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// countingLexer is a lexer that counts the texts it lexes.
type countingLexer struct {
	chroma.Lexer
	lexed int
}

func (l *countingLexer) Tokenise(o *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	l.lexed++
	return l.Lexer.Tokenise(o, text)
}

func (l *countingLexer) SetRegistry(r *chroma.LexerRegistry) chroma.Lexer {
	l.Lexer = l.Lexer.SetRegistry(r)
	return l
}

// TestHighlightingIsLexedOnce: code highlighted again with a cached lexer
// gives the same tokens without being lexed again; other code is lexed.
func TestHighlightingIsLexedOnce(t *testing.T) {
	inner := &countingLexer{Lexer: lexers.Get("go")}
	reg := chroma.NewLexerRegistry()
	reg.Register(inner)
	cacheLexers(reg, newTokenCache(1<<20))
	cacheLexers(reg, newTokenCache(1<<20)) // a second time wraps nothing again
	code := "func main() {\n\tfmt.Println(\"hi\") // greet\n}\n"
	lex := func(src string) []chroma.Token {
		it, err := reg.Get("go").Tokenise(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		return it.Tokens()
	}
	first, again := lex(code), lex(code)
	if inner.lexed != 1 {
		t.Errorf("the same code was lexed %d times, want once", inner.lexed)
	}
	if len(first) == 0 || tokensText(first) != code || tokensText(again) != code || len(again) != len(first) {
		t.Errorf("the kept tokens differ: %v and %v", first, again)
	}
	lex(code + "var x = 1\n")
	if inner.lexed != 2 {
		t.Errorf("other code was not lexed (%d)", inner.lexed)
	}
	if _, err := reg.Get("go").Tokenise(&chroma.TokeniseOptions{State: "root"}, code); err != nil || inner.lexed != 3 {
		t.Errorf("lexing with options used the cache (%d, %v)", inner.lexed, err)
	}
}

// TestTokenCacheIsBounded: the cache holds at most its size, dropping the
// least recently used text first.
func TestTokenCacheIsBounded(t *testing.T) {
	c := newTokenCache(4000)
	tok := []chroma.Token{{Type: chroma.Text, Value: "x"}}
	keys := []string{strings.Repeat("a", 900), strings.Repeat("b", 900), strings.Repeat("c", 900), strings.Repeat("d", 900)}
	for _, k := range keys[:3] {
		c.put(k, tok)
	}
	c.get(keys[0]) // a is used again: b is now the oldest
	c.put(keys[3], tok)
	c.put(keys[3]+"e", tok)
	if c.size > c.max {
		t.Errorf("the cache holds %d, more than %d", c.size, c.max)
	}
	if _, ok := c.get(keys[1]); ok {
		t.Error("the least recently used text was kept")
	}
	if _, ok := c.get(keys[0]); !ok {
		t.Error("a recently used text was dropped")
	}
	c.put(strings.Repeat("z", 2000), tok)
	if _, ok := c.get(strings.Repeat("z", 2000)); ok {
		t.Error("a text of over a quarter of the cache was kept")
	}
}

func tokensText(toks []chroma.Token) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.Value)
	}
	return b.String()
}
