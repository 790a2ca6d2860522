package telegram

import (
	"strings"
	"testing"
)

func TestToHTML(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, md, want string }{
		{"plain", "hello", "hello"},
		{"escapes", "a < b && c > d", "a &lt; b &amp;&amp; c &gt; d"},
		{"tags are text", "<b>not bold</b> <script>", "&lt;b&gt;not bold&lt;/b&gt; &lt;script&gt;"},
		{"underscores stay", "snake_case and __init__ and _x_", "snake_case and __init__ and _x_"},
		{"stars stay", "*ptr = 1", "*ptr = 1"},
		{"bold", "**yes** no", "<b>yes</b> no"},
		{"code", "run `go test ./...` now", "run <code>go test ./...</code> now"},
		{"code escapes", "`a<b>&`", "<code>a&lt;b&gt;&amp;</code>"},
		{"unclosed code", "a `b", "a `b"},
		{"heading", "## Plan", "<b>Plan</b>"},
		{"link", "[Go](https://go.dev/x?a=1&b=2)", `<a href="https://go.dev/x?a=1&amp;b=2">Go</a>`},
		{"javascript link", "[x](javascript:alert(1))", "[x](javascript:alert(1))"},
		{"fence", "```go\nif a < b {\n}\n```\nafter", "<pre>if a &lt; b {\n}</pre>\nafter"},
		{"open fence while streaming", "```\nx := <-ch", "<pre>x := &lt;-ch</pre>"},
		{"bold inside is not code", "**a `b` c**", "<b>a <code>b</code> c</b>"},
		{"control characters shown", "a\x1b[2Jb\u202e", "a␛[2Jb⟨U+202E⟩"},
		{"invalid utf-8", "a\xffb", "a⟨0xFF⟩b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ToHTML(tc.md)
			if got != tc.want {
				t.Errorf("ToHTML(%q) = %q, want %q", tc.md, got, tc.want)
			}
			if err := checkHTML(got); err != nil {
				t.Errorf("ToHTML(%q) = %q: %v", tc.md, got, err)
			}
		})
	}
}

func TestSplitKeepsCodeBlocksWhole(t *testing.T) {
	t.Parallel()
	var md strings.Builder
	md.WriteString("Here is the file:\n\n```go\n")
	for i := range 400 {
		md.WriteString("x := a < b && c > \"d\" // line ")
		md.WriteString(strings.Repeat("_", i%7))
		md.WriteString("\n")
	}
	md.WriteString("```\n\nAnd a long paragraph: ")
	md.WriteString(strings.Repeat("word <tag> & ", 800))
	md.WriteString("\n")
	chunks := Split(md.String(), MaxMessage)
	if len(chunks) < 3 {
		t.Fatalf("%d chunks for %d bytes", len(chunks), md.Len())
	}
	lines := 0
	for i, c := range chunks {
		h := ToHTML(c)
		if n := len([]rune(h)); n > MaxMessage {
			t.Errorf("chunk %d is %d characters", i, n)
		}
		if err := checkHTML(h); err != nil {
			t.Errorf("chunk %d: %v", i, err)
		}
		if strings.Count(c, "```")%2 != 0 {
			t.Errorf("chunk %d leaves a code block open:\n%s", i, c)
		}
		lines += strings.Count(c, "// line")
	}
	if lines != 400 {
		t.Errorf("the chunks hold %d of the 400 code lines", lines)
	}
	if !strings.HasPrefix(chunks[1], "```go\n") {
		t.Errorf("the second chunk does not reopen the code block: %.40q", chunks[1])
	}
	if got, want := strings.Count(strings.Join(chunks, ""), "word"), 800; got != want {
		t.Errorf("the chunks hold %d of %d words", got, want)
	}
}

func TestSplitShortIsOneChunk(t *testing.T) {
	t.Parallel()
	if got := Split("short **answer**", MaxMessage); len(got) != 1 || got[0] != "short **answer**" {
		t.Errorf("Split = %q", got)
	}
}
