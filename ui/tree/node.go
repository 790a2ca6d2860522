package tree

import "pincer/tools"

// node is one entry of the tree. A directory's children are nil until its
// first listing arrives.
type node struct {
	name     string
	rel      string // relative to the root, "/"-separated; "" for the root
	isDir    bool
	expanded bool
	children []*node
	loaded   bool   // a listing (or its error) has arrived
	stale    bool   // the disk may have changed since the last request: ask again when visible
	asked    uint64 // the latest listing request for this directory
	got      uint64 // the request whose answer is shown
	err      error  // why the latest listing failed
}

// loading reports whether a listing was asked for and has not arrived.
func (n *node) loading() bool { return n.asked > n.got }

// row is one line below the title: an entry, or a note under an expanded
// directory (still loading, or unreadable).
type row struct {
	n     *node // nil for a note
	depth int
	note  string
}

// rebuild lays out the rows from the expanded directories. It costs one
// step per visible entry and runs only when the shape of the tree changes,
// never per frame.
func (m *Model) rebuild() {
	m.rows = m.rows[:0]
	m.appendChildren(m.top, 0)
	m.changed()
}

func (m *Model) appendChildren(dir *node, depth int) {
	switch {
	case dir.err != nil:
		m.rows = append(m.rows, row{depth: depth, note: errorNote(dir.err)})
		return
	case !dir.loaded && dir.loading():
		m.rows = append(m.rows, row{depth: depth, note: "loading…"})
		return
	case dir == m.top && dir.loaded && len(dir.children) == 0:
		m.rows = append(m.rows, row{depth: depth, note: "no files"})
		return
	}
	for _, c := range dir.children {
		m.rows = append(m.rows, row{n: c, depth: depth})
		if c.isDir && c.expanded {
			m.appendChildren(c, depth+1)
		}
	}
}

// merge replaces dir's children with a fresh listing, keeping the nodes of
// entries that are still there (with their expansion and their own
// children) and forgetting those that went.
func (m *Model) merge(dir *node, entries []tools.Entry) {
	old := make(map[string]*node, len(dir.children))
	for _, c := range dir.children {
		old[c.name] = c
	}
	children := make([]*node, 0, len(entries))
	for _, e := range entries {
		if c, ok := old[e.Name]; ok && c.isDir == e.IsDir {
			delete(old, e.Name)
			children = append(children, c)
			continue
		}
		c := &node{name: e.Name, rel: e.Rel, isDir: e.IsDir}
		m.nodes[c.rel] = c
		children = append(children, c)
	}
	for _, gone := range old {
		m.forget(gone)
	}
	dir.children = children
}

// forget drops n and everything below it from the index.
func (m *Model) forget(n *node) {
	if m.nodes[n.rel] == n {
		delete(m.nodes, n.rel)
	}
	for _, c := range n.children {
		m.forget(c)
	}
}

// rowOf returns the row showing rel, or -1.
func (m *Model) rowOf(rel string) int {
	for i, r := range m.rows {
		if r.n != nil && r.n.rel == rel {
			return i
		}
	}
	return -1
}

// parentRow returns the row of the directory holding row i, or -1 at the
// top level.
func (m *Model) parentRow(i int) int {
	depth := m.rows[i].depth
	for j := i - 1; j >= 0; j-- {
		if m.rows[j].depth < depth {
			return j
		}
	}
	return -1
}
