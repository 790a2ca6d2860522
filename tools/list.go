package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"pincer/internal/gitignore"
)

// ErrOutsideRoot is returned by ListDir for a directory that is not inside
// the project root, so a caller never lists more than the project.
var ErrOutsideRoot = errors.New("the directory is outside the project root; give a path relative to the root without \"..\"")

// ErrLimitReached is returned by WalkFiles when the project holds more files
// than the limit; the first limit files were delivered, so a caller can use
// them and say that the list is incomplete.
var ErrLimitReached = errors.New("more files than the limit")

// Entry is one visible child of a directory listed by ListDir.
type Entry struct {
	// Name is the entry's own name.
	Name string
	// Rel is the path relative to the project root, "/"-separated.
	Rel string
	// IsDir is true for a real directory; symbolic links are never
	// followed, so a link to a directory is not one.
	IsDir bool
}

// ListDir lists the directory rel ("/"-separated, relative to root; "" or
// "." for root itself) the way the project tree shows it: entries hidden by
// .git/info/exclude, the directory's own .gitignore or that of any parent
// up to root are left out, ".git" is never listed, directories come first,
// then files, each sorted by name. Listing one directory reads only it and
// the ignore files above it, so a tree can expand lazily.
func ListDir(root, rel string) ([]Entry, error) {
	clean, err := cleanRel(rel)
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", rel, err)
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", rel, err)
	}
	dir := filepath.Join(absRoot, filepath.FromSlash(clean))
	base, stack := walkBase(absRoot, dir)
	entries, _, err := listDir(dir, relTo(base, dir), stack)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", displayRel(clean), err)
	}
	out := make([]Entry, len(entries))
	for i, e := range entries {
		out[i] = Entry{Name: e.name, Rel: e.rel, IsDir: e.isDir}
	}
	return out, nil
}

// WalkFiles calls fn with the root-relative, "/"-separated path of every
// regular file under root that no ignore rule hides (the same rules as
// ListDir), depth first in listing order, so `@` file completion offers
// exactly what the tree shows. A limit above zero caps the files delivered:
// when more exist, WalkFiles stops after limit of them and returns
// ErrLimitReached. It stops with ctx's error when ctx ends and with fn's
// error, unchanged, when fn fails. Unreadable directories are skipped.
func WalkFiles(ctx context.Context, root string, limit int, fn func(rel string) error) error {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("walk %s: %w", root, err)
	}
	info, err := os.Stat(absRoot)
	if err != nil {
		return fmt.Errorf("walk %s: %w", root, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("walk %s: the project root is a file, not a directory", root)
	}
	n := 0
	return walkFiles(ctx, absRoot, absRoot, func(e dirEntry) error {
		if limit > 0 && n >= limit {
			return ErrLimitReached
		}
		// walkDir checks ctx per directory; a directory of many files needs
		// a check between them too.
		if err := ctx.Err(); err != nil {
			return err
		}
		n++
		return fn(e.rel)
	})
}

// WalkFilesBreadthFirst is WalkFiles level by level: every file of a
// directory comes before anything deeper, so a walk that stops at limit
// has listed the top of the project whole (a depth-first walk of a large
// project spends the limit in its first deep directory). Within a level
// directories are taken in listing order.
func WalkFilesBreadthFirst(ctx context.Context, root string, limit int, fn func(rel string) error) error {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("walk %s: %w", root, err)
	}
	info, err := os.Stat(absRoot)
	if err != nil {
		return fmt.Errorf("walk %s: %w", root, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("walk %s: the project root is a file, not a directory", root)
	}
	type pending struct {
		abs, rel string
		stack    gitignore.Stack
	}
	_, stack := walkBase(absRoot, absRoot)
	queue := []pending{{abs: absRoot, stack: stack}}
	n := 0
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if err := ctx.Err(); err != nil {
			return err
		}
		entries, childStack, err := listDir(d.abs, d.rel, d.stack)
		if err != nil {
			continue // unreadable directories are skipped, like grep -r does
		}
		for _, e := range entries {
			if e.isDir {
				queue = append(queue, pending{abs: e.abs, rel: e.rel, stack: childStack})
				continue
			}
			if !e.mode.IsRegular() && !(e.mode&fs.ModeSymlink != 0 && isRegular(e.abs)) {
				continue
			}
			if limit > 0 && n >= limit {
				return ErrLimitReached
			}
			n++
			if err := fn(e.rel); err != nil {
				return err
			}
		}
	}
	return nil
}

// cleanRel normalises a root-relative directory path and refuses one that
// leaves the root.
func cleanRel(rel string) (string, error) {
	rel = filepath.ToSlash(rel)
	if rel == "" {
		return ".", nil
	}
	if path.IsAbs(rel) || filepath.IsAbs(filepath.FromSlash(rel)) || filepath.VolumeName(filepath.FromSlash(rel)) != "" {
		return "", ErrOutsideRoot
	}
	clean := path.Clean(rel)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", ErrOutsideRoot
	}
	return clean, nil
}

// displayRel names a cleaned root-relative path in an error message.
func displayRel(clean string) string {
	if clean == "." {
		return "the project root"
	}
	return clean
}

// Ignored reports whether rel ("/"-separated, relative to root) is hidden
// by the project's .gitignore files and .git/info/exclude, as ListDir and
// WalkFiles hide it. It reads the .gitignore files on the way down, so a
// caller that asks often should ask off the screen's event loop.
func Ignored(root, rel string, isDir bool) bool {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return false
	}
	clean, err := cleanRel(rel)
	if err != nil || clean == "" {
		return false
	}
	dir := filepath.Join(absRoot, filepath.FromSlash(path.Dir(clean)))
	base, stack := walkBase(absRoot, dir)
	if data, err := readOwn(filepath.Join(dir, ".gitignore")); err == nil {
		stack = stack.Push(gitignore.Parse(relTo(base, dir), data))
	}
	return stack.Ignored(relTo(base, filepath.Join(absRoot, filepath.FromSlash(clean))), isDir)
}
