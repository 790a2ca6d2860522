package tools

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"pincer/internal/gitignore"
	"pincer/internal/safefile"
)

// dirEntry is one listed entry that no .gitignore rule hides.
type dirEntry struct {
	abs   string
	rel   string // relative to the walk base, "/"-separated
	name  string
	isDir bool        // a real directory; symbolic links are never followed
	mode  fs.FileMode // type bits from the directory listing
}

// walkBase is where .gitignore rules are anchored for a walk that starts at
// start: the project root when start is inside it, else start itself. The
// returned stack holds the rules of .git/info/exclude and of every
// .gitignore above start, so a walk of "pkg/sub" honours "/build" in the
// root .gitignore. start's own .gitignore is read when it is listed.
func walkBase(root, start string) (string, gitignore.Stack) {
	base := start
	if rel, err := filepath.Rel(root, start); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		base = root
	}
	var stack gitignore.Stack
	if data, err := readOwn(filepath.Join(base, ".git", "info", "exclude")); err == nil {
		stack = stack.Push(gitignore.Parse("", data))
	}
	if base == start {
		return base, stack
	}
	rel, _ := filepath.Rel(base, start)
	dir, relDir := base, ""
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if data, err := readOwn(filepath.Join(dir, ".gitignore")); err == nil {
			stack = stack.Push(gitignore.Parse(relDir, data))
		}
		dir = filepath.Join(dir, part)
		relDir = path.Join(relDir, part)
	}
	return base, stack
}

// readOwn reads a file the tools consult on their own (.gitignore,
// go.mod): a regular file of at most safefile.DefaultLimit bytes, so a
// link to /dev/zero or a named pipe in its place cannot block a walk or
// fill memory. Anything else reads as absent.
func readOwn(path string) ([]byte, error) {
	return safefile.Read(path, safefile.Options{})
}

// relTo returns abs relative to base, "/"-separated; "" for base itself.
func relTo(base, abs string) string {
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}

// listDir reads dir, applying its own .gitignore on top of stack, and
// returns the visible entries (directories first, then by name) and the
// stack for the entries' children. ".git" is always left out.
func listDir(dir, relDir string, stack gitignore.Stack) ([]dirEntry, gitignore.Stack, error) {
	if data, err := readOwn(filepath.Join(dir, ".gitignore")); err == nil {
		stack = stack.Push(gitignore.Parse(relDir, data))
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, stack, err
	}
	out := make([]dirEntry, 0, len(des))
	for _, d := range des {
		name := d.Name()
		if name == ".git" {
			continue
		}
		rel := name
		if relDir != "" {
			rel = relDir + "/" + name
		}
		isDir := d.IsDir()
		if stack.Ignored(rel, isDir) {
			continue
		}
		out = append(out, dirEntry{abs: filepath.Join(dir, name), rel: rel, name: name, isDir: isDir, mode: d.Type()})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].isDir != out[j].isDir {
			return out[i].isDir
		}
		return out[i].name < out[j].name
	})
	return out, stack, nil
}

// walkFiles calls fn for every regular file under start (or start itself when
// it is a file) that no .gitignore hides, depth first in listing order.
// Directories that cannot be read are skipped; an error from fn ends the
// walk and is returned.
func walkFiles(ctx context.Context, root, start string, fn func(e dirEntry) error) error {
	info, err := os.Stat(start)
	if err != nil {
		return err
	}
	base, stack := walkBase(root, start)
	if !info.IsDir() {
		if !info.Mode().IsRegular() {
			return nil // a pipe or device would block or never end
		}
		return fn(dirEntry{abs: start, rel: relTo(base, start), name: filepath.Base(start)})
	}
	return walkDir(ctx, start, relTo(base, start), stack, fn)
}

func walkDir(ctx context.Context, dir, relDir string, stack gitignore.Stack, fn func(e dirEntry) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, childStack, err := listDir(dir, relDir, stack)
	if err != nil {
		return nil // unreadable directories are skipped, like grep -r does
	}
	for _, e := range entries {
		if e.isDir {
			if err := walkDir(ctx, e.abs, e.rel, childStack, fn); err != nil {
				return err
			}
			continue
		}
		if !e.mode.IsRegular() && !(e.mode&fs.ModeSymlink != 0 && isRegular(e.abs)) {
			continue
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// isRegular reports whether p is a regular file (following a symbolic link
// to a file, which is safe: it cannot loop).
func isRegular(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}
