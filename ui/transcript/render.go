package transcript

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"pincer/internal/human"
)

// itemLines returns the entry's lines at the current width and theme,
// rendering them if they are missing or stale.
func (s *state) itemLines(it *item) []string {
	if it.gen == s.gen {
		return it.lines
	}
	it.lines = s.render(it)
	it.gen = s.gen
	return it.lines
}

// render draws one entry, without its gutter.
func (s *state) render(it *item) []string {
	w := s.contentWidth()
	st := &s.styles
	switch it.kind {
	case KindUser:
		return styleLines(wrapPlain(it.text, w), st.User)
	case KindAssistant:
		lines := it.doc.render(s.gen, w, s.md)
		if it.interrupted {
			mark := st.Warning.Render("(interrupted)")
			if len(lines) == 0 {
				return []string{mark}
			}
			out := make([]string, len(lines), len(lines)+1)
			copy(out, lines)
			return append(out, mark)
		}
		return lines
	case KindReasoning:
		return s.renderReasoning(it, w)
	case KindTool:
		return s.renderCard(it, w)
	case KindNotice:
		return styleLines(wrapPlain(it.text, w), st.Muted)
	case KindError:
		return styleLines(wrapPlain(it.text, w), st.Error)
	case KindRetry:
		return styleLines(wrapPlain(it.text, w), st.Warning)
	case KindCompressed:
		return s.renderCompressed(it, w)
	case KindRecalled:
		return s.renderRecalled(it, w)
	}
	return nil
}

func (s *state) renderReasoning(it *item, w int) []string {
	st := &s.styles
	if !it.expanded {
		n := nonEmptyLines(it.body.String())
		label := "Thinking… (" + human.Plural(n, "line") + ")"
		return []string{st.Reasoning.Render(ansi.Truncate(label, w, "…"))}
	}
	body := it.body.wrapped(s.gen, max(w-2, 1))
	out := make([]string, 0, len(body)+1)
	out = append(out, st.Reasoning.Render("Thinking…"))
	for _, l := range body {
		out = append(out, "  "+st.Reasoning.Render(l))
	}
	return out
}

func (s *state) renderCompressed(it *item, w int) []string {
	st := &s.styles
	label := " earlier messages compressed "
	if it.n > 0 {
		label = " " + human.Plural(it.n, "earlier message") + " compressed "
	}
	label = ansi.Truncate(label, max(w-4, 1), "…")
	side := max((w-ansi.StringWidth(label))/2, 2)
	rule := strings.Repeat("─", side)
	line := rule + label + rule
	line = ansi.Truncate(line, w, "")
	out := []string{st.Faint.Render(line)}
	if it.expanded {
		out = append(out, "")
		out = append(out, styleLines(wrapPlain(it.text, w), st.Muted)...)
	}
	return out
}

func (s *state) renderRecalled(it *item, w int) []string {
	st := &s.styles
	line := "▸ " + it.label + " (enter shows what the model was given)"
	if it.expanded {
		line = "▾ " + it.label
	}
	out := styleLines(wrapPlain(line, w), st.Faint)
	if it.expanded {
		for _, l := range wrapPlain(it.text, max(w-2, 1)) {
			out = append(out, "  "+st.Muted.Render(l))
		}
	}
	return out
}

// styleLines applies a style to each line.
func styleLines(lines []string, style lipgloss.Style) []string {
	for i, l := range lines {
		if l != "" {
			lines[i] = style.Render(l)
		}
	}
	return lines
}

func nonEmptyLines(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}
