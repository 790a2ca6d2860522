package tools

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openBeneath opens the directory rel below dirfd with openat2, refusing
// any symbolic link and any escape from dirfd.
func openBeneath(dirfd int, rel string) (int, error) {
	return unix.Openat2(dirfd, rel, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS,
	})
}

// openJudged opens for reading the file at abs, whose links were resolved
// when the policy judged it: a symbolic link swapped in anywhere along it
// since is refused (openat2 with RESOLVE_NO_SYMLINKS), and a named pipe
// swapped in does not block.
func openJudged(abs string) (*os.File, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, abs, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NONBLOCK | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		return os.OpenFile(abs, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: abs, Err: err}
	}
	return os.NewFile(uintptr(fd), abs), nil
}
