package lsp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"pincer/tools"
)

// maxWatched is the most files of one language pincer keeps a record of
// to notice what a command created, changed or deleted. A project with
// more is not compared (a walk per command would cost too much); its
// servers still learn of the files they have open.
const maxWatched = 20000

// maxNewChecked is how many files a command created or changed that the
// server did not have open are opened and reported on after it; the rest
// are only announced to the server.
const maxNewChecked = 10

// File change kinds of workspace/didChangeWatchedFiles.
const (
	fileCreated = 1
	fileChanged = 2
	fileDeleted = 3
)

// stamp is what a file looked like on disk.
type stamp struct {
	size  int64
	mtime time.Time
}

// diskState is a language's files on disk by absolute path, as last seen.
type diskState map[string]stamp

// fileEvent is one file a command created, changed or deleted.
type fileEvent struct {
	path string
	kind int
}

// scanDisk records the project's files with one of exts that no ignore
// rule hides (the tree's rules). It returns nil when the project holds
// more than maxWatched of them or ctx ends first.
func scanDisk(ctx context.Context, root string, exts []string) diskState {
	want := map[string]bool{}
	for _, e := range exts {
		want[strings.ToLower(e)] = true
	}
	out := diskState{}
	err := tools.WalkFiles(ctx, root, 0, func(rel string) error {
		if !want[strings.ToLower(filepath.Ext(rel))] {
			return nil
		}
		if len(out) == maxWatched {
			return errTooMany
		}
		p := filepath.Join(root, filepath.FromSlash(rel))
		if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() {
			out[p] = stamp{size: info.Size(), mtime: info.ModTime()}
		}
		return nil
	})
	if err != nil {
		return nil
	}
	return out
}

var errTooMany = errors.New("too many files to watch")

// diffDisk lists what changed from old to now, by path.
func diffDisk(old, now diskState) []fileEvent {
	var out []fileEvent
	for p, st := range now {
		was, ok := old[p]
		switch {
		case !ok:
			out = append(out, fileEvent{p, fileCreated})
		case was != st:
			out = append(out, fileEvent{p, fileChanged})
		}
	}
	for p := range old {
		if _, ok := now[p]; !ok {
			out = append(out, fileEvent{p, fileDeleted})
		}
	}
	slices.SortFunc(out, func(a, b fileEvent) int { return strings.Compare(a.path, b.path) })
	return out
}

// snapshot records sl's files on disk for srv, in the background after
// srv started, so the next Refresh can tell what a command did.
func (m *Manager) snapshot(sl *slot, srv *server) {
	ctx, cancel := context.WithTimeout(context.Background(), m.opts.StartTimeout)
	defer cancel()
	st := scanDisk(ctx, m.opts.Root, sl.cfg.Extensions)
	m.mu.Lock()
	defer m.mu.Unlock()
	if sl.srv == srv && sl.disk == nil {
		sl.disk = st
	}
}

// diskChanges compares sl's files on disk with the last record, keeps
// the new one, and returns what changed; nothing when no record is kept.
func (m *Manager) diskChanges(ctx context.Context, sl *slot) []fileEvent {
	m.mu.Lock()
	old := sl.disk
	m.mu.Unlock()
	if old == nil {
		return nil
	}
	now := scanDisk(ctx, m.opts.Root, sl.cfg.Extensions)
	m.mu.Lock()
	sl.disk = now
	m.mu.Unlock()
	if now == nil {
		return nil
	}
	return diffDisk(old, now)
}

// restamp records paths as they are on disk now, after pincer itself
// showed them to sl's server, so the next Refresh does not take pincer's
// own edits for a command's.
func (m *Manager) restamp(sl *slot, paths []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if sl.disk == nil {
		return
	}
	for _, p := range paths {
		if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() {
			sl.disk[p] = stamp{size: info.Size(), mtime: info.ModTime()}
		} else {
			delete(sl.disk, p)
		}
	}
}

// announce tells srv of files changed on disk that it may not have open
// (workspace/didChangeWatchedFiles), so a new file a command wrote is part
// of the program the server checks.
func (s *server) announce(ctx context.Context, evs []fileEvent) error {
	if len(evs) == 0 {
		return nil
	}
	changes := make([]fileChange, len(evs))
	for i, e := range evs {
		changes[i] = fileChange{URI: fileURI(e.path), Type: e.kind}
	}
	return s.conn.Notify(ctx, "workspace/didChangeWatchedFiles", didChangeWatchedFilesParams{Changes: changes})
}
