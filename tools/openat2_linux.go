package tools

import "golang.org/x/sys/unix"

// openBeneath opens the directory rel below dirfd with openat2, refusing
// any symbolic link and any escape from dirfd.
func openBeneath(dirfd int, rel string) (int, error) {
	return unix.Openat2(dirfd, rel, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS,
	})
}
