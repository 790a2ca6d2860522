package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestTidyLine(t *testing.T) {
	const fg = "\x1b[38;5;252m"
	tests := []struct {
		name, in, want string
		visibleSpaces  bool // trailing spaces show, so they stay
	}{
		{"plain trailing spaces", "text   ", "text", false},
		{"all spaces", "    ", "", false},
		{"padding cells dropped", fg + "word\x1b[m" + fg + " \x1b[m" + fg + " \x1b[m", fg + "word\x1b[m", false},
		{"same style continued after reset", fg + "one\x1b[m" + fg + " two\x1b[m", fg + "one two\x1b[m", false},
		{"different styles kept apart", fg + "one\x1b[m\x1b[1m two\x1b[m", fg + "one\x1b[m\x1b[1m two\x1b[m", false},
		{"styles with no text dropped", fg + "\x1b[m" + fg + "a\x1b[m", fg + "a\x1b[m", false},
		{"background spaces kept", "\x1b[48;5;63m Title \x1b[m" + fg + "  \x1b[m", "\x1b[48;5;63m Title \x1b[m", true},
		{"truecolour background spaces kept", "\x1b[38;2;1;2;3;48;2;4;5;6m x \x1b[m   ", "\x1b[38;2;1;2;3;48;2;4;5;6m x \x1b[m", true},
		{"background ends, spaces go", "\x1b[44mx\x1b[49m   ", "\x1b[44mx\x1b[m", false},
		{"reverse spaces kept", "\x1b[7m  \x1b[m", "\x1b[7m  \x1b[m", true},
		{"underlined spaces kept", "\x1b[4ma b \x1b[m ", "\x1b[4ma b \x1b[m", true},
		{"open style closed", fg + "text", fg + "text\x1b[m", false},
		{"open style closed after trimming", fg + "text   ", fg + "text\x1b[m", false},
		{"cursor movement dropped", "a\x1b[2Kb", "ab", false},
		{"cut-off sequence dropped", "ab\x1b[38;5", "ab", false},
		{"multi-byte text", fg + "日本語 →\x1b[m" + fg + " \x1b[m", fg + "日本語 →\x1b[m", false},
		{"hyperlink kept", fg + "See \x1b[m\x1b]8;id=1;https://x.y\a\x1b[1mdocs\x1b[m\x1b]8;;\a" + fg + " \x1b[m", fg + "See \x1b[m\x1b]8;id=1;https://x.y\a\x1b[1mdocs\x1b[m\x1b]8;;\a", false},
		{"hyperlink with ST kept", "\x1b]8;;https://x.y\x1b\\link\x1b]8;;\x1b\\  ", "\x1b]8;;https://x.y\x1b\\link\x1b]8;;\x1b\\", false},
		{"title sequence dropped", "a\x1b]0;title\ab", "ab", false},
		{"cut-off hyperlink dropped", "a\x1b]8;;https://x", "a", false},
		{"leading spaces kept", "  " + fg + "x\x1b[m", "  " + fg + "x\x1b[m", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tidyLine(tt.in)
			if got != tt.want {
				t.Errorf("tidyLine(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			// The visible text is the input's, less trailing blanks.
			if s, w := ansi.Strip(got), strings.TrimRight(ansi.Strip(tt.in), " "); !tt.visibleSpaces && s != w {
				t.Errorf("visible text %q, want %q", s, w)
			}
		})
	}
}

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\nsecond line", "plain text\nsecond line"},
		{"\x1b[31mred\x1b[0m text", "␛[31mred␛[0m text"},
		{"move\x1b[2Jclear", "move␛[2Jclear"},
		{"title\x1b]0;evil\x07done", "title␛]0;evil␇done"},
		{"a\tb", "a   b"},
		{"\tindented", "    indented"},
		{"ab\tc", "ab  c"},
		{"crlf\r\nline", "crlf\nline"},
		{"over\rwrite", "over␍write"},
		{"bell\x07 and nul\x00", "bell␇ and nul␀"},
		{"c1 \u0085 control", "c1 ⟨U+0085⟩ control"},
		{"bidi \u202eexe.txt", "bidi ⟨U+202E⟩exe.txt"},
		{"unicode ünïcödé 🚀", "unicode ünïcödé 🚀"},
		{"bad utf-8 \xff", "bad utf-8 ⟨0xFF⟩"},
	}
	for _, tt := range tests {
		if got := sanitize(tt.in); got != tt.want {
			t.Errorf("sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestGrowingTextWrapsLikeWhole feeds text in pieces: the incrementally
// wrapped lines must equal wrapping the whole text at once.
func TestGrowingTextWrapsLikeWhole(t *testing.T) {
	text := "The user asks about the parser.\nI should read header.go first, then check the callers of parseHeader for the same assumption about the number of lines.\n\nDone thinking."
	for _, step := range []int{1, 5, 33} {
		g := &growingText{gen: -1}
		var got []string
		for i := 0; i < len(text); i += step {
			g.append(text[i:min(i+step, len(text))])
			got = g.wrapped(0, 30)
		}
		if want := wrapPlain(text, 30); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("step %d:\n got %q\nwant %q", step, got, want)
		}
	}
	// A new generation wraps again at the new width.
	g := &growingText{gen: -1}
	g.append(text)
	g.wrapped(0, 30)
	if got, want := g.wrapped(1, 50), wrapPlain(text, 50); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("after a width change:\n got %q\nwant %q", got, want)
	}
}
