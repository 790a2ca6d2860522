package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

func TestTrimLineEnds(t *testing.T) {
	cases := []struct {
		writes []string
		width  int
		want   string
	}{
		{[]string{"a  \nb\n"}, 0, "a\nb\n"},
		{[]string{"a ", " ", "\n"}, 0, "a\n"}, // spaces split over writes
		{[]string{"a ", " b\n"}, 0, "a  b\n"}, // inner spaces kept
		{[]string{"  indented  \n"}, 0, "  indented\n"},
		{[]string{"end   "}, 0, "end"},
		// A row of a list continues under its description, its name
		// holding single spaces.
		{[]string{"    -c --continue  Resume the most", " recent session   \n"}, 30, "    -c --continue  Resume the\n                   most recent\n                   session\n"},
		{[]string{"  one two three four\n"}, 12, "  one two\n    three\n    four\n"},
		{[]string{"  short\n"}, 12, "  short\n"},
	}
	for _, c := range cases {
		var out strings.Builder
		w := &trimLineEnds{w: &out, width: c.width}
		for _, s := range c.writes {
			if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
				t.Fatalf("Write(%q) = %d, %v", s, n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != c.want {
			t.Errorf("%q at %d: got %q, want %q", c.writes, c.width, out.String(), c.want)
		}
	}
}

func TestWrapHanging(t *testing.T) {
	text := "Choose a provider with \"provider\" in ~/.config/pincer/config.json, PINCER_PROVIDER or --provider:\n" +
		"  groq        Groq: https://api.groq.com/openai/v1, key in GROQ_API_KEY; models such as openai/gpt-oss-120b, llama-3.3-70b-versatile\n" +
		"  short       fits\n"
	got := wrapHanging(text, 60)
	for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if len(l) > 60 {
			t.Errorf("a line of %d: %q", len(l), l)
		}
	}
	if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(text), " ") {
		t.Errorf("words changed:\n%s", got)
	}
	for _, want := range []string{"  groq        Groq:", "\n              ", "llama-3.3-70b-versatile", "  short       fits\n", "\n  ~/.config/pincer/config.json,"} {
		if !strings.Contains(got, want) {
			t.Errorf("the wrapped text lacks %q:\n%s", want, got)
		}
	}
}

// TestLongHelpIsEvenlyWrapped: every command's description, as help shows
// it, fits 80 columns without ragged lines (a line that ends early
// although the next word would have fitted), which an edit of the
// hand-wrapped text leaves behind. And every line of the whole help, as
// piped, fits 80 columns: the lists of commands and flags too.
func TestLongHelpIsEvenlyWrapped(t *testing.T) {
	const width = helpWidth
	root := (&cli{getenv: func(string) string { return "" }}).rootCommand()
	reflowHelp(root, width)
	var visit func(cmd *cobra.Command)
	visit = func(cmd *cobra.Command) {
		lines := strings.Split(cmd.Long, "\n")
		for i, l := range lines {
			if utf8.RuneCountInString(l) > width {
				t.Errorf("%s: a line of %d columns: %q", cmd.CommandPath(), utf8.RuneCountInString(l), l)
			}
			if i+1 >= len(lines) || l == "" || strings.HasPrefix(l, " ") {
				continue
			}
			next := lines[i+1]
			if next == "" || strings.HasPrefix(next, " ") || strings.HasPrefix(next, "- ") || strings.HasPrefix(next, "* ") {
				continue
			}
			word, _, _ := strings.Cut(next, " ")
			if utf8.RuneCountInString(l)+1+utf8.RuneCountInString(word) <= width-10 {
				t.Errorf("%s: a ragged line (%q would fit after it): %q", cmd.CommandPath(), word, l)
			}
		}
		helpLinesFit(t, cmd, width+2)
		for _, sub := range cmd.Commands() {
			visit(sub)
		}
	}
	visit(root)
}

// helpLinesFit runs "pincer … --help" for cmd, its output piped, and
// reports each line wider than width.
func helpLinesFit(t *testing.T, cmd *cobra.Command, width int) {
	t.Helper()
	args := append(strings.Fields(cmd.CommandPath())[1:], "--help")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" }); code != 0 {
		t.Errorf("%s --help: exit %d: %s", cmd.CommandPath(), code, stderr.String())
		return
	}
	if !strings.Contains(stdout.String(), "USAGE") {
		t.Errorf("%s --help printed no usage:\n%s", cmd.CommandPath(), stdout.String())
	}
	for _, l := range strings.Split(stdout.String(), "\n") {
		if n := utf8.RuneCountInString(l); n > width {
			t.Errorf("%s --help: a line of %d columns: %q", cmd.CommandPath(), n, l)
		}
	}
}
