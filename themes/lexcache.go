package themes

import (
	"container/list"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// highlightCacheBytes bounds the code (and its tokens) CacheHighlighting
// keeps: a few dozen long code blocks.
const highlightCacheBytes = 4 << 20

// CacheHighlighting makes every lexer in chroma's registry keep the tokens
// of the code it was last given (up to a few MB, the least recently used
// dropped first). Lexing is most of what highlighting costs, and the same
// code is highlighted again whenever the width or the theme changes and a
// code block is drawn anew: with the tokens kept, that costs only turning
// them into colours. Tokens do not depend on width or theme.
//
// Like RegisterCodeStyles it changes chroma's shared registry, so it runs
// once, when the screen starts, before anything is highlighted; running it
// again changes nothing.
func CacheHighlighting() {
	cacheLexers(lexers.GlobalLexerRegistry, newTokenCache(highlightCacheBytes))
}

// cacheLexers replaces every lexer of reg with one that asks c first.
func cacheLexers(reg *chroma.LexerRegistry, c *tokenCache) {
	for _, l := range append(chroma.Lexers(nil), reg.Lexers...) {
		if l == nil {
			continue
		}
		if _, done := l.(*cachingLexer); done {
			continue
		}
		reg.Register(&cachingLexer{Lexer: l, cache: c})
	}
}

// cachingLexer is a lexer whose tokens for a text are kept in a cache.
type cachingLexer struct {
	chroma.Lexer
	cache *tokenCache
}

// Tokenise returns the kept tokens of text, or lexes it and keeps them.
// Lexing with options (a start state, nested lexing) is not cached.
func (l *cachingLexer) Tokenise(o *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	if o != nil {
		return l.Lexer.Tokenise(o, text)
	}
	key := l.Config().Name + "\x00" + text
	if toks, ok := l.cache.get(key); ok {
		return chroma.Literator(toks...), nil
	}
	it, err := l.Lexer.Tokenise(nil, text)
	if err != nil {
		return nil, err
	}
	toks := it.Tokens()
	l.cache.put(key, toks)
	return chroma.Literator(toks...), nil
}

// SetRegistry keeps the wrapper in the registry's hands.
func (l *cachingLexer) SetRegistry(r *chroma.LexerRegistry) chroma.Lexer {
	l.Lexer = l.Lexer.SetRegistry(r)
	return l
}

// SetAnalyser keeps the wrapper in the caller's hands.
func (l *cachingLexer) SetAnalyser(f func(text string) float32) chroma.Lexer {
	l.Lexer = l.Lexer.SetAnalyser(f)
	return l
}

// tokenCache holds the tokens of recently lexed texts, up to a size; it
// is safe for concurrent use.
type tokenCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // of *tokenEntry, the most recently used first
	byKey map[string]*list.Element
}

type tokenEntry struct {
	key    string
	tokens []chroma.Token
	size   int
}

func newTokenCache(max int) *tokenCache {
	return &tokenCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *tokenCache) get(key string) ([]chroma.Token, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*tokenEntry).tokens, true
}

// tokenSize is what one token costs the cache beyond its text.
const tokenSize = 48

func (c *tokenCache) put(key string, tokens []chroma.Token) {
	size := len(key) + tokenSize*len(tokens)
	if size > c.max/4 {
		return // one huge text would push out everything else
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok {
		return
	}
	c.byKey[key] = c.order.PushFront(&tokenEntry{key: key, tokens: tokens, size: size})
	c.size += size
	for c.size > c.max {
		last := c.order.Back()
		e := last.Value.(*tokenEntry)
		c.order.Remove(last)
		delete(c.byKey, e.key)
		c.size -= e.size
	}
}
