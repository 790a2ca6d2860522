package tree

import (
	"errors"
	"io/fs"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"pincer/tools"
)

// ListedMsg carries directory listings read by a Cmd of the pane. The root
// app hands it to Update.
type ListedMsg struct {
	// Root is the project root the listings belong to; a pane for another
	// root ignores the message.
	Root string
	// Seq numbers the request; an answer older than the latest request
	// for a directory is dropped.
	Seq uint64
	// Dirs are the directories read, each with its entries or error.
	Dirs []Listing
}

// Listing is one directory's entries, or why it could not be read.
type Listing struct {
	Rel     string        // the directory, relative to the root; "" is the root
	Entries []tools.Entry // as tools.ListDir returns them
	Err     error         // why the directory could not be read
}

// Refresh re-reads every directory on screen, after a tool run or when the
// person asks, and keeps what is expanded, what is selected and where the
// pane is scrolled: new files appear, deleted ones go. Directories that are
// open but hidden under a collapsed parent are re-read when they show again.
func (m *Model) Refresh() tea.Cmd {
	for _, n := range m.nodes {
		// A listing still in flight may have been read before the change.
		if n.isDir && (n.loaded || n.loading()) {
			n.stale = true
		}
	}
	return m.listVisible()
}

// listVisible asks for every directory whose entries are on screen (or
// about to be) and that was never read or may have changed.
func (m *Model) listVisible() tea.Cmd {
	var rels []string
	var walk func(dir *node)
	walk = func(dir *node) {
		if dir.stale || (!dir.loaded && !dir.loading()) {
			rels = append(rels, dir.rel)
		}
		for _, c := range dir.children {
			if c.isDir && c.expanded {
				walk(c)
			}
		}
	}
	walk(m.top)
	if len(rels) == 0 {
		return nil
	}
	m.seq++
	seq := m.seq
	for _, rel := range rels {
		n := m.nodes[rel]
		n.asked, n.stale = seq, false
	}
	m.rebuild() // shows "loading…" under directories never read
	root, list := m.root, m.list
	return func() tea.Msg {
		msg := ListedMsg{Root: root, Seq: seq, Dirs: make([]Listing, len(rels))}
		for i, rel := range rels {
			entries, err := list(root, rel)
			msg.Dirs[i] = Listing{Rel: rel, Entries: entries, Err: err}
		}
		return msg
	}
}

// applyListed puts listings into the tree and lays it out again, keeping
// the selected entry on the same line of the pane when it is still there.
func (m *Model) applyListed(msg ListedMsg) tea.Cmd {
	if msg.Root != m.root {
		return nil
	}
	selRel, hadSel := "", false
	if m.cursor >= 0 && m.cursor < len(m.rows) && m.rows[m.cursor].n != nil {
		selRel, hadSel = m.rows[m.cursor].n.rel, true
	}
	screenLine := m.cursor - m.offset
	selVisible := screenLine >= 0 && screenLine < m.bodyHeight()

	// Parents first, so a directory that went is gone before its own
	// (failed) listing is looked at.
	dirs := append([]Listing(nil), msg.Dirs...)
	sort.SliceStable(dirs, func(i, j int) bool { return depthOf(dirs[i].Rel) < depthOf(dirs[j].Rel) })
	for _, l := range dirs {
		n, ok := m.nodes[l.Rel]
		if !ok || !n.isDir || msg.Seq < n.asked {
			continue
		}
		n.got, n.loaded, n.err = msg.Seq, true, l.Err
		if l.Err != nil {
			m.merge(n, nil) // the note says why; Refresh tries again
			continue
		}
		m.merge(n, l.Entries)
	}
	m.rebuild()

	if hadSel {
		if i := m.rowOf(selRel); i >= 0 {
			m.cursor = i
			if selVisible {
				m.offset = i - screenLine
			}
		}
	}
	m.clampCursor()
	m.clampScroll()
	// A directory that was open under a refreshed one shows again and may
	// need reading too.
	return m.listVisible()
}

// toggle expands a collapsed directory (reading it when needed) or
// collapses an expanded one.
func (m *Model) toggle(n *node) tea.Cmd {
	if n.expanded {
		m.collapse(n)
		return nil
	}
	return m.expand(n)
}

func (m *Model) expand(n *node) tea.Cmd {
	if !n.isDir || n.expanded {
		return nil
	}
	n.expanded = true
	m.rebuild()
	return m.listVisible()
}

func (m *Model) collapse(n *node) {
	if !n.isDir || !n.expanded {
		return
	}
	n.expanded = false
	m.rebuild()
	m.clampCursor()
	m.clampScroll()
}

// errorNote is the line shown under a directory that could not be read.
func errorNote(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "cannot read: permission denied"
	case errors.Is(err, fs.ErrNotExist):
		return "cannot read: it no longer exists"
	}
	return "cannot read: " + err.Error()
}

// depthOf counts the levels of a root-relative path; the root is 0.
func depthOf(rel string) int {
	if rel == "" {
		return 0
	}
	return strings.Count(rel, "/") + 1
}

// RefreshDirs re-reads the given directories ("/"-separated, relative to
// the root) when they are on screen, after a change on disk that a watcher
// reported. Directories not read yet or not shown are left alone: they are
// read when they are opened.
func (m *Model) RefreshDirs(rels []string) tea.Cmd {
	for _, rel := range rels {
		if n, ok := m.nodes[rel]; ok && n.isDir && (n.loaded || n.loading()) {
			n.stale = true
		}
	}
	return m.listVisible()
}

// OpenDirs returns the directories whose entries are on screen: the root
// and every expanded directory under expanded parents. A watcher watches
// these and no others.
func (m *Model) OpenDirs() []string {
	var out []string
	var walk func(dir *node)
	walk = func(dir *node) {
		out = append(out, dir.rel)
		for _, c := range dir.children {
			if c.isDir && c.expanded {
				walk(c)
			}
		}
	}
	walk(m.top)
	return out
}
