package complete

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"pincer/tools"
)

// DefaultFileLimit is how many files LoadFiles offers at most when asked
// for 0: a project of 50,000 files is listed whole, and ranking them all
// for a key press takes a few milliseconds.
const DefaultFileLimit = 100000

// FilesMsg carries the project's files for "@" completion, from LoadFiles.
type FilesMsg struct {
	// Root is the project root the files were read from.
	Root string
	// Items are the files, shallow ones first, then by path, so an empty
	// query offers the top of the project.
	Items []Item
	// Truncated is true when the project holds more files than the limit;
	// the files left out are the deepest (the walk goes level by level).
	Truncated bool
	// Index is Items prepared for ranking, built off the screen's loop.
	Index *Index
	// Err is why the files could not be read; Items holds what was read.
	Err error
}

// LoadFiles returns the Cmd that lists every file under root the
// .gitignore files leave visible (at most limit of them, level by level;
// 0 means DefaultFileLimit), for the popup's "@" candidates, and prepares
// them for ranking. The root app runs it at start and after each tool
// run, and hands the FilesMsg's Index to OpenIndex or SetIndex.
func LoadFiles(ctx context.Context, root string, limit int) tea.Cmd {
	if limit <= 0 {
		limit = DefaultFileLimit
	}
	return func() tea.Msg {
		var paths []string
		err := tools.WalkFilesBreadthFirst(ctx, root, limit, func(rel string) error {
			paths = append(paths, rel)
			return nil
		})
		msg := FilesMsg{Root: root}
		switch {
		case errors.Is(err, tools.ErrLimitReached):
			msg.Truncated = true
		case err != nil:
			msg.Err = fmt.Errorf("list the project's files for completion: %w", err)
		}
		slices.SortFunc(paths, func(a, b string) int {
			if da, db := strings.Count(a, "/"), strings.Count(b, "/"); da != db {
				return da - db
			}
			return strings.Compare(a, b)
		})
		msg.Items = make([]Item, len(paths))
		for i, p := range paths {
			msg.Items[i] = Item{Value: p}
		}
		msg.Index = NewIndex(msg.Items)
		return msg
	}
}
