package ui

import (
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/textarea"
)

// inputRows remembers, for one text and width, which rows of the input box
// start a line the person typed and which continue a long line that
// wraps, and how many rows each long line took, so that a keystroke
// measures only the line it changed.
type inputRows struct {
	value   string
	width   int
	starts  []bool // by display row
	valid   bool
	heights map[string]int // rows of a long line at width
	probe   *textarea.Model
}

// maxMeasuredLines bounds inputRows.heights.
const maxMeasuredLines = 256

// inputPrompt is the input's gutter: the › marker on the first row of each
// line, blank on the rows a long line wraps onto, so that wrapping does
// not look like new lines.
func (a *App) inputPrompt(info textarea.PromptInfo) string {
	r := &a.inputRows
	if v, w := a.input.Value(), a.input.Width(); !r.valid || v != r.value || w != r.width {
		a.measureInput(v, w)
	}
	if info.LineNumber < len(r.starts) && !r.starts[info.LineNumber] {
		return "  "
	}
	return "› "
}

// measureInput works out the line starts of the input's text v at width
// w. The line with the cursor is measured by the input itself; other long
// lines come from earlier measurements, or from a probe textarea.
func (a *App) measureInput(v string, w int) {
	r := &a.inputRows
	if w != r.width || len(r.heights) > maxMeasuredLines {
		r.heights = map[string]int{}
	}
	r.value, r.width, r.valid = v, w, true
	r.starts = r.starts[:0]
	cursor := a.input.Line()
	for i, line := range strings.Split(v, "\n") {
		rows := 1
		if mayWrap(line, w) {
			h, ok := r.heights[line]
			switch {
			case i == cursor:
				h = a.input.LineInfo().Height
			case !ok:
				h = r.measure(line, w)
			}
			rows = max(h, 1)
			r.heights[line] = rows
		}
		r.starts = append(r.starts, true)
		for j := 1; j < rows; j++ {
			r.starts = append(r.starts, false)
		}
	}
}

// mayWrap reports whether line could take more than one row at width w: a
// character is at most two cells wide.
func mayWrap(line string, w int) bool { return 2*utf8.RuneCountInString(line) >= w }

// measure counts the rows line takes in a textarea whose text is w cells
// wide, with a textarea of that width, so it wraps exactly as the input.
func (r *inputRows) measure(line string, w int) int {
	if r.probe == nil || r.probe.Width() != w {
		p := textarea.New()
		p.ShowLineNumbers = false
		p.Prompt = ""
		p.CharLimit = 0
		p.MaxHeight = 0
		p.SetWidth(w + p.Styles().Focused.Base.GetHorizontalFrameSize())
		r.probe = &p
	}
	r.probe.SetValue(line)
	return r.probe.LineInfo().Height
}
