package diffview

// ContentHeight is the height View needs at the current width to show the
// whole diff with its status line and note, so that a dialog can size
// itself to a short diff instead of filling the screen with blank lines.
func (m Model) ContentHeight() int {
	if m.width <= 0 {
		return 0
	}
	return 1 + len(m.noteLines()) + m.layout().total()
}
