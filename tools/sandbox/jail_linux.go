//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// jail is what the helper built in its mount namespace and must look
// after: the temp dirs it empties after each command, and the names in
// them it must leave (the places where kept paths are mounted).
type jail struct {
	scratch []string
	keepTop map[string][]string // scratch dir → names that lead to kept paths
	notes   []string            // what could not be built as asked, said once
}

// build makes the jail's mount tree. It runs in the helper, in the mount
// namespace it was started in, before the helper restricts itself; st is
// what pincer asked for.
//
// Order matters: the copies, pins and masks are laid over the real tree
// first, while every path still means what it means outside; then the
// paths to keep are cloned (with what was laid over them), the temp dirs,
// /run and the like, /dev and /proc are replaced, and the clones put back
// in place.
func build(st setup) (*jail, error) {
	j := &jail{keepTop: map[string][]string{}}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return nil, fmt.Errorf("make the mounts private: %w", err)
	}
	replaced := append(slices.Clone(st.TempRoots), st.Covers...)
	inView := func(p string) bool { // p stays in view once the replaced dirs are replaced
		return !insideAny(p, replaced) || insideAny(p, st.Keep)
	}
	for i, c := range st.Copies {
		if i < len(st.Uppers) && inView(c) {
			if note := copyOf(c, st.Uppers[i]); note != "" {
				j.notes = append(j.notes, note)
			}
		}
	}
	for _, d := range pinnedDirs(st) {
		if err := unix.Mount(d, d, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return nil, fmt.Errorf("pin %s: %w", d, err)
		}
	}
	masks, err := newMasks()
	if err != nil {
		return nil, err
	}
	defer unix.Close(masks)
	for _, h := range st.Hidden {
		if !inView(h) {
			continue
		}
		if err := mask(masks, h); err != nil && !errors.Is(err, unix.ENOENT) {
			return nil, fmt.Errorf("hide %s: %w", h, err)
		}
	}
	for _, p := range st.Pinned {
		if !inView(p) || !insideAny(p, st.Writable) {
			continue // outside the writable paths Landlock keeps it read-only
		}
		if err := readOnlyBind(p); err != nil && !errors.Is(err, unix.ENOENT) {
			return nil, fmt.Errorf("make %s read-only: %w", p, err)
		}
	}

	type clone struct {
		path string
		fd   int
		dir  bool
	}
	var clones []clone
	defer func() {
		for _, c := range clones {
			if c.fd >= 0 {
				unix.Close(c.fd)
			}
		}
	}()
	take := func(p string) error {
		info, err := os.Stat(p)
		if err != nil {
			return nil // gone meanwhile: nothing to keep
		}
		fd, err := unix.OpenTree(unix.AT_FDCWD, p, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
		if err != nil {
			return fmt.Errorf("keep %s: %w", p, err)
		}
		clones = append(clones, clone{p, fd, info.IsDir()})
		return nil
	}
	for _, k := range st.Keep {
		if err := take(k); err != nil {
			return nil, err
		}
	}
	temp := -1
	if st.Temp != "" {
		if temp, err = unix.OpenTree(unix.AT_FDCWD, st.Temp, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC); err != nil {
			return nil, fmt.Errorf("the private temp dir %s: %w", st.Temp, err)
		}
		defer unix.Close(temp)
	}
	devs := map[string]int{}
	defer func() {
		for _, fd := range devs {
			unix.Close(fd)
		}
	}()
	for _, d := range devices() {
		if fd, err := unix.OpenTree(unix.AT_FDCWD, d, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC); err == nil {
			devs[d] = fd
		}
	}

	for _, t := range st.TempRoots {
		if temp >= 0 {
			fd, err := unix.OpenTree(temp, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_EMPTY_PATH)
			if err == nil {
				err = unix.MoveMount(fd, "", unix.AT_FDCWD, t, unix.MOVE_MOUNT_F_EMPTY_PATH)
				unix.Close(fd)
			}
			if err != nil {
				return nil, fmt.Errorf("put the private temp dir at %s: %w", t, err)
			}
			continue
		}
		if err := unix.Mount("tmpfs", t, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
			return nil, fmt.Errorf("put a private temp dir at %s: %w", t, err)
		}
		j.scratch = append(j.scratch, t)
	}
	for _, c := range st.Covers {
		if err := unix.Mount("tmpfs", c, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=0755,size=1m"); err != nil {
			return nil, fmt.Errorf("leave out %s: %w", c, err)
		}
	}
	if err := unix.Mount("tmpfs", "/dev", "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755,size=64k"); err != nil {
		return nil, fmt.Errorf("make /dev: %w", err)
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return nil, fmt.Errorf("mount the jail's /proc: %w", err)
	}

	for i := range clones {
		c := &clones[i]
		if err := mountPoint(c.path, c.dir); err != nil {
			return nil, fmt.Errorf("keep %s: %w", c.path, err)
		}
		if err := unix.MoveMount(c.fd, "", unix.AT_FDCWD, c.path, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return nil, fmt.Errorf("keep %s: %w", c.path, err)
		}
		unix.Close(c.fd)
		c.fd = -1
		j.keepInScratch(c.path)
	}
	for _, l := range st.HomeLinks {
		// In the jail's empty home only: elsewhere the link is in view.
		if !insideAny(l.Path, st.Covers) || insideAny(l.Path, st.Keep) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(l.Path), 0o755); err != nil {
			return nil, fmt.Errorf("make the link %s: %w", l.Path, err)
		}
		if err := os.Symlink(l.Target, l.Path); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("make the link %s: %w", l.Path, err)
		}
	}
	filtered := append(append(slices.Clone(st.GitFiles), st.Settings...), st.ProjectGit...)
	if err := placeFiltered(filtered); err != nil {
		return nil, err
	}
	for _, f := range filtered {
		j.keepInScratch(f.Real) // a home in a scratch temp dir: emptying it must leave them
	}
	if err := keepReadOnly(st); err != nil {
		return nil, err
	}
	if err := buildDev(devs); err != nil {
		return nil, err
	}
	for _, c := range st.Covers {
		if err := setReadOnly(c, false); err != nil {
			return nil, fmt.Errorf("leave out %s: %w", c, err)
		}
	}
	if err := freezeRest(st); err != nil {
		return nil, err
	}
	if !st.Network {
		if err := loopbackUp(); err != nil {
			return nil, fmt.Errorf("start the jail's loopback: %w", err)
		}
	}
	// The helper's own directory must not hold on to the tree outside.
	if err := unix.Chdir("/"); err != nil {
		return nil, err
	}
	return j, nil
}

// keepInScratch notes p, mounted in the jail, so emptying a scratch temp
// dir that holds it leaves the name that leads to it.
func (j *jail) keepInScratch(p string) {
	for _, t := range j.scratch {
		if within(p, t) {
			rel, _ := filepath.Rel(t, p)
			top, _, _ := strings.Cut(rel, string(filepath.Separator))
			j.keepTop[t] = append(j.keepTop[t], top)
		}
	}
}

// writeFull writes all of data with write, which may write less than it
// was given (a raw write(2) does when the file system fills): a copy cut
// short would give git a settings file that ends mid-line. A write that
// makes no progress and says nothing is io.ErrShortWrite.
func writeFull(write func([]byte) (int, error), data []byte) error {
	for len(data) > 0 {
		n, err := write(data)
		if err != nil {
			return err
		}
		if n <= 0 || n > len(data) {
			return io.ErrShortWrite
		}
		data = data[n:]
	}
	return nil
}

// placeFiltered lays the filtered settings files over the real ones
// (or where they would be, in the jail's empty home): each is a file of a
// small read-only file system of its own, attached nowhere else.
func placeFiltered(files []filteredFile) error {
	if len(files) == 0 {
		return nil
	}
	size := 16 << 10
	for _, g := range files {
		size += len(g.Data) + 4096
	}
	fs, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("make the filtered git settings: %w", err)
	}
	defer unix.Close(fs)
	if err := unix.FsconfigSetString(fs, "size", fmt.Sprint(size)); err != nil {
		return fmt.Errorf("make the filtered git settings: %w", err)
	}
	if err := unix.FsconfigSetString(fs, "mode", "0755"); err != nil {
		return fmt.Errorf("make the filtered git settings: %w", err)
	}
	if err := unix.FsconfigCreate(fs); err != nil {
		return fmt.Errorf("make the filtered git settings: %w", err)
	}
	mnt, err := unix.Fsmount(fs, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return fmt.Errorf("make the filtered git settings: %w", err)
	}
	defer unix.Close(mnt)
	for i, g := range files {
		name := fmt.Sprintf("g%d", i)
		fd, err := unix.Openat(mnt, name, unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
		if err != nil {
			return fmt.Errorf("write the filtered %s: %w", g.Real, err)
		}
		err = writeFull(func(b []byte) (int, error) { return unix.Write(fd, b) }, []byte(g.Data))
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("write the filtered %s: %w", g.Real, err)
		}
	}
	if err := unix.MountSetattr(mnt, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("make the filtered git settings read-only: %w", err)
	}
	for i, g := range files {
		if err := mountPoint(g.Real, false); err != nil {
			return fmt.Errorf("put the filtered %s: %w", g.Real, err)
		}
		fd, err := unix.OpenTree(mnt, fmt.Sprintf("g%d", i), unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
		if err != nil {
			return fmt.Errorf("put the filtered %s: %w", g.Real, err)
		}
		err = unix.MoveMount(fd, "", unix.AT_FDCWD, g.Real, unix.MOVE_MOUNT_F_EMPTY_PATH)
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("put the filtered %s: %w", g.Real, err)
		}
	}
	return nil
}

// freezeRest makes every mount in the jail read-only except the places
// commands may write: the writable paths, the temp dirs, the copies of
// the caches, /dev/shm, the ptys and /proc. Landlock decides who may write
// a file's content or make and remove files, but not who may change a
// file's mode, owner, times or extended attributes: without this a
// command rated safe could chmod ~/.bashrc or reset the times that tell
// make what to rebuild. A read-only mount refuses all of those.
func freezeRest(st setup) error {
	var open []string
	for _, w := range st.Writable {
		if !exists(w) {
			continue
		}
		// Its own mount, so that it can stay writable on its own.
		if err := unix.Mount(w, w, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("keep %s writable: %w", w, err)
		}
		open = append(open, w)
	}
	// The directories made mount points to pin a path inside a writable
	// one stay writable like it (only the pinned path itself is not).
	for _, d := range pinnedDirs(st) {
		if insideAny(d, st.Writable) {
			open = append(open, d)
		}
	}
	open = append(open, st.TempRoots...)
	for _, c := range st.Copies {
		if isMountPoint(c) {
			open = append(open, c)
		}
	}
	open = append(open, "/dev/shm", "/dev/pts", "/proc")
	if err := setReadOnly("/", true); err != nil {
		return fmt.Errorf("make the jail read-only: %w", err)
	}
	for _, w := range open {
		// Not recursive: masks and pinned paths below stay read-only.
		if err := unix.MountSetattr(unix.AT_FDCWD, w, 0, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("keep %s writable: %w", w, err)
		}
	}
	return nil
}

// isMountPoint reports whether p is the root of a mount (an overlay laid
// over a cache, a bind of it), not a directory inside one.
func isMountPoint(p string) bool {
	var st, parent unix.Stat_t
	if unix.Lstat(p, &st) != nil || unix.Lstat(filepath.Dir(p), &parent) != nil {
		return false
	}
	if st.Dev != parent.Dev {
		return true
	}
	var sx unix.Statx_t
	if unix.Statx(unix.AT_FDCWD, p, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_MNT_ID, &sx) == nil && sx.Mask&unix.STATX_ATTR_MOUNT_ROOT != 0 {
		return sx.Attributes&unix.STATX_ATTR_MOUNT_ROOT != 0
	}
	return false
}

// keepReadOnly makes the kept paths in the temp dirs read-only, but for
// the writable paths inside them. Landlock grants the jail's temp dir
// with everything below it, and the project (or home) kept there is
// below it too.
func keepReadOnly(st setup) error {
	for _, k := range st.Keep {
		if !insideAny(k, st.TempRoots) || insideAny(k, st.Writable) {
			continue
		}
		if err := setReadOnly(k, false); err != nil {
			return fmt.Errorf("keep %s read-only: %w", k, err)
		}
		for _, w := range st.Writable {
			if !within(w, k) || !exists(w) {
				continue
			}
			if err := unix.Mount(w, w, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
				return fmt.Errorf("keep %s writable: %w", w, err)
			}
			if err := unix.MountSetattr(unix.AT_FDCWD, w, 0, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}); err != nil {
				return fmt.Errorf("keep %s writable: %w", w, err)
			}
		}
	}
	return nil
}

// copyOf lays an overlay over dir whose changes go to pincer's directory
// own, so the jail sees the cache whole and the real one never changes.
// Where the file system refuses an overlay, the jail gets an empty copy
// of its own instead, and the note says so.
func copyOf(dir, own string) string {
	upper, work := filepath.Join(own, "u"), filepath.Join(own, "w")
	for _, d := range []string{upper, work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Sprintf("%s is read-only in the jail (cannot make its copy: %v)", dir, err)
		}
	}
	opts := "lowerdir=" + overlayPath(dir) + ",upperdir=" + overlayPath(upper) + ",workdir=" + overlayPath(work)
	err := unix.Mount("overlay", dir, "overlay", unix.MS_NOSUID|unix.MS_NODEV, opts)
	if err != nil {
		err = unix.Mount("overlay", dir, "overlay", unix.MS_NOSUID|unix.MS_NODEV, opts+",userxattr")
	}
	if err == nil {
		return ""
	}
	if err2 := unix.Mount(upper, dir, "", unix.MS_BIND, ""); err2 != nil {
		return fmt.Sprintf("%s is read-only in the jail (an overlay failed: %v; an empty copy failed: %v)", dir, err, err2)
	}
	return fmt.Sprintf("%s starts empty in the jail (the file system refused an overlay: %v)", dir, err)
}

// overlayPath escapes the characters overlay options give a meaning.
func overlayPath(p string) string {
	r := strings.NewReplacer(`\`, `\\`, `,`, `\,`, `:`, `\:`)
	return r.Replace(p)
}

// pinnedDirs are the directories to make mount points of, so they cannot
// be renamed away with a pinned or hidden path inside: every directory
// between a writable root and such a path, outermost first.
func pinnedDirs(st setup) []string {
	var out []string
	for _, p := range append(slices.Clone(st.Pinned), st.Hidden...) {
		for _, w := range st.Writable {
			if !within(p, w) || p == w {
				continue
			}
			rel, err := filepath.Rel(w, filepath.Dir(p))
			if err != nil || rel == "." {
				continue
			}
			d := w
			for _, part := range strings.Split(rel, string(filepath.Separator)) {
				d = filepath.Join(d, part)
				if info, err := os.Lstat(d); err == nil && info.IsDir() && !slices.Contains(out, d) {
					out = append(out, d)
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return strings.Count(a, "/") - strings.Count(b, "/") })
	return out
}

// newMasks makes a small read-only file system, attached nowhere, with an
// empty directory and an empty file that nobody may open: what hidden
// paths show.
func newMasks() (int, error) {
	fs, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("make the masks: %w", err)
	}
	defer unix.Close(fs)
	if err := unix.FsconfigSetString(fs, "size", "16k"); err != nil {
		return -1, fmt.Errorf("make the masks: %w", err)
	}
	if err := unix.FsconfigCreate(fs); err != nil {
		return -1, fmt.Errorf("make the masks: %w", err)
	}
	mnt, err := unix.Fsmount(fs, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return -1, fmt.Errorf("make the masks: %w", err)
	}
	if err := unix.Mkdirat(mnt, "d", 0); err != nil {
		unix.Close(mnt)
		return -1, fmt.Errorf("make the masks: %w", err)
	}
	f, err := unix.Openat(mnt, "f", unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		unix.Close(mnt)
		return -1, fmt.Errorf("make the masks: %w", err)
	}
	unix.Close(f)
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	if err := unix.MountSetattr(mnt, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &attr); err != nil {
		unix.Close(mnt)
		return -1, fmt.Errorf("make the masks read-only: %w", err)
	}
	return mnt, nil
}

// mask lays the empty directory, or the empty file, of masks over p.
func mask(masks int, p string) error {
	info, err := os.Stat(p)
	if err != nil {
		return err
	}
	which := "f"
	if info.IsDir() {
		which = "d"
	}
	fd, err := unix.OpenTree(masks, which, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return unix.MoveMount(fd, "", unix.AT_FDCWD, p, unix.MOVE_MOUNT_F_EMPTY_PATH)
}

// readOnlyBind makes p a read-only mount of itself: it cannot be written,
// removed, or replaced by a rename.
func readOnlyBind(p string) error {
	if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	return setReadOnly(p, true)
}

// setReadOnly makes the mount at p read-only (and what is mounted below
// it, when recursive).
func setReadOnly(p string, recursive bool) error {
	flags := uint(0)
	if recursive {
		flags = unix.AT_RECURSIVE
	}
	return unix.MountSetattr(unix.AT_FDCWD, p, flags, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY})
}

// mountPoint makes the directories down to p and p itself, a directory
// or an empty file, to mount on.
func mountPoint(p string, dir bool) error {
	if dir {
		return os.MkdirAll(p, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDONLY, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// buildDev fills the jail's /dev: the ordinary devices (the host's,
// mounted one by one), a pty file system of its own, its own shared
// memory, and the usual links; then makes /dev itself read-only.
func buildDev(devs map[string]int) error {
	for _, d := range devices() {
		fd, ok := devs[d]
		if !ok {
			continue
		}
		if err := mountPoint(d, false); err != nil {
			return fmt.Errorf("make %s: %w", d, err)
		}
		if err := unix.MoveMount(fd, "", unix.AT_FDCWD, d, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("make %s: %w", d, err)
		}
	}
	for _, d := range []string{"/dev/pts", "/dev/shm"} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return fmt.Errorf("make %s: %w", d, err)
		}
	}
	if err := unix.Mount("devpts", "/dev/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"); err != nil {
		return fmt.Errorf("make the jail's ptys: %w", err)
	}
	if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return fmt.Errorf("make /dev/shm: %w", err)
	}
	for link, target := range map[string]string{
		"/dev/ptmx": "pts/ptmx", "/dev/fd": "/proc/self/fd",
		"/dev/stdin": "/proc/self/fd/0", "/dev/stdout": "/proc/self/fd/1", "/dev/stderr": "/proc/self/fd/2",
	} {
		if err := os.Symlink(target, link); err != nil {
			return fmt.Errorf("make %s: %w", link, err)
		}
	}
	return setReadOnly("/dev", false)
}

// loopbackUp brings up the loopback of the jail's own network namespace,
// so programs that talk to themselves over 127.0.0.1 (a test server) work
// without reaching anything outside.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// emptyScratch removes what the last command left in the jail's scratch
// temp dirs, leaving the mount points of kept paths.
func (j *jail) emptyScratch() {
	for _, t := range j.scratch {
		entries, err := os.ReadDir(t)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !slices.Contains(j.keepTop[t], e.Name()) {
				_ = removeAll(filepath.Join(t, e.Name()))
			}
		}
	}
}

// insideAny reports whether p is one of dirs or lies beneath one.
func insideAny(p string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool { return within(p, d) })
}
