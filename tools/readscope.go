package tools

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"pincer/internal/human"
	"pincer/internal/safefile"
	"slices"
	"sort"
	"strings"
)

// readScope decides, for a search walking below start, which files it may
// open without asking: the same path policy read_file is judged by, with
// the search's start (approved when it needed approval) as the scope.
type readScope struct {
	root  string // project root, what its display paths are relative to
	scope string // links resolved: the project root, or start when outside it
	start string // where the walk starts, as given
	real  string // start with links resolved
	check func(scope, path string, head []byte) string
}

func newReadScope(o Options, start string) readScope {
	s := readScope{root: o.Root, start: start, real: start, check: o.ReadCheck}
	if r, ok := realPath(start); ok {
		s.real = r
	}
	root := o.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	s.scope = root
	if !safefile.Within(root, s.real) {
		s.scope = s.real
	}
	return s
}

// skippedFile is a file a search left out because reading it needs
// approval.
type skippedFile struct {
	shown, why string
}

// allow reports whether the search may open the file e, by its name, and
// the path to open (links resolved, what was judged) and how to name it;
// when not, the skippedFile says what to tell the model. The start itself,
// when a file, was judged (and approved) as the call's access.
func (s readScope) allow(e dirEntry) (bool, string, skippedFile) {
	if e.abs == s.start {
		return true, s.real, skippedFile{shown: displayPath(s.root, e.abs)}
	}
	shown := displayPath(s.root, e.abs)
	// The walk descends only real directories, so only the file itself
	// can be a link.
	logical := s.real
	if rel, err := filepath.Rel(s.start, e.abs); err == nil {
		logical = filepath.Join(s.real, rel)
	}
	real := logical
	if e.mode&fs.ModeSymlink != 0 {
		r, err := filepath.EvalSymlinks(e.abs)
		if err != nil {
			return false, "", skippedFile{shown, "a link that cannot be followed"}
		}
		real = r
		shown += " → " + displayPath(s.root, r)
	}
	if s.check == nil {
		if !safefile.Within(s.scope, real) {
			return false, "", skippedFile{shown, "outside the directory searched"}
		}
		return true, real, skippedFile{shown: shown}
	}
	var whys []string
	for _, p := range []string{logical, real} {
		if why := s.check(s.scope, p, nil); why != "" && !slices.Contains(whys, why) {
			whys = append(whys, why)
		}
		if real == logical {
			break
		}
	}
	if len(whys) == 0 {
		return true, real, skippedFile{shown: shown}
	}
	return false, "", skippedFile{shown, strings.Join(whys, "; ")}
}

// allowRead reports why the file at real (what allow judged), which the
// search has read from its start (head), needs approval after all, ""
// when it does not: what it holds is judged too. The start was judged
// whole as the call's access.
func (s readScope) allowRead(real string, head []byte) string {
	if s.check == nil || real == s.real {
		return ""
	}
	if head == nil {
		head = []byte{}
	}
	return s.check(s.scope, real, head)
}

// skippedNote tells the model which files a search left out and how to
// read one: with read_file, which asks the person.
func skippedNote(skipped []skippedFile) string {
	if len(skipped) == 0 {
		return ""
	}
	sort.Slice(skipped, func(i, j int) bool { return skipped[i].shown < skipped[j].shown })
	const most = 10
	var names []string
	for _, f := range skipped[:min(len(skipped), most)] {
		names = append(names, f.shown)
	}
	list := strings.Join(names, ", ")
	if len(skipped) > most {
		list += fmt.Sprintf(" and %d more", len(skipped)-most)
	}
	return fmt.Sprintf("skipped %s that need%s approval to read: %s; read one with read_file to ask the user",
		human.Plural(len(skipped), "file"), map[bool]string{true: "s", false: ""}[len(skipped) == 1], list)
}
