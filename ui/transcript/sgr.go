package transcript

import (
	"strings"
)

// tidyLine removes what glamour adds to a rendered line but a terminal does
// not show: the trailing spaces it pads every line to the full width with,
// each wrapped in its own colour sequence. Spaces that show (with a
// background, reverse video, underline or strike-through, like the padding of
// a heading badge) are kept. It also drops colour sequences that style
// nothing. The line is left with no open style.
//
// Rendered transcripts are kept in memory for the whole session, and glamour's
// padding is most of their bytes.
func tidyLine(line string) string {
	if strings.IndexByte(line, 0x1b) < 0 {
		// A copy: a piece of glamour's output would keep all of it alive.
		return strings.Clone(strings.TrimRight(line, " "))
	}
	b := make([]byte, 0, len(line))
	var st sgrState
	pending := ""  // style sequences not yet followed by text
	lastOpen := "" // the style sequences written most recently
	justReset := false
	cut := 0        // length of b up to the last visible cell
	styled := false // b holds a style that is not reset yet
	openAtCut := false
	for i := 0; i < len(line); {
		if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
			j := i + 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			if j >= len(line) {
				break // a cut-off sequence: drop it
			}
			seq := line[i : j+1]
			i = j + 1
			if line[j] != 'm' {
				continue // not a style: drop cursor movement and the like
			}
			st.apply(seq[2 : len(seq)-1])
			if isReset(seq) {
				pending = ""
				if styled {
					b = append(b, resetSGR...)
					styled = false
					justReset = true
				}
				continue
			}
			pending += seq
			continue
		}
		if line[i] == 0x1b && i+1 < len(line) && strings.IndexByte("]P_^X", line[i+1]) >= 0 {
			// A string sequence (OSC, DCS, APC, PM, SOS), up to BEL or ST.
			// Hyperlinks (OSC 8) are kept where they are; the rest is
			// dropped.
			end, next := stringEnd(line, i+2)
			seq := line[i:next]
			i = next
			if end >= 0 && strings.HasPrefix(seq, "\x1b]8;") {
				if pending != "" {
					b = append(b, pending...)
					lastOpen, pending, styled = pending, "", true
				}
				b = append(b, seq...)
				justReset = false
				cut = len(b) // a link must be closed where it was
				openAtCut = styled
			}
			continue
		}
		if line[i] == 0x1b {
			i++ // any other escape: drop the escape byte
			continue
		}
		// One visible character.
		if pending != "" {
			if justReset && pending == lastOpen {
				// The same style again right after its reset: continue it.
				b = b[:len(b)-len(resetSGR)]
			} else {
				b = append(b, pending...)
				lastOpen = pending
			}
			pending = ""
			styled = true
		}
		justReset = false
		c := line[i]
		b = append(b, c)
		i++
		for i < len(line) && line[i]&0xc0 == 0x80 {
			b = append(b, line[i]) // the rest of a multi-byte character
			i++
		}
		if c != ' ' || st.visibleSpace() {
			cut = len(b)
			openAtCut = styled
		}
	}
	if cut == 0 {
		return ""
	}
	out := string(b[:cut])
	if openAtCut {
		out += resetSGR
	}
	return out
}

const resetSGR = "\x1b[m"

// stringEnd finds the end of a string sequence whose body starts at i: it
// returns the offset of its terminator (BEL or ESC \\), or -1 when the line
// ends first, and the offset after the terminator.
func stringEnd(line string, i int) (end, next int) {
	for j := i; j < len(line); j++ {
		switch line[j] {
		case 0x07:
			return j, j + 1
		case 0x1b:
			if j+1 < len(line) && line[j+1] == '\\' {
				return j, j + 2
			}
		}
	}
	return -1, len(line)
}

func isReset(seq string) bool { return seq == "\x1b[m" || seq == "\x1b[0m" }

// sgrState tracks the attributes that make a space visible.
type sgrState struct {
	bg, reverse, underline, strike bool
}

// apply updates the state from the parameters of one SGR sequence.
func (s *sgrState) apply(params string) {
	if params == "" {
		*s = sgrState{}
		return
	}
	fields := strings.Split(params, ";")
	for k := 0; k < len(fields); k++ {
		f := fields[k]
		if i := strings.IndexByte(f, ':'); i >= 0 {
			f = f[:i] // sub-parameters (underline styles, colours) carry no on/off
		}
		switch f {
		case "", "0":
			*s = sgrState{}
		case "4", "21":
			s.underline = true
		case "24":
			s.underline = false
		case "7":
			s.reverse = true
		case "27":
			s.reverse = false
		case "9":
			s.strike = true
		case "29":
			s.strike = false
		case "49":
			s.bg = false
		case "38":
			k += colourArgs(fields, k)
		case "48":
			s.bg = true
			k += colourArgs(fields, k)
		default:
			if len(f) == 2 && f[0] == '4' && f[1] >= '0' && f[1] <= '7' {
				s.bg = true
			} else if len(f) == 3 && f[0] == '1' && f[1] == '0' && f[2] >= '0' && f[2] <= '7' {
				s.bg = true
			}
		}
	}
}

// colourArgs is how many fields after an extended colour (38/48) belong to it.
func colourArgs(fields []string, k int) int {
	if k+1 >= len(fields) {
		return 0
	}
	switch fields[k+1] {
	case "5":
		return 2
	case "2":
		return 4
	}
	return 0
}

func (s sgrState) visibleSpace() bool { return s.bg || s.reverse || s.underline || s.strike }
