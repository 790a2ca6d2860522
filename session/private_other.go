//go:build !unix

package session

import (
	"io/fs"
	"os"
)

// openPrivate opens the store's file. Outside Unix, permission bits do not
// say who may write a file, so only the kind of file is checked.
func openPrivate(name string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
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

// checkPrivate refuses a store that is not a regular file.
func checkPrivate(name string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return newError(ErrDamaged, nil,
			"the session store %s is not a regular file; move it aside or set PINCER_DATA_DIR to another directory", name)
	}
	return nil
}
