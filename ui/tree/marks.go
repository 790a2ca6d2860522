package tree

import (
	"path"
	"path/filepath"
	"strings"
)

// MarkKind is what the agent did to a file this session. A stronger kind
// replaces a weaker one: Read < Changed < Created, so a file that was
// created and then edited still shows as created.
type MarkKind int

// The marks, weakest first.
const (
	MarkNone MarkKind = iota
	MarkRead
	MarkChanged
	MarkCreated
)

// String names the mark for messages and tests.
func (k MarkKind) String() string {
	switch k {
	case MarkNone:
		return "none"
	case MarkRead:
		return "read"
	case MarkChanged:
		return "changed"
	case MarkCreated:
		return "created"
	}
	return "unknown"
}

// Mark records that the agent read, changed or created the file at rel
// ("/"-separated relative to the root, or an absolute path inside it; other
// paths are ignored). Changes and creations also mark every directory above
// the file, so a collapsed directory shows that something inside it moved;
// reads do not, since the agent reads far more than it touches.
func (m *Model) Mark(rel string, kind MarkKind) {
	rel, ok := m.relPath(rel)
	if !ok || kind <= MarkNone {
		return
	}
	if kind > m.marks[rel] {
		m.marks[rel] = kind
	}
	if kind >= MarkChanged {
		for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
			if kind > m.dirMarks[dir] {
				m.dirMarks[dir] = kind
			}
		}
	}
	m.changed()
}

// MarkOf returns the mark recorded for rel and, for a directory, the
// strongest mark below it.
func (m *Model) MarkOf(rel string) (own, below MarkKind) {
	rel, ok := m.relPath(rel)
	if !ok {
		return MarkNone, MarkNone
	}
	return m.marks[rel], m.dirMarks[rel]
}

// ClearMarks forgets every mark, as when a new session starts.
func (m *Model) ClearMarks() {
	clear(m.marks)
	clear(m.dirMarks)
	clear(m.problems)
	m.changed()
}

// relPath turns a path given to Mark into a clean root-relative one.
func (m *Model) relPath(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(m.root, p)
		if err != nil {
			return "", false
		}
		p = r
	}
	p = path.Clean(filepath.ToSlash(p))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
		return "", false
	}
	return p, true
}

// SetProblems records the files a language server reports errors in
// (root-relative with forward slashes, with their number), replacing the
// last set: each is marked, and so is every directory above it, so a
// collapsed directory shows that something inside is broken.
func (m *Model) SetProblems(files map[string]int) {
	clear(m.problems)
	for rel, n := range files {
		rel, ok := m.relPath(rel)
		if !ok || n <= 0 {
			continue
		}
		m.problems[rel] += n
		for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
			m.problems[dir] += n
		}
	}
	m.changed()
}

// Problems returns the errors recorded for rel (a file, or everything
// below a directory).
func (m *Model) Problems(rel string) int {
	rel, ok := m.relPath(rel)
	if !ok {
		return 0
	}
	return m.problems[rel]
}
