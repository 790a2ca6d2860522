// Package transcripttest holds what tests and benchmarks of the transcript
// and the screen share, so both stream the same answers.
package transcripttest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// VariedAnswer is about n bytes of the markdown a model writes, whose
// blocks all differ: headings, paragraphs that wrap with inline code, lists
// with bold words, and short code blocks. It is the same for the same n, so
// byte and allocation figures repeat between runs.
func VariedAnswer(n int) string {
	words := strings.Fields(`parser reads whole file walks each declaration records names defines later pass
		resolve references without second read disk cache entries evicted index tokens buffer stream
		handler request returns error wraps context caller checks both paths tests cover config`)
	r := rand.New(rand.NewPCG(3, 5))
	say := func(k int) string {
		out := make([]string, k)
		for i := range out {
			out[i] = words[r.IntN(len(words))]
		}
		return strings.Join(out, " ")
	}
	var b strings.Builder
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, "## Step %d: %s\n\n%s `%s` %s.\n\n", i, say(3), say(12+r.IntN(40)), say(1), say(5+r.IntN(30)))
		for range 1 + r.IntN(3) {
			fmt.Fprintf(&b, "- %s **%s** %s\n", say(2), say(1), say(1+r.IntN(8)))
		}
		fmt.Fprintf(&b, "\n```go\nfunc step%d() error {\n\treturn %q\n}\n```\n\n", i, say(3))
	}
	return b.String()
}
