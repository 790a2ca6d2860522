// Package atomicfile writes files so that a reader, or a crash, sees the
// old content or the whole new one, never a part: the data goes to a
// temporary file beside the target, is synced, and then takes the
// target's name.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data, with the permission bits perm.
func Write(path string, data []byte, perm fs.FileMode) error {
	name, err := temp(path, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("rename the temporary file into place: %w", err)
	}
	return nil
}

// WriteNew is Write for a file that must not exist yet: it fails with
// fs.ErrExist when path exists, also when the file appears while it
// writes (a hard link never replaces a file; where the file system has
// none, it checks and renames).
func WriteNew(path string, data []byte, perm fs.FileMode) error {
	name, err := temp(path, data, perm)
	if err != nil {
		return err
	}
	defer os.Remove(name) // after a link, only the spare name goes
	if err := os.Link(name, path); err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, err := os.Lstat(path); err == nil {
		return fs.ErrExist
	}
	return os.Rename(name, path)
}

// temp writes data to a synced temporary file beside path and returns its
// name; on failure nothing is left behind.
func temp(path string, data []byte, perm fs.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".pincer-*")
	if err != nil {
		return "", fmt.Errorf("create a temporary file: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write a temporary file: %w", err)
	}
	return f.Name(), nil
}
