package safefile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openNonBlocking opens a resolved path for reading without waiting for a
// writer (a named pipe swapped in after the check) and without following
// a symbolic link anywhere along it: the path has none once resolved, so
// one found now was swapped in after the check.
func openNonBlocking(path string) (*os.File, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NONBLOCK | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		return os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW, 0)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
