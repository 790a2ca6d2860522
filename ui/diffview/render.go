package diffview

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"pincer/internal/human"
)

// noEOLText is written under a last line that has no line break, as diff -u
// does.
const noEOLText = `\ No newline at end of file`

// renderRow draws row r of the layout as screen lines, each exactly the
// row width wide and without the marker column. Hunk titles are drawn by the
// view, since they show which hunk is current.
func (p *palette) renderRow(d *doc, l *layout, r row, rejected bool) []string {
	switch r.kind {
	case rowGap:
		return []string{p.gap(r.hidden, l.rowW)}
	case rowNote:
		text := fitString("  "+noteText(d), l.rowW)
		return []string{p.st.Muted.Italic(true).Render(text) + spaces(l.rowW-ansi.StringWidth(text))}
	}
	if l.split {
		return p.splitRow(d, l, r, rejected)
	}
	return p.unifiedRow(d, l, r, rejected)
}

// unifiedRow draws a context, changed or no-line-break row in one column.
func (p *palette) unifiedRow(d *doc, l *layout, r row, rejected bool) []string {
	var b strings.Builder
	if r.kind == rowNoEOL {
		b.WriteString(p.number)
		b.WriteString(spaces(2*l.numbersW() + signW))
		b.WriteString(fitString(noEOLText, l.codeW))
		b.WriteString(spaces(l.codeW - min(len(noEOLText), l.codeW)))
		b.WriteString(ansi.ResetStyle)
		return []string{b.String()}
	}
	s, i, v, sign := d.old, r.old, vContext, byte(' ')
	switch {
	case r.kind == rowChange && r.old >= 0:
		v, sign = lineVariant(false, rejected), '-'
	case r.kind == rowChange:
		s, i, v, sign = d.new, r.new, lineVariant(true, rejected), '+'
	}
	chunks, cut := l.chunks(s, i, l.codeW)
	out := make([]string, len(chunks))
	for k, c := range chunks {
		b.Reset()
		b.WriteString(p.number)
		if k == 0 {
			p.numbers(&b, l.numW, r.old, r.new)
		} else {
			b.WriteString(spaces(2 * l.numbersW()))
		}
		p.signCell(&b, v, sign, k == 0)
		p.codeCell(&b, s, i, c, l.codeW, v, cut && k == len(chunks)-1)
		b.WriteString(ansi.ResetStyle)
		out[k] = b.String()
	}
	return out
}

// splitRow draws a row as two columns: the old line left, the new right.
func (p *palette) splitRow(d *doc, l *layout, r row, rejected bool) []string {
	leftV, rightV := vContext, vContext
	leftSign, rightSign := byte(' '), byte(' ')
	if r.kind == rowChange {
		leftV, leftSign = lineVariant(false, rejected), '-'
		rightV, rightSign = lineVariant(true, rejected), '+'
	}
	var lc, rc []chunk
	var lcut, rcut bool
	if r.kind != rowNoEOL {
		lc, lcut = l.chunks(d.old, r.old, l.leftW)
		rc, rcut = l.chunks(d.new, r.new, l.rightW)
	}
	rule := p.st.Faint.Render("│") + " "
	n := max(len(lc), len(rc), 1)
	out := make([]string, n)
	var b strings.Builder
	for k := range n {
		b.Reset()
		p.half(&b, d.old, r.old, lc, lcut, k, l.numW, l.leftW, leftV, leftSign, r.oldEOL)
		b.WriteString(ansi.ResetStyle)
		b.WriteString(rule)
		p.half(&b, d.new, r.new, rc, rcut, k, l.numW, l.rightW, rightV, rightSign, r.newEOL)
		b.WriteString(ansi.ResetStyle)
		out[k] = b.String()
	}
	return out
}

// half draws screen line k of one side of a side-by-side row: line i of s
// cut into chunks, or blank when the side has no line there. noEOL writes
// the missing-line-break note instead.
func (p *palette) half(b *strings.Builder, s *side, i int, chunks []chunk, cut bool, k, numW, w int, v variant, sign byte, noEOL bool) {
	b.WriteString(p.number)
	numbersW := 0
	if numW > 0 {
		numbersW = numW + 1
	}
	switch {
	case noEOL:
		b.WriteString(spaces(numbersW + signW))
		b.WriteString(fitString(noEOLText, w))
		b.WriteString(spaces(w - min(len(noEOLText), w)))
	case i < 0 || k >= len(chunks):
		b.WriteString(spaces(numbersW))
		if i >= 0 {
			// The other side wraps further: keep this line's colour.
			p.signCell(b, v, sign, false)
			b.WriteString(p.fill(v))
			b.WriteString(spaces(w))
			return
		}
		b.WriteString(spaces(signW + w))
	default:
		if numW > 0 {
			if k == 0 {
				b.WriteString(padLeft(strconv.Itoa(i+1), numW))
				b.WriteByte(' ')
			} else {
				b.WriteString(spaces(numbersW))
			}
		}
		p.signCell(b, v, sign, k == 0)
		p.codeCell(b, s, i, chunks[k], w, v, cut && k == len(chunks)-1)
	}
}

// numbers writes the old and new line numbers of a unified row.
func (p *palette) numbers(b *strings.Builder, numW, old, new int) {
	if numW == 0 {
		return
	}
	for _, n := range []int{old, new} {
		if n < 0 {
			b.WriteString(spaces(numW))
		} else {
			b.WriteString(padLeft(strconv.Itoa(n+1), numW))
		}
		b.WriteByte(' ')
	}
}

// signCell writes "+ ", "- " or "  " in the line's colours; continuation
// lines of a wrapped line get the colours without the sign.
func (p *palette) signCell(b *strings.Builder, v variant, sign byte, first bool) {
	b.WriteString(p.sign(v))
	if first {
		b.WriteByte(sign)
	} else {
		b.WriteByte(' ')
	}
	b.WriteByte(' ')
}

// codeCell writes chunk c of line i of s in variant v, padded to w cells;
// ellipsis ends it with "…" because the line goes on.
func (p *palette) codeCell(b *strings.Builder, s *side, i int, c chunk, w int, v variant, ellipsis bool) {
	text := s.text[i]
	start, last := 0, ""
	for _, sg := range s.segments(i) {
		if lo, hi := max(start, c.start), min(sg.end, c.end); lo < hi {
			if sgr := p.code(sg.tok, v); sgr != last {
				b.WriteString(sgr)
				last = sgr
			}
			b.WriteString(text[lo:hi])
		}
		start = sg.end
		if start >= c.end {
			break
		}
	}
	pad := w - c.width
	b.WriteString(p.fill(v))
	if ellipsis && pad > 0 {
		b.WriteString("…")
		pad--
	}
	b.WriteString(spaces(pad))
}

// gap draws the line that stands for unchanged lines left out.
func (p *palette) gap(hidden, w int) string {
	text := fmt.Sprintf("┄┄┄ %s unchanged ", human.Plural(hidden, "line"))
	text = fitString(text, w)
	return p.st.Faint.Render(text + strings.Repeat("┄", max(w-ansi.StringWidth(text), 0)))
}

// noteText is what a diff without lines says instead.
func noteText(d *doc) string {
	switch {
	case d.binary && len(d.hunks) == 0:
		return "Binary content, unchanged."
	case d.binary && d.preview:
		return fmt.Sprintf("Binary content is not shown (%s → %s).", human.Bytes(int64(len(d.before))), human.Bytes(int64(len(d.after))))
	case d.binary:
		return fmt.Sprintf("Binary content is not shown (%s → %s); the change is accepted or rejected whole.", human.Bytes(int64(len(d.before))), human.Bytes(int64(len(d.after))))
	case d.preview:
		return "No change to show: the file is already as it will be."
	}
	return "No changes: the proposal is the same as the file."
}

// chunks cuts line i of s for a code column w wide: wrapped when wrapping
// is on, else one chunk. A side without a line there has no chunks.
func (l *layout) chunks(s *side, i, w int) ([]chunk, bool) {
	if i < 0 {
		return nil, false
	}
	if !l.wrap {
		return wrapLine(s.text[i], w, 1)
	}
	return wrapLine(s.text[i], w, maxWrapLines)
}

// fitString cuts plain s to w cells, ending it with "…" when cut.
func fitString(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

func padLeft(s string, w int) string {
	return spaces(w-len(s)) + s
}

// spaces returns n spaces; none for n <= 0.
func spaces(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(" ", n)
}
