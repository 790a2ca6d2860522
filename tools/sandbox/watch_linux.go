//go:build linux

package sandbox

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// inotifyWatcher watches directories with inotify, without a goroutine:
// its events wait in the kernel until changed reads them, so an idle
// pincer is never woken by a busy project.
type inotifyWatcher struct {
	root string
	fd   int
	wds  map[int]string // watch → directory, relative to root
	rels map[string]int
}

// dirEvents are the changes to a directory's entries.
const dirEvents = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

func newDirWatcher(root string) dirWatcher {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return noWatcher{}
	}
	return &inotifyWatcher{root: root, fd: fd, wds: map[int]string{}, rels: map[string]int{}}
}

func (w *inotifyWatcher) add(rel string) bool {
	if w.fd < 0 {
		return false
	}
	wd, err := unix.InotifyAddWatch(w.fd, filepath.Join(w.root, rel), dirEvents)
	if err != nil {
		return false // past the limit of watches: looked at by its time
	}
	w.wds[wd], w.rels[rel] = rel, wd
	return true
}

func (w *inotifyWatcher) remove(rel string) {
	if wd, ok := w.rels[rel]; ok {
		_, _ = unix.InotifyRmWatch(w.fd, uint32(wd))
		delete(w.rels, rel)
		delete(w.wds, wd)
	}
}

func (w *inotifyWatcher) changed() ([]string, bool) {
	if w.fd < 0 {
		return nil, true
	}
	var out []string
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Read(w.fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if n <= 0 || err != nil {
			return out, false
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			var ev unix.InotifyEvent
			_ = binary.Read(bytes.NewReader(buf[off:off+unix.SizeofInotifyEvent]), binary.NativeEndian, &ev)
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
				w.drain(buf)
				return nil, true
			}
			if rel, ok := w.wds[int(ev.Wd)]; ok {
				out = append(out, rel)
				if ev.Mask&unix.IN_IGNORED != 0 {
					delete(w.wds, int(ev.Wd))
					delete(w.rels, rel)
				}
			}
		}
	}
}

// drain throws away what is left to read after an overflow.
func (w *inotifyWatcher) drain(buf []byte) {
	for {
		if n, err := unix.Read(w.fd, buf); n <= 0 || err != nil && !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

func (w *inotifyWatcher) close() {
	if w.fd >= 0 {
		unix.Close(w.fd)
		w.fd = -1
	}
}
