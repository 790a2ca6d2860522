package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CheckWritable reports whether Apply could write ch, before anyone is
// asked to review it: a change to a read-only project would only fail
// after the review. It creates and removes a temporary file where Apply
// would create its own (the nearest existing directory for a new file),
// which is the only test that sees permissions, ACLs and read-only mounts
// alike. The error puts the cause first.
func CheckWritable(ch *Change) error {
	target := ch.Path
	if real, err := filepath.EvalSymlinks(ch.Path); err == nil {
		target = real
	}
	dir := filepath.Dir(target)
	for {
		info, err := os.Stat(dir)
		if err == nil && info.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil // nothing exists up to the root; Apply will say why
		}
		dir = parent
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".pincer-check-*")
	if err != nil {
		return writeError(ch.Rel, err)
	}
	name := tmp.Name()
	tmp.Close()
	os.Remove(name)
	return nil
}

// writeError says why rel cannot be written, the cause first: the full
// path of a temporary file would push the reason off a narrow screen.
func writeError(rel string, err error) error {
	switch {
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("read-only file system: cannot write %s (%w)", rel, err)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("permission denied: cannot write %s (its directory is not writable; %w)", rel, err)
	case errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("no space left on the device: cannot write %s (%w)", rel, err)
	}
	return fmt.Errorf("cannot write %s: %w", rel, err)
}
