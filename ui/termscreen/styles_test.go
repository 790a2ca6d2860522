package termscreen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"

	"pincer/ui/termscreen/termscreentest"
)

// TestStylesGoOutWhereTheyShow: what styleRewrite makes of the styles of
// a frame, and of two frames one after the other.
func TestStylesGoOutWhereTheyShow(t *testing.T) {
	const red, blue, code = "\x1b[38;2;255;123;114m", "\x1b[38;2;1;2;3m", "\x1b[38;2;240;163;107;48;2;42;42;48m"
	for _, tc := range []struct {
		name   string
		frames []string
		want   []string
	}{
		{"a reset and the same style again, across a move", []string{red + "for\x1b[m\x1b[45;8H" + red + "x"}, []string{red + "for\x1b[45;8Hx"}},
		{"the frame's closing reset waits for the next frame", []string{red + "func\x1b[m", red + "int\x1b[m", "plain"}, []string{red + "func", "int", "\x1b[mplain"}},
		{"blanks take whatever ink the pen has", []string{red + "a\x1b[m \x1b[1m \x1b[m" + red + "b"}, []string{red + "a  b"}},
		{"a blank with a background of its own gets it", []string{red + "a" + code + " x"}, []string{red + "a" + code + " x"}},
		{"a change of ink is one sequence", []string{"\x1b[1m\x1b[38;2;1;2;3mx"}, []string{"\x1b[38;2;1;2;3;1mx"}},
		{"a reset and a whole style beat turning each off", []string{"\x1b[1;3;4;7;38;2;1;2;3mx\x1b[m\x1b[38;2;9;9;9mx"}, []string{"\x1b[38;2;1;2;3;4;1;3;7mx\x1b[0;38;2;9;9;9mx"}},
		{"bold off keeps faint", []string{"\x1b[1;2mx\x1b[22;2my"}, []string{"\x1b[1;2mx\x1b[0;2my"}},
		{"a background is reset before a line feed", []string{code + "x\x1b[m\r\n\t" + code + "y"}, []string{code + "x\r\x1b[m\n\t" + code + "y"}},
		{"ink only: a line feed does not wait for it", []string{red + "x\x1b[m\r\n\t" + red + "y"}, []string{red + "x\r\n\ty"}},
		{"erasing takes the pen as the renderer meant it", []string{code + "x\x1b[m\x1b[K"}, []string{code + "x\x1b[m\x1b[K"}},
		{"an underlined blank shows its colour", []string{"\x1b[4mx\x1b[4;38;2;1;2;3m \x1b[mz"}, []string{"\x1b[4mx\x1b[38;2;1;2;3m \x1b[mz"}},
		{"a style not read here goes out as it is", []string{red + "x\x1b[21mdouble\x1b[m" + blue + "y"}, []string{red + "x\x1b[21mdouble\x1b[m" + blue + "y"}},
		{"a blue that is set back before it shows", []string{red + "x" + blue + "\x1b[45;1H" + red + "y"}, []string{red + "x\x1b[45;1Hy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s styleRewrite
			for i, f := range tc.frames {
				if got := string(s.rewrite([]byte(f))); got != tc.want[i] {
					t.Errorf("frame %d: %q became %q, want %q", i, f, got, tc.want[i])
				}
			}
		})
	}
}

// TestLazyStylesLeaveTheSameScreen: random frames of highlighted text
// (colours, bold, backgrounds, underline, reverse video, strike-through),
// blanks, moves, line feeds that scroll, erasing, and resets, shown by a
// terminal emulator as written and as styleRewrite rewrites them (its pen
// carried from frame to frame), leave screens that look the same cell for
// cell: the same characters, and the same styles but for what does not
// show on a blank, and the cursor in the same place. The rewrites are
// never longer, and save bytes.
func TestLazyStylesLeaveTheSameScreen(t *testing.T) {
	const w, h = 30, 8
	r := rand.New(rand.NewPCG(21, 4))
	styles := []string{"\x1b[m", "\x1b[1m", "\x1b[22m", "\x1b[3m", "\x1b[38;2;255;123;114m", "\x1b[38;2;210;168;255;1m",
		"\x1b[38;5;33m", "\x1b[31m", "\x1b[39m", "\x1b[48;2;42;42;48m", "\x1b[49m", "\x1b[4m", "\x1b[24m", "\x1b[4:3m",
		"\x1b[7m", "\x1b[27m", "\x1b[9m", "\x1b[29m", "\x1b[2m", "\x1b[58;2;9;9;9m", "\x1b[0;38;2;1;2;3m", "\x1b[21m"}
	bits := []string{"ab", "func", " ", "  ", "   ", "é", "世", "\r", "\n", "\r\n\t", "\t", "\b", "\x1b[K", "\x1b[2X",
		"\x1b[A", "\x1b[3C", "\x1b[12G", "\x1bM", "\x1b[S", "\x1b[2J"}
	saved := 0
	var s styleRewrite
	// The rewrites play on a terminal as strict about REP as tmux.
	long, short := vt.NewEmulator(w, h), &termscreentest.StrictREP{Emu: vt.NewEmulator(w, h)}
	for n := range 800 {
		var b strings.Builder
		fmt.Fprintf(&b, "\x1b[%d;%dH", 1+r.IntN(h), 1+r.IntN(w))
		// ascii says an ASCII character was written last, with only
		// styles after it: a REP may follow, as the renderer writes one.
		ascii := false
		for range 1 + r.IntN(20) {
			switch k := r.IntN(4); {
			case k == 0 && ascii:
				fmt.Fprintf(&b, "\x1b[%db", 1+r.IntN(4))
				ascii = false
			case k <= 1:
				b.WriteString(styles[r.IntN(len(styles))])
			default:
				bit := bits[r.IntN(len(bits))]
				b.WriteString(bit)
				ascii = bit[0] >= ' ' && bit[0] < 0x7f
			}
		}
		if r.IntN(2) == 0 {
			b.WriteString("\x1b[m") // as a frame of the renderer ends
		}
		frame := b.String()
		got := string(s.rewrite([]byte(frame)))
		// A frame may write a reset an earlier one left out: the frames
		// so far are what is never longer.
		if saved += len(frame) - len(got); saved < 0 {
			t.Fatalf("frame %d: the rewrites so far are longer; %q became %q", n, frame, got)
		}
		long.WriteString(frame)
		short.WriteString(got)
		if diff := looksDifferent(long, short.Emu, w, h); diff != "" {
			t.Fatalf("frame %d: %s\n%q\nrewritten\n%q", n, diff, frame, got)
		}
	}
	if saved == 0 {
		t.Error("no bytes saved: the test proves little")
	}
}

// looksDifferent says where two emulated screens look different, or ""
// where they do not: a blank's foreground, boldness and slant do not show,
// nor does an underline colour without an underline.
func looksDifferent(a, b *vt.Emulator, w, h int) string {
	cell := func(e *vt.Emulator, x, y int) (string, uv.Style) {
		c := e.CellAt(x, y)
		if c == nil {
			return " ", uv.Style{}
		}
		content, st := c.Content, c.Style
		if content == "" && c.Width != 0 {
			content = " "
		}
		if content == " " {
			st = showsOnBlank(st)
			if st.Underline != 0 || st.Attrs&(uv.AttrReverse|uv.AttrStrikethrough) != 0 {
				st = c.Style // the line or the reversed cell is in the foreground colour
			}
		}
		if st.Underline == 0 {
			st.UnderlineColor = nil // no line to colour
		}
		return content, st
	}
	for y := range h {
		for x := range w {
			ac, as := cell(a, x, y)
			bc, bs := cell(b, x, y)
			if ac != bc || !as.Equal(&bs) {
				return fmt.Sprintf("cell (%d, %d) is %q %+v, want %q %+v", x, y, bc, bs, ac, as)
			}
		}
	}
	if a.CursorPosition() != b.CursorPosition() {
		return fmt.Sprintf("cursor at %v, want %v", b.CursorPosition(), a.CursorPosition())
	}
	return ""
}

// strictText is the text that bytes draw on a terminal that forgets the
// character a REP repeats at any control sequence, as tmux does: the
// characters written and repeated, in order, with styles left out.
func strictText(b []byte) string {
	var sb strings.Builder
	var last string
	for i := 0; i < len(b); {
		if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '[' {
			n, prefix, params, final, ok := parseCSI(b, i)
			if !ok {
				break
			}
			if prefix == 0 && final == 'b' && last != "" {
				k := 1
				fmt.Sscanf(string(params), "%d", &k)
				sb.WriteString(strings.Repeat(last, k))
			}
			last = ""
			i = n
			continue
		}
		_, n := utf8.DecodeRune(b[i:])
		last = string(b[i : i+n])
		sb.WriteString(last)
		i += n
	}
	return sb.String()
}

// TestREPKeepsItsCharacter: a style change put off until it shows must
// not land between a character and the REP that repeats it, where tmux
// forgets the character (the status line kept "kspace" of an older
// line when six blanks were repeated that way).
func TestREPKeepsItsCharacter(t *testing.T) {
	const grey, gold = "\x1b[38;5;251m", "\x1b[38;5;180m"
	for _, tc := range []struct {
		name string
		in   string
		want string // the text drawn, on a strict terminal
	}{
		{"blanks after a change of ink only", gold + "workspace" + grey + " \x1b[6b", "workspace       "},
		{"blanks with a background of their own", gold + "a\x1b[48;5;235m \x1b[3b", "a    "},
		{"a letter after a change of ink", gold + "a" + grey + "b\x1b[3b", "abbbb"},
		{"a style between the letter and its REP", gold + "a" + grey + "\x1b[2b", "aaa"},
		{"a REP of one", gold + "a" + grey + "\x1b[b", "aa"},
		{"a multi-byte character", gold + "─" + grey + "\x1b[4b", "─────"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s styleRewrite
			out := s.rewrite([]byte(tc.in))
			if got := strictText(out); got != tc.want {
				t.Errorf("%q became %q, which draws %q, want %q", tc.in, out, got, tc.want)
			}
		})
	}
}
