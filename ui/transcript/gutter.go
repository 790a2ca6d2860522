package transcript

// marker is the symbol in the gutter on an entry's first line.
type marker int

const (
	markNone marker = iota
	markUser
	markAssistant
	markReasoning
	markToolPending
	markToolRunning
	markToolOK
	markToolError
	markNotice
	markError
	markRetry
	markCount
)

// gutters are the gutter strings, styled once per theme.
type gutters struct {
	blank   string
	bar     string
	markers [markCount]string
	barMark [markCount]string
}

func (s *state) buildGutters() {
	st := &s.styles
	symbols := [markCount]string{
		markNone:        " ",
		markUser:        st.UserMark.Render("❯"),
		markAssistant:   st.AgentMark.Render("●"),
		markReasoning:   st.Reasoning.Render("∴"),
		markToolPending: st.Muted.Render("○"),
		markToolRunning: st.Warning.Render("◐"),
		markToolOK:      st.OK.Render("✓"),
		markToolError:   st.Error.Render("✗"),
		markNotice:      st.Muted.Render("·"),
		markError:       st.Error.Render("✗"),
		markRetry:       st.Warning.Render("↻"),
	}
	bar := st.Focus.Render("▌")
	s.gutters.blank = "   "
	s.gutters.bar = bar + "  "
	for i, sym := range symbols {
		s.gutters.markers[i] = " " + sym + " "
		s.gutters.barMark[i] = bar + sym + " "
	}
}

// marker picks the gutter symbol of an entry.
func (s *state) marker(it *item) marker {
	switch it.kind {
	case KindUser:
		return markUser
	case KindAssistant:
		return markAssistant
	case KindReasoning:
		return markReasoning
	case KindTool:
		switch t := it.tool; {
		case t.done && t.isError:
			return markToolError
		case t.done:
			return markToolOK
		case t.running:
			return markToolRunning
		}
		return markToolPending
	case KindNotice:
		return markNotice
	case KindError:
		return markError
	case KindRetry:
		return markRetry
	}
	return markNone
}
