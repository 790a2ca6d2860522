package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestUnclosedMarkup(t *testing.T) {
	cases := []struct{ src, want string }{
		{"All done.", ""},
		{"This is **important", "**"},
		{"Run `go vet", "`"},
		{"A **bold and *em", "***"},
		{"See [the docs](https://example.com/pa", ")"},
		{"Closed **bold** and `code` here", ""},
		{"* a list item with **bold", "**"},
		{"An escaped \\*star", ""},
		{"snake_case_name and __strong", "__"},
		{"earlier **open\n\nnew paragraph", ""},
		{"```go\nfunc main() { **x", ""},
		{"`code with ** inside", "`"},
		{"~~struck", "~~"},
	}
	for _, c := range cases {
		if got := unclosedMarkup(c.src); got != c.want {
			t.Errorf("unclosedMarkup(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

// TestInterruptedAnswerEndsInRenderedText: an answer stopped in the middle
// of bold text or a code span is drawn as such, without a stray ** or `,
// live and when the session is resumed; its text (for copying) is what
// arrived.
func TestInterruptedAnswerEndsInRenderedText(t *testing.T) {
	const cut = "The fix is to **always check the error from `os.Open"
	m := newTestModel(80, 20)
	m.AppendText(cut)
	m.FinishAssistant(true)
	live := ansi.Strip(m.View())
	r := newTestModel(80, 20)
	r.Load(Entry{Kind: KindAssistant, Text: cut, Interrupted: true})
	resumed := ansi.Strip(r.View())
	for name, view := range map[string]string{"live": live, "resumed": resumed} {
		if strings.Contains(view, "**") || strings.Contains(view, "`") {
			t.Errorf("%s: the answer ends in raw markdown:\n%s", name, view)
		}
		if !strings.Contains(view, "os.Open") || !strings.Contains(view, "(interrupted)") {
			t.Errorf("%s: the answer or its mark is missing:\n%s", name, view)
		}
	}
	if text, _ := m.s.items[len(m.s.items)-1].doc.text(), 0; text != cut {
		t.Errorf("the answer's text became %q", text)
	}
}

// TestUnclosedAndOpenedAgree: what unclosedMarkup closes at the end of an
// answer cut short and where openedAt says the growing end's open markup
// begins come from one scan, so they never disagree: a "](" with no "["
// before it is not a link for either (it once was for unclosedMarkup,
// which then closed a ")" that the finished answer never has).
func TestUnclosedAndOpenedAgree(t *testing.T) {
	for _, c := range []struct {
		para, closers string
		at            int
	}{
		{"plain words", "", -1},
		{"a **bold", "**", 2},
		{"see [docs](http://x/pa", ")", 4},
		{"see [docs](http://x/p *a", ")", 4},
		{"[a *b](c", ")*", 0},
		{"[brackets] and *em", "*", 15},
		{"x](y *z", "*", 5},
		{"[x](y) z](w *v", "*", 12},
		{"`code ** in` and ~~gone", "~~", 17},
		{"\\[not a link](x *e", "*", 16},
		{"* bullet then `co", "`", 14},
	} {
		if got := unclosedMarkup(c.para); got != c.closers {
			t.Errorf("unclosedMarkup(%q) = %q, want %q", c.para, got, c.closers)
		}
		if got := openedAt(c.para); got != c.at {
			t.Errorf("openedAt(%q) = %d, want %d", c.para, got, c.at)
		}
	}
}
