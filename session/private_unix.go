//go:build unix

package session

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openPrivate opens the store's file without following a symbolic link in
// its place, and refuses a file that is not private (see checkPrivate). It
// checks the descriptor it opened, so a link or a file swapped in after
// Open's look is refused too.
func openPrivate(name string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(name, flag|syscall.O_NOFOLLOW, perm)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, symlinkError(name)
		}
		return nil, err
	}
	info, err := f.Stat()
	if err == nil {
		err = checkPrivate(name, info)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkPrivate refuses a store file that other users may write (they could
// rewrite the history the model is sent) or that belongs to another user
// (who can read every conversation in it). Root may use anybody's store.
func checkPrivate(name string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return newError(ErrDamaged, nil,
			"the session store %s is not a regular file; move it aside or set PINCER_DATA_DIR to another directory", name)
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return newError(ErrNotPrivate, nil,
			"the session store %s can be changed by other users (mode %04o); make it private with: chmod 600 %s",
			name, perm, name)
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		if euid := os.Geteuid(); euid != 0 && int(st.Uid) != euid {
			return newError(ErrNotPrivate, nil,
				"the session store %s belongs to another user (uid %d), who can read every conversation in it; move it aside or set PINCER_DATA_DIR to a directory of your own",
				name, st.Uid)
		}
	}
	return nil
}
