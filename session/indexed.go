package session

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"pincer/chat"
)

// What the search index reads of each message. Recall is for finding what
// was said and done, so it reads what people and the model wrote in full
// (up to maxIndexedText), the arguments of tool calls (the paths and
// commands, up to maxIndexedArgs), and the head of tool results (up to
// maxIndexedTool), which can be megabytes of file or command output whose
// first lines say what it is. Reasoning is not indexed. System messages are
// not indexed, except summaries, which tell a whole stretch of the
// conversation in a few paragraphs.
const (
	maxIndexedText = 32 << 10
	maxIndexedArgs = 1 << 10
	maxIndexedTool = 4 << 10
	// cutSlack is how far back from a size limit a cut looks for a space,
	// so that it does not leave half a word to be indexed.
	cutSlack = 64
)

// Term frequencies are stored multiplied by the weight of their message, so
// that a tool result's output counts half as much as the same words written
// by the person or the model: "the error we talked about" should rank above
// "a log that printed that error".
const (
	weightFull  = 2
	weightTool  = 1
	weightScale = 2 // weightFull: a stored frequency divided by this is the term frequency BM25 sees
)

// indexedText returns the text of the message that the search index reads
// and the weight of its terms; "" means the message is not indexed. Text
// that looks like a secret (a key, a token, a password) is left out, so it
// can never be recalled into another conversation or shown in a snippet.
func indexedText(m messageRecord) (string, int) {
	text, weight := rawIndexedText(m)
	if text == "" {
		return "", 0
	}
	text, _ = redactSecrets(text)
	return text, weight
}

// rawIndexedText is indexedText before secrets are taken out.
func rawIndexedText(m messageRecord) (string, int) {
	switch chat.Role(m.Role) {
	case chat.RoleUser:
		return head(m.Content, maxIndexedText), weightFull
	case chat.RoleAssistant:
		text := head(m.Content, maxIndexedText)
		var args strings.Builder
		for _, c := range m.ToolCalls {
			if args.Len() >= maxIndexedArgs {
				break
			}
			args.WriteString("\n")
			args.WriteString(c.Arguments)
		}
		return text + head(args.String(), maxIndexedArgs), weightFull
	case chat.RoleTool:
		return head(m.Content, maxIndexedTool), weightTool
	case chat.RoleSystem:
		if m.Kind == chat.KindSummary {
			return head(m.Content, maxIndexedText), weightFull
		}
	}
	return "", 0
}

// head returns at most the first limit bytes of s, cut at a space when one
// is near the limit and never inside a character.
func head(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	for i := cut; i > 0 && i > limit-cutSlack; i-- {
		if r, _ := utf8.DecodeRuneInString(s[i:]); unicode.IsSpace(r) {
			return s[:i]
		}
	}
	return s[:cut]
}

// termFreq is one term of a message with its frequency times the message's
// weight.
type termFreq struct {
	term string
	wtf  uint64
}

// indexedDoc is one message as the index sees it.
type indexedDoc struct {
	num    uint32
	seq    uint64
	time   int64  // Unix ns
	length uint64 // number of terms, the length BM25 normalises by
	terms  []termFreq
}

// analyseMessage returns message seq of session num as the index sees it,
// its terms in order; ok is false for a message that is not indexed.
func analyseMessage(num uint32, seq uint64, m messageRecord) (d indexedDoc, ok bool) {
	text, weight := indexedText(m)
	if text == "" {
		return indexedDoc{}, false
	}
	tf, length := analyse(text)
	if length == 0 {
		return indexedDoc{}, false
	}
	d = indexedDoc{num: num, seq: seq, time: m.Time.UnixNano(), length: uint64(length)}
	d.terms = make([]termFreq, 0, len(tf))
	for term, n := range tf {
		d.terms = append(d.terms, termFreq{term, uint64(n * weight)})
	}
	slices.SortFunc(d.terms, func(a, b termFreq) int { return strings.Compare(a.term, b.term) })
	return d, true
}
