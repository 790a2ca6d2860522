// Package tree is the project tree side pane of pincer's screen: the
// project's files as the .gitignore files leave them, directories that list
// themselves only when first opened, keyboard navigation while focused, and
// marks on the files the agent read, changed or created this session.
//
// Directories are read in tea.Cmds, never in Update: the pane asks for a
// listing and applies the ListedMsg that comes back. Only the visible lines
// are drawn, so a directory of ten thousand entries costs what a short one
// does.
package tree

import (
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"pincer/tools"
)

// SelectMsg is sent when the person presses Enter on a file: the root app
// puts "@" + Path into the input.
type SelectMsg struct {
	// Path is the file's path relative to the project root, "/"-separated.
	Path string
}

// lister reads one directory of the project; tools.ListDir in the program,
// a fake in tests that need errors the file system will not produce.
type lister func(root, rel string) ([]tools.Entry, error)

// Model is the tree pane. Make one with New; the zero Model shows nothing.
// Its methods have pointer receivers; a copy shares the listed directories
// with the original, so keep one Model and update it in place.
type Model struct {
	root  string // absolute project root
	title string
	list  lister

	top   *node            // the project root; its children are the top level
	nodes map[string]*node // every listed node by Rel, the root under ""
	rows  []row            // the lines below the title when scrolled to the top
	seq   uint64           // numbers listing requests, so an older answer never overwrites a newer one

	cursor, offset int // selected row; first row drawn
	width, height  int
	focused        bool

	marks    map[string]MarkKind // by Rel, as Mark was told
	dirMarks map[string]MarkKind // by directory Rel: the strongest change below it
	problems map[string]int      // errors by Rel, a directory's those below it (SetProblems)

	styles Styles
	keys   KeyMap

	version uint64     // counts changes to what View draws
	cache   *viewCache // shared with copies, keyed by version
}

// viewCache holds the last drawn pane, so an idle pane costs nothing to draw.
type viewCache struct {
	version uint64
	valid   bool
	s       string
}

// New returns a tree pane for the project at root, titled with its
// directory name, with DefaultStyles and DefaultKeyMap. Nothing is read
// until the Cmd from Init runs.
func New(root string) Model {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = filepath.Clean(root)
	}
	top := &node{isDir: true, expanded: true}
	return Model{
		root:     abs,
		title:    filepath.Base(abs),
		list:     tools.ListDir,
		top:      top,
		nodes:    map[string]*node{"": top},
		marks:    map[string]MarkKind{},
		dirMarks: map[string]MarkKind{},
		problems: map[string]int{},
		styles:   DefaultStyles().layoutSafe(),
		keys:     DefaultKeyMap(),
		cache:    &viewCache{},
	}
}

// Init returns the Cmd that lists the project root.
func (m *Model) Init() tea.Cmd {
	return m.listVisible()
}

// Root returns the absolute project root the pane shows.
func (m *Model) Root() string { return m.root }

// SetSize sets the pane's size in cells; View draws exactly height lines of
// exactly width cells.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = max(width, 0), max(height, 0)
	m.moveTo(m.cursor) // keep the selection on screen

}

// Size returns the pane's width and height in cells.
func (m *Model) Size() (width, height int) { return m.width, m.height }

// Focus gives the pane the keyboard: Update then acts on key presses and the
// selected line is drawn with Styles.Cursor.
func (m *Model) Focus() {
	m.focused = true
	m.changed()
}

// Blur takes the keyboard away; the selection stays, drawn with
// Styles.CursorBlurred.
func (m *Model) Blur() {
	m.focused = false
	m.changed()
}

// Focused reports whether the pane has the keyboard.
func (m *Model) Focused() bool { return m.focused }

// SetStyles replaces the styles, as when the theme changes. Only colours
// and attributes are used: padding, borders and sizes would break the
// layout, so they are dropped.
func (m *Model) SetStyles(s Styles) {
	m.styles = s.layoutSafe()
	m.changed()
}

// SetKeyMap replaces the key bindings.
func (m *Model) SetKeyMap(k KeyMap) { m.keys = k }

// KeyMap returns the key bindings, for the help screen.
func (m *Model) KeyMap() KeyMap { return m.keys }

// Selected returns the selected entry's path relative to the root and
// whether it is a directory; ok is false when nothing is selectable.
func (m *Model) Selected() (rel string, isDir bool, ok bool) {
	if m.cursor < 0 || m.cursor >= len(m.rows) || m.rows[m.cursor].n == nil {
		return "", false, false
	}
	n := m.rows[m.cursor].n
	return n.rel, n.isDir, true
}

// Update applies listings from the Cmds the pane returned, whether or not
// it has focus, and key presses while it has focus. It never blocks: any
// reading of the disk is in the returned Cmd.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ListedMsg:
		return m.applyListed(msg)
	case tea.KeyPressMsg:
		if !m.focused {
			return nil
		}
		return m.handleKey(msg)
	}
	return nil
}

// changed invalidates the drawn pane.
func (m *Model) changed() { m.version++ }
