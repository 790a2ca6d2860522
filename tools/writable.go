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
// after the review. It asks the kernel about the directory Apply would
// write in (the nearest existing one for a new file), as the path policy
// judged it, and writes nothing: the question comes before the approval.
// The error puts the cause first.
func CheckWritable(ch *Change) error {
	target := ch.target.real
	if target == "" {
		target = ch.Path
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
	if err := dirWritable(dir); err != nil {
		return writeError(ch.Rel, err)
	}
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
