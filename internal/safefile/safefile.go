// Package safefile reads the files pincer opens on its own — instructions,
// configs, themes, the trust file — so that a hostile or broken file cannot
// hurt the person by being there. A file is read only when it is a regular
// file after its links are resolved, only up to a size cap, and opening it
// never blocks: a named pipe, a device such as /dev/zero, or a directory in
// its place is refused with an Error that says what it is and how to fix it.
//
// It is a leaf package so that config, agent, themes, tools and main can
// all use the one rule without importing each other.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"pincer/internal/human"
)

// DefaultLimit is the cap Read uses when Options.Limit is 0: far more than
// any instruction, config or theme file needs, small enough that a hostile
// file cannot exhaust memory.
const DefaultLimit = 1 << 20

// The kinds of refusal; an *Error matches one of them with errors.Is.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrOutside    = errors.New("links outside its directory")
	ErrTooLarge   = errors.New("larger than the cap")
)

// Options say how one file may be read.
type Options struct {
	// Within, when set, is the project root: a project file must stay in
	// it after its symbolic links are resolved.
	Within string
	// Limit is the most bytes read; a larger file is refused. 0 means
	// DefaultLimit.
	Limit int64
	// Name is the file as the person knows it ("AGENTS.md",
	// "~/.config/pincer/config.json"), for messages; "" means the path.
	Name string
}

// Error says why a file was refused.
type Error struct {
	Name   string // the file as the person knows it
	Target string // where its links lead, when that differs from the path
	Kind   string // what it is instead of a regular file, e.g. "a device"
	Within string // the project a link left
	Limit  int64  // the cap, for a file too large
	Size   int64  // its size, for a file too large
	err    error
}

// Error is one clause saying what is wrong, without the fix; see Fix and
// Sentence.
func (e *Error) Error() string {
	switch e.err {
	case ErrOutside:
		return fmt.Sprintf("%s links to %s, outside the project", e.Name, e.Target)
	case ErrTooLarge:
		return fmt.Sprintf("%s is larger than the %s pincer reads (it has %s)", e.Name, human.Bytes(e.Limit), human.Bytes(e.Size))
	}
	if e.Target != "" {
		return fmt.Sprintf("%s is not a regular file (it links to %s, %s)", e.Name, e.Target, e.Kind)
	}
	return fmt.Sprintf("%s is not a regular file (it is %s)", e.Name, e.Kind)
}

// Fix says what the person can do about it.
func (e *Error) Fix() string {
	switch {
	case e.err == ErrOutside:
		return "remove the link or point it at a file in the project"
	case e.err == ErrTooLarge:
		return "shorten it to less than " + human.Bytes(e.Limit)
	case e.Target != "":
		return "remove the link or point it at a regular file"
	}
	return "replace it with a regular file"
}

// Sentence is the whole message: what is wrong, what pincer did about it
// ("pincer ignored it"), and the fix.
func (e *Error) Sentence(consequence string) string {
	if consequence == "" {
		return e.Error() + "; " + e.Fix()
	}
	return e.Error() + "; " + consequence + " — " + e.Fix()
}

// Is matches the kind of refusal.
func (e *Error) Is(target error) bool { return target == e.err }

// Read returns the content of the regular file at path, following symbolic
// links, within the limits of opts. A missing file is an error matching
// fs.ErrNotExist; a refused one is an *Error.
func Read(path string, opts Options) ([]byte, error) {
	limit := opts.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	name := opts.Name
	if name == "" {
		name = path
	}
	f, info, err := open(path, opts.Within, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > limit {
		return nil, &Error{Name: name, Limit: limit, Size: info.Size(), err: ErrTooLarge}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit { // it grew while being read
		return nil, &Error{Name: name, Limit: limit, Size: int64(len(data)), err: ErrTooLarge}
	}
	return data, nil
}

// Head returns at most the first n bytes of the regular file at path,
// following symbolic links, with Read's refusals but no size cap: a caller
// that only looks at a file's top (a private key's first line) must not
// miss it in a large file, nor read all of one.
func Head(path string, n int64) ([]byte, error) {
	f, _, err := open(path, "", path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// open opens the regular file at path for reading, links followed, and
// refuses anything else (a pipe, a device, a directory) before opening it
// where stat shows it and after, without ever waiting on it; within, when
// set, is the directory the file must stay in.
func open(path, within, name string) (*os.File, fs.FileInfo, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, nil, err
	}
	target := ""
	if abs, err := filepath.Abs(path); err != nil || filepath.Clean(abs) != real {
		target = shown(real)
	}
	// Refuse what stat already shows before opening it: opening some
	// devices has effects of its own.
	if info, err := os.Stat(real); err == nil && !info.Mode().IsRegular() {
		return nil, nil, &Error{Name: name, Target: target, Kind: kind(info.Mode()), err: ErrNotRegular}
	}
	if within != "" {
		dir := within
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			dir = r
		}
		if !Within(dir, real) {
			return nil, nil, &Error{Name: name, Target: shown(real), Within: within, err: ErrOutside}
		}
	}
	f, err := openNonBlocking(real)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &Error{Name: name, Target: target, Kind: kind(info.Mode()), err: ErrNotRegular}
	}
	return f, info, nil
}

// shown quotes a path that holds characters a terminal could interpret: a
// link's target is chosen by whoever made the link.
func shown(p string) string {
	for _, r := range p {
		if !unicode.IsPrint(r) {
			return strconv.Quote(p)
		}
	}
	return p
}

// kind names what a non-regular file is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a plain file"
}

// Within reports whether p is dir or below it.
func Within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
