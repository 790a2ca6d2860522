// Package watch tells the screen when directories of the project change on
// disk, whoever changed them: pincer's tools, a command, /export, or the
// person in another shell.
//
// It watches only the directories the screen asks for (the ones open in
// the tree pane), at most a fixed number, so a huge project costs no more
// than what is on screen. Events are gathered and sent as one ChangedMsg
// after a quiet moment, so a build that writes a thousand files redraws the
// tree once, not a thousand times.
package watch

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"
)

// ChangedMsg says which watched directories had entries created, removed
// or renamed. Dirs are "/"-separated and relative to the root; "" is the
// root itself.
type ChangedMsg struct {
	Root string
	Dirs []string
}

// Options tune a Watcher; the zero value takes the defaults.
type Options struct {
	// Quiet is how long no event must arrive before a batch is sent
	// (default 150 ms).
	Quiet time.Duration
	// Longest is how long a batch may wait while events keep arriving
	// (default 1 s), so a long build still shows progress.
	Longest time.Duration
	// MaxDirs caps the directories watched at once (default 512).
	MaxDirs int
	// Ignored, when set, says whether a changed path (relative, "/"
	// separated) is hidden from the screen, e.g. by .gitignore; changes to
	// ignored paths alone send nothing.
	Ignored func(rel string, isDir bool) bool
}

// Watcher watches some directories of one project root.
type Watcher struct {
	root string
	opts Options
	fs   *fsnotify.Watcher
	out  chan ChangedMsg
	want chan []string // the latest set the screen asked for
	done chan struct{}
	once sync.Once
}

// New starts watching root itself. Close releases it.
func New(root string, o Options) (*Watcher, error) {
	if o.Quiet <= 0 {
		o.Quiet = 150 * time.Millisecond
	}
	if o.Longest <= 0 {
		o.Longest = time.Second
	}
	if o.MaxDirs <= 0 {
		o.MaxDirs = 512
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := fw.Add(abs); err != nil {
		fw.Close()
		return nil, err
	}
	w := &Watcher{
		root: abs, opts: o, fs: fw,
		out:  make(chan ChangedMsg, 1),
		want: make(chan []string, 1),
		done: make(chan struct{}),
	}
	go w.loop()
	return w, nil
}

// Watch replaces the set of watched directories (relative to the root; the
// root is always watched). It never blocks: the watcher applies the latest
// set it was given.
func (w *Watcher) Watch(dirs []string) {
	if w == nil {
		return
	}
	dirs = slices.Clone(dirs)
	for {
		select {
		case w.want <- dirs:
			return
		case <-w.want: // drop an older set not yet applied
		}
	}
}

// Wait returns a Cmd that delivers the next ChangedMsg. The screen calls
// it again after each message, as it does for other event sources.
func (w *Watcher) Wait() tea.Cmd {
	if w == nil {
		return nil
	}
	return func() tea.Msg {
		select {
		case m := <-w.out:
			return m
		case <-w.done:
			return nil
		}
	}
}

// Close stops watching.
func (w *Watcher) Close() error {
	if w == nil {
		return nil
	}
	var err error
	w.once.Do(func() {
		close(w.done)
		err = w.fs.Close()
	})
	return err
}

// loop gathers events into batches and applies new watch sets.
func (w *Watcher) loop() {
	watched := map[string]bool{"": true}
	pending := map[string]bool{}
	var quiet, longest <-chan time.Time
	for {
		select {
		case <-w.done:
			return
		case dirs := <-w.want:
			w.apply(watched, dirs)
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if dir, ok := w.relevant(ev); ok {
				if len(pending) == 0 {
					longest = time.After(w.opts.Longest)
				}
				pending[dir] = true
				quiet = time.After(w.opts.Quiet)
			}
		case _, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			// An overflowed queue lost events: refresh what is watched.
			for d := range watched {
				pending[d] = true
			}
			quiet = time.After(w.opts.Quiet)
		case <-quiet:
			w.send(pending)
			pending, quiet, longest = map[string]bool{}, nil, nil
		case <-longest:
			w.send(pending)
			pending, quiet, longest = map[string]bool{}, nil, nil
		}
	}
}

// relevant reports which watched directory an event changes. Writes to a
// file's content do not change a listing; creations, removals and renames
// do, unless the entry is ignored.
func (w *Watcher) relevant(ev fsnotify.Event) (string, bool) {
	if !ev.Has(fsnotify.Create) && !ev.Has(fsnotify.Remove) && !ev.Has(fsnotify.Rename) {
		return "", false
	}
	rel, err := filepath.Rel(w.root, ev.Name)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".git" || strings.HasPrefix(rel, ".git/") {
		return "", false
	}
	if w.opts.Ignored != nil && w.opts.Ignored(rel, ev.Has(fsnotify.Create) && isDir(ev.Name)) {
		return "", false
	}
	dir := filepath.ToSlash(filepath.Dir(rel))
	if dir == "." {
		dir = ""
	}
	return dir, true
}

// apply makes the watched set match dirs (plus the root), up to MaxDirs.
func (w *Watcher) apply(watched map[string]bool, dirs []string) {
	keep := map[string]bool{"": true}
	for _, d := range dirs {
		if len(keep) >= w.opts.MaxDirs {
			break
		}
		keep[d] = true
	}
	for d := range watched {
		if !keep[d] {
			_ = w.fs.Remove(w.abs(d)) // it may be gone already
			delete(watched, d)
		}
	}
	for d := range keep {
		if watched[d] {
			continue
		}
		if err := w.fs.Add(w.abs(d)); err != nil && !errors.Is(err, fsnotify.ErrClosed) {
			continue // gone or unreadable: the tree says so itself
		}
		watched[d] = true
	}
}

func (w *Watcher) abs(rel string) string {
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

// send delivers a batch, replacing an undelivered one with the union.
func (w *Watcher) send(pending map[string]bool) {
	if len(pending) == 0 {
		return
	}
	for {
		dirs := make([]string, 0, len(pending))
		for d := range pending {
			dirs = append(dirs, d)
		}
		slices.Sort(dirs)
		select {
		case w.out <- ChangedMsg{Root: w.root, Dirs: dirs}:
			return
		case old := <-w.out:
			for _, d := range old.Dirs {
				pending[d] = true
			}
		case <-w.done:
			return
		}
	}
}

// isDir reports whether p is a directory now (a created entry may be gone
// again by the time it is looked at; then it is not).
func isDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}
