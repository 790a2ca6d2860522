package ui

import "charm.land/bubbles/v2/textarea"

// inputRows remembers, for one text and width, which rows of the input box
// start a line the person typed and which continue a long line that
// wraps.
type inputRows struct {
	value  string
	width  int
	starts []bool // by display row
	valid  bool
}

// inputPrompt is the input's gutter: the › marker on the first row of each
// line, blank on the rows a long line wraps onto, so that wrapping does
// not look like new lines.
func (a *App) inputPrompt(info textarea.PromptInfo) string {
	r := &a.inputRows
	if v, w := a.input.Value(), a.input.Width(); !r.valid || v != r.value || w != r.width {
		*r = inputRows{value: v, width: w, starts: lineStarts(v, w), valid: true}
	}
	if info.LineNumber < len(r.starts) && !r.starts[info.LineNumber] {
		return "  "
	}
	return "› "
}

// lineStarts reports for each display row of text in a textarea whose
// text is width cells wide whether it starts a line. The rows are counted
// by a textarea of the same width, so they wrap exactly as the input does.
func lineStarts(text string, width int) []bool {
	if width <= 0 {
		return nil
	}
	p := textarea.New()
	p.ShowLineNumbers = false
	p.Prompt = ""
	p.CharLimit = 0
	p.MaxHeight = 0
	p.SetWidth(width + p.Styles().Focused.Base.GetHorizontalFrameSize())
	p.SetValue(text)
	p.MoveToBegin()
	var starts []bool
	for guard := 0; guard <= len(text)+1; guard++ {
		h := max(p.LineInfo().Height, 1)
		starts = append(starts, true)
		for i := 1; i < h; i++ {
			starts = append(starts, false)
		}
		line := p.Line()
		if line >= p.LineCount()-1 {
			break
		}
		for p.Line() == line {
			p.CursorDown()
		}
	}
	return starts
}
