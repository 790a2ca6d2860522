//go:build !unix

package tools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"pincer/internal/atomicfile"
)

// write replaces the file at t.real with data after check approves what is
// there now. Without openat, the resolved path is checked again just
// before writing: a link swapped in since the policy judged it is refused.
func (t judgedPath) write(data []byte, check checkFunc) error {
	if r, ok := realPath(t.real); ok && r != t.real {
		return swapped(t.real, errors.New("resolves elsewhere now"))
	}
	current, err := os.ReadFile(t.real)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := check(current, exists); err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if exists {
		if info, err := os.Stat(t.real); err == nil {
			mode = info.Mode().Perm()
		}
	} else if err := os.MkdirAll(filepath.Dir(t.real), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(t.real, data, mode)
}

// openJudged opens for reading the file at abs, whose links were resolved
// when the policy judged it.
func openJudged(abs string) (*os.File, error) { return os.Open(abs) }
