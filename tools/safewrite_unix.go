//go:build unix

package tools

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"pincer/internal/safefile"
	"strings"

	"golang.org/x/sys/unix"
)

// write replaces the file at t.real with data, after check approves what is
// there now. Its directory is opened without following any symbolic link
// (openat2 with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS below the project root
// on Linux, else one component at a time with O_NOFOLLOW), missing
// directories are created the same way, and the file is read, written to a
// temporary file and renamed into place through that directory's
// descriptor, so a link swapped in after the policy judged the path cannot
// redirect the write.
func (t judgedPath) write(data []byte, check checkFunc) error {
	dir, err := t.openDir(filepath.Dir(t.real))
	if err != nil {
		return err
	}
	defer dir.Close()
	dfd := int(dir.Fd())
	base := filepath.Base(t.real)

	current, mode, exists, err := readAt(dfd, base)
	if err != nil {
		return err
	}
	if err := check(current, exists); err != nil {
		return err
	}
	if !exists {
		mode = 0o644
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := "." + base + ".pincer-" + hex.EncodeToString(rnd[:])
	fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	f := os.NewFile(uintptr(fd), tmp)
	fail := func(err error) error {
		f.Close()
		unix.Unlinkat(dfd, tmp, 0)
		return err
	}
	if _, err := f.Write(data); err != nil {
		return fail(fmt.Errorf("write temporary file: %w", err))
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("sync temporary file: %w", err))
	}
	if err := f.Chmod(mode); err != nil {
		return fail(fmt.Errorf("set mode of temporary file: %w", err))
	}
	if err := f.Close(); err != nil {
		unix.Unlinkat(dfd, tmp, 0)
		return fmt.Errorf("close temporary file: %w", err)
	}
	if err := unix.Renameat(dfd, tmp, dfd, base); err != nil {
		unix.Unlinkat(dfd, tmp, 0)
		return fmt.Errorf("rename temporary file into place: %w", err)
	}
	return nil
}

// readAt reads the regular file name in the directory dfd without
// following a link there.
func readAt(dfd int, name string) (data []byte, mode fs.FileMode, exists bool, err error) {
	fd, err := unix.Openat(dfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil, 0, false, nil
	case errors.Is(err, unix.ELOOP):
		return nil, 0, false, swapped(name, err)
	case err != nil:
		return nil, 0, false, fmt.Errorf("open %s: %w", name, err)
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, false, err
	}
	if !info.Mode().IsRegular() {
		return nil, 0, false, fmt.Errorf("%s is not a regular file (%s); only regular files can be written", name, info.Mode().Type())
	}
	data, err = io.ReadAll(f)
	if err != nil {
		return nil, 0, false, fmt.Errorf("read %s: %w", name, err)
	}
	return data, info.Mode().Perm(), true, nil
}

// openDir opens dir (absolute, links resolved), creating what is missing,
// refusing any symbolic link on the way: below the project root relative
// to the root, elsewhere from "/".
func (t judgedPath) openDir(dir string) (*os.File, error) {
	start, rel := "/", strings.TrimPrefix(dir, "/")
	if t.root != "" && safefile.Within(t.root, dir) {
		start, rel = t.root, ""
		if r, err := filepath.Rel(t.root, dir); err == nil && r != "." {
			rel = r
		}
	}
	sfd, err := unix.Open(start, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, swapped(start, err)
	}
	if rel == "" {
		return os.NewFile(uintptr(sfd), start), nil
	}
	if fd, err := openBeneath(sfd, rel); err == nil {
		unix.Close(sfd)
		return os.NewFile(uintptr(fd), dir), nil
	} else if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) {
		unix.Close(sfd)
		return nil, swapped(dir, err)
	}
	// No openat2, or a directory to create: one component at a time.
	fd := sfd
	for _, comp := range strings.Split(rel, "/") {
		next, err := unix.Openat(fd, comp, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.ENOENT) {
			if err := unix.Mkdirat(fd, comp, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
				unix.Close(fd)
				return nil, fmt.Errorf("create directory %s: %w", comp, err)
			}
			next, err = unix.Openat(fd, comp, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		}
		unix.Close(fd)
		if err != nil {
			if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
				return nil, swapped(dir, err)
			}
			return nil, fmt.Errorf("open directory %s: %w", dir, err)
		}
		fd = next
	}
	return os.NewFile(uintptr(fd), dir), nil
}
