package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"pincer/internal/privatekey"
	"pincer/safety"
)

// diskFiles is the classifier's view of the disk (safety.Files): it maps
// the classifier's spelling of paths (relative to the project root, "~/…",
// absolute) to the real ones and back. The classifier asks what a glob
// matches, what a tree holds and whether a file holds a private key; of a
// file's content it reads only the head, and only of a regular file.
type diskFiles struct {
	root, home string // absolute, symbolic links resolved; home may be ""
}

// newDiskFiles returns the view for a project; home may be "".
func newDiskFiles(root, home string) diskFiles {
	resolve := func(p string) string {
		if p == "" || !filepath.IsAbs(p) {
			return ""
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return real
		}
		return filepath.Clean(p)
	}
	return diskFiles{root: resolve(root), home: resolve(home)}
}

var errNoPlace = errors.New("the path cannot be placed: the project root or home directory is not known")

// real turns the classifier's path into one on disk.
func (d diskFiles) real(p string) (string, error) {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if d.home == "" {
			return "", errNoPlace
		}
		return filepath.Join(d.home, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(p, "~"), "/"))), nil
	case strings.HasPrefix(p, "/"):
		return filepath.FromSlash(p), nil
	}
	if d.root == "" {
		return "", errNoPlace
	}
	return filepath.Join(d.root, filepath.FromSlash(p)), nil
}

// place turns a path on disk into the classifier's spelling.
func (d diskFiles) place(p string) string {
	if d.root != "" {
		if rel, err := filepath.Rel(d.root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	if d.home != "" {
		if rel, err := filepath.Rel(d.home, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			if rel == "." {
				return "~"
			}
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}

// ReadDir lists a directory.
func (d diskFiles) ReadDir(dir string) ([]fs.DirEntry, error) {
	p, err := d.real(dir)
	if err != nil {
		return nil, err
	}
	return os.ReadDir(p)
}

// EvalSymlinks resolves the links of a path and spells the result the
// classifier's way.
func (d diskFiles) EvalSymlinks(path string) (string, error) {
	p, err := d.real(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return d.place(real), nil
}

// HoldsPrivateKey reports whether the file holds a private key block in
// its first 64 KiB; a pipe, device or directory is not opened.
func (d diskFiles) HoldsPrivateKey(path string) (bool, int64) {
	p, err := d.real(path)
	if err != nil {
		return false, 0
	}
	return privatekey.InFile(p)
}

var _ safety.Files = diskFiles{}
