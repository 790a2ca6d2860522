package cli

import (
	"strings"
	"testing"
)

func TestTrimLineEnds(t *testing.T) {
	cases := []struct {
		writes []string
		want   string
	}{
		{[]string{"a  \nb\n"}, "a\nb\n"},
		{[]string{"a ", " ", "\n"}, "a\n"}, // spaces split over writes
		{[]string{"a ", " b\n"}, "a  b\n"}, // inner spaces kept
		{[]string{"  indented  \n"}, "  indented\n"},
		{[]string{"end   "}, "end"},
	}
	for _, c := range cases {
		var out strings.Builder
		w := &trimLineEnds{w: &out}
		for _, s := range c.writes {
			if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
				t.Fatalf("Write(%q) = %d, %v", s, n, err)
			}
		}
		if out.String() != c.want {
			t.Errorf("%q: got %q, want %q", c.writes, out.String(), c.want)
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
