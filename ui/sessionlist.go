package ui

import (
	"time"

	"charm.land/lipgloss/v2"

	"pincer/internal/human"
	"pincer/session"
	"pincer/ui/cells"
	"pincer/ui/complete"
)

// maxNameColumn caps the name column of the session picker.
const maxNameColumn = 24

// sessionItems are the picker's rows for list, laid out for a list width
// of listW in three aligned columns: the name (the session in use says
// so), the title of its first prompt, and on the right when it was last
// active and how many messages it has. The title is cut to the room left,
// so the name and the times are never cut; the filter matches names and
// titles.
func sessionItems(list []session.Session, current string, listW int, now time.Time) []complete.Item {
	names := make([]string, len(list))
	details := make([]string, len(list))
	nameW, detailW := 0, 0
	for i, s := range list {
		names[i] = cells.Sanitize(s.Label())
		if s.ID == current {
			names[i] += " (this one)"
		}
		names[i] = cells.Truncate(names[i], maxNameColumn)
		nameW = max(nameW, lipgloss.Width(names[i]))
		details[i] = human.Ago(now, s.Updated) + " · " + human.Plural(s.MessageCount, "msg")
		detailW = max(detailW, lipgloss.Width(details[i]))
	}
	// The list draws a margin of one cell each side and two cells before
	// the detail.
	titleRoom := listW - 2 - nameW - 2 - 2 - detailW
	items := make([]complete.Item, len(list))
	for i, s := range list {
		label := names[i] + cells.Spaces(nameW-lipgloss.Width(names[i]))
		if titleRoom >= 8 {
			title := human.OneLine(cells.Sanitize(s.Title), 200)
			label += "  " + cells.Truncate(title, titleRoom)
		}
		pad := cells.Spaces(detailW - lipgloss.Width(details[i]))
		items[i] = complete.Item{Value: s.ID, Label: label, Detail: pad + details[i]}
	}
	return items
}
