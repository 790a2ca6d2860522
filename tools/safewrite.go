package tools

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// errSwapped is returned when a directory along a planned write was
// replaced by a symbolic link (or removed) after the path policy judged
// it: writing would land somewhere nobody approved.
var errSwapped = errors.New("a directory or file along the path was replaced by a symbolic link after the call was judged, so nothing was read or written; try again")

// judgedPath is a path a file tool reads or writes, with every symbolic
// link resolved once, when the call is made: the path policy judges that
// path, and the tool reads or writes there and only there, refusing links
// swapped in since.
type judgedPath struct {
	root string // the project root, links resolved ("" when not known)
	real string // absolute, links resolved
}

// newJudgedPath resolves abs as the path policy will see it.
func newJudgedPath(root, abs string) judgedPath {
	t := judgedPath{real: abs}
	if r, ok := realPath(abs); ok {
		t.real = r
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		t.root = r
	}
	return t
}

// checkFunc decides from the file's current content (exists is false when
// there is none) whether the write may go ahead.
type checkFunc func(current []byte, exists bool) error

func swapped(path string, err error) error {
	return fmt.Errorf("%w (%s: %v)", errSwapped, path, err)
}

// paths are what the path policy is asked about for a write to abs: abs,
// and where it really lands when that differs.
func (t judgedPath) paths(abs string) []string {
	if t.real == "" || t.real == abs {
		return []string{abs}
	}
	return []string{abs, t.real}
}

// unchanged reports errSwapped when abs no longer resolves to the path the
// policy judged: a link along it was swapped since.
func (t judgedPath) unchanged(abs string) error {
	if r, ok := realPath(abs); ok && t.real != "" && r != t.real {
		return swapped(abs, fmt.Errorf("now leads to %s", r))
	}
	return nil
}

// OpenRegular opens the regular file at abs (a path already resolved and
// judged by the path policy) for reading, without following a link swapped
// in since and without blocking on a named pipe: what is read is what was
// judged. Anything but a regular file is refused.
func OpenRegular(abs string) (*os.File, error) {
	f, err := openJudged(abs)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", abs)
	}
	return f, nil
}
