package tools

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

// BenchmarkHTMLToMarkdown converts a page near the 5 MiB read cap: many
// sections of paragraphs, links and code, the worst case a fetch meets.
func BenchmarkHTMLToMarkdown(b *testing.B) {
	section := `<h2>Section</h2><p>Some text with <a href="/x">a link</a> and <code>code</code>, long enough to count as content for the reader.</p><pre><code>func f() {}</code></pre>`
	page := []byte("<html><body><nav><a href='/'>home</a></nav><article>" + strings.Repeat(section, (5<<20)/len(section)) + "</article></body></html>")
	u, _ := url.Parse("https://example.com/big")
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, err := htmlToMarkdown(context.Background(), page, "utf-8", u); err != nil {
			b.Fatal(err)
		}
	}
}
