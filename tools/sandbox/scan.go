package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// secretScan finds the secret files and directories below a root (the
// project), and its git dirs and .git files, and tells cheaply whether
// that may have changed. It watches
// every directory it read (inotify, where there is one), so before a
// command it reads again only the directories whose entries were created,
// removed or renamed; a directory it cannot watch (the kernel's limit of
// watches, or no inotify) it looks at by its modification time. Links are
// not followed and .git is not entered; a secret directory is (a
// repository made inside one is a repository too), but what lies in it
// is hidden with it.
type secretScan struct {
	root     string
	isSecret func(rel string) bool
	dirs     map[string]scannedDir // by path relative to root, "." for root
	watch    dirWatcher
}

type scannedDir struct {
	mtime   time.Time
	watched bool     // the watcher reports its changes
	secrets []string // names of the secret entries
	subdirs []string // names of the subdirectories scanned
	git     string   // its .git entry: "dir", "file" or "" for none
}

// dirWatcher reports which watched directories changed.
type dirWatcher interface {
	// add watches dir (relative to the root) and reports whether it can.
	add(rel string) bool
	// remove stops watching it.
	remove(rel string)
	// changed returns the directories changed since the last call; all is
	// set when the watcher lost track and every directory must be looked at.
	changed() (rels []string, all bool)
	close()
}

func newSecretScan(root string, isSecret func(rel string) bool) *secretScan {
	return scanWith(root, isSecret, newDirWatcher(filepath.Clean(root)))
}

func scanWith(root string, isSecret func(rel string) bool, w dirWatcher) *secretScan {
	s := &secretScan{root: filepath.Clean(root), isSecret: isSecret, dirs: map[string]scannedDir{}, watch: w}
	s.read(".")
	return s
}

// close stops watching.
func (s *secretScan) close() { s.watch.close() }

// read (re)reads one directory and scans its new subdirectories. The
// watch comes first, so nothing made while it is read goes unseen.
func (s *secretScan) read(rel string) {
	dir := filepath.Join(s.root, rel)
	old, known := s.dirs[rel]
	watched := old.watched
	if !known {
		watched = s.watch.add(rel)
	}
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() {
		s.drop(rel)
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		s.drop(rel)
		return
	}
	d := scannedDir{mtime: info.ModTime(), watched: watched}
	for _, e := range entries {
		name := e.Name()
		relName := filepath.ToSlash(filepath.Join(rel, name))
		if name == ".git" {
			switch {
			case e.IsDir():
				d.git = "dir"
			case e.Type().IsRegular():
				d.git = "file"
			}
			continue
		}
		if s.isSecret(relName) {
			d.secrets = append(d.secrets, name)
		}
		if e.IsDir() {
			d.subdirs = append(d.subdirs, name)
		}
	}
	s.dirs[rel] = d
	for _, sub := range old.subdirs {
		if !slices.Contains(d.subdirs, sub) {
			s.drop(filepath.Join(rel, sub))
		}
	}
	for _, sub := range d.subdirs {
		if !slices.Contains(old.subdirs, sub) {
			s.read(filepath.Join(rel, sub))
		}
	}
}

// drop forgets a directory and everything scanned below it.
func (s *secretScan) drop(rel string) {
	d, ok := s.dirs[rel]
	if !ok {
		s.watch.remove(rel)
		return
	}
	delete(s.dirs, rel)
	if d.watched {
		s.watch.remove(rel)
	}
	for _, sub := range d.subdirs {
		s.drop(filepath.Join(rel, sub))
	}
}

// refresh reads again the directories that changed since the last look
// and reports whether the secrets found changed.
func (s *secretScan) refresh() bool {
	before := s.found()
	changed, all := s.watch.changed()
	stale := map[string]bool{}
	for _, rel := range changed {
		stale[rel] = true
	}
	for rel, d := range s.dirs {
		if d.watched && !all {
			continue
		}
		info, err := os.Lstat(filepath.Join(s.root, rel))
		if err != nil || !info.ModTime().Equal(d.mtime) {
			stale[rel] = true
		}
	}
	order := make([]string, 0, len(stale))
	for rel := range stale {
		order = append(order, rel)
	}
	// Parents first, so a removed tree is dropped before its children
	// are looked at.
	slices.SortFunc(order, func(a, b string) int { return strings.Count(a, "/") - strings.Count(b, "/") })
	for _, rel := range order {
		if _, still := s.dirs[rel]; still {
			s.read(rel)
		}
	}
	return !slices.Equal(before, s.found())
}

// found lists the secret paths, absolute and sorted, outermost only: a
// secret directory is hidden whole.
func (s *secretScan) found() []string {
	var all []string
	for rel, d := range s.dirs {
		for _, name := range d.secrets {
			all = append(all, filepath.Join(s.root, rel, name))
		}
	}
	slices.Sort(all)
	var out []string
	for _, p := range all {
		if !slices.ContainsFunc(out, func(o string) bool { return within(p, o) }) {
			out = append(out, p)
		}
	}
	return out
}

// gitPlaces lists the git dirs and .git files found, as findProjectGit
// does (a git dir's submodules and linked worktrees too), without
// walking the tree again.
func (s *secretScan) gitPlaces() []string {
	var g projectGit
	for rel, d := range s.dirs {
		switch p := filepath.Join(s.root, rel, ".git"); d.git {
		case "dir":
			g.addDir(p)
		case "file":
			g.links = append(g.links, p)
		}
	}
	return append(g.dirs, g.links...)
}

// homeSecrets lists the secret files and directories near the top of
// home: its entries, theirs, and one level further inside its hidden
// directories (~/.local/share/keyrings), leaving out skip (the project)
// and the build caches. isSecret gets "~/…" paths. At most limit
// entries are looked at, so a huge home costs a bounded time. w records
// how each directory listed stood before it was listed.
func homeSecrets(home string, skip []string, isSecret func(string) bool, limit int, w homeWatch) []string {
	var out []string
	seen := 0
	var walk func(dir, shown string, depth int, hidden bool)
	walk = func(dir, shown string, depth int, hidden bool) {
		w.stamp(dir)
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if seen++; seen > limit {
				return
			}
			p, ps := filepath.Join(dir, e.Name()), shown+"/"+e.Name()
			if slices.Contains(skip, p) {
				continue
			}
			if isSecret(ps) {
				out = append(out, p)
				continue
			}
			deeper := depth < 2 || depth < 3 && (hidden || strings.HasPrefix(e.Name(), "."))
			switch {
			case !e.IsDir() || !deeper:
			case bulky(ps):
				// Too large to walk, but a tool's credentials sit at its
				// top: ~/.cargo/credentials.toml, ~/.m2/settings.xml.
				w.stamp(p)
				tops, _ := os.ReadDir(p)
				for _, t := range tops {
					if seen++; seen > limit {
						return
					}
					if !t.IsDir() && isSecret(ps+"/"+t.Name()) {
						out = append(out, filepath.Join(p, t.Name()))
					}
				}
			default:
				walk(p, ps, depth+1, hidden || strings.HasPrefix(e.Name(), "."))
			}
		}
	}
	walk(home, "~", 1, false)
	return out
}

// bulky are the home directories too large to look through and known to
// hold no secrets of their own: caches and toolchains.
func bulky(shown string) bool {
	switch shown {
	case "~/.cache", "~/go", "~/.cargo", "~/.rustup", "~/.npm", "~/.pnpm-store", "~/.m2", "~/.gradle", "~/.nvm", "~/.pyenv", "~/.local/lib", "~/node_modules", "~/snap":
		return true
	}
	return false
}

// noWatcher watches nothing: every directory is looked at by its time.
type noWatcher struct{}

func (noWatcher) add(string) bool           { return false }
func (noWatcher) remove(string)             {}
func (noWatcher) changed() ([]string, bool) { return nil, false }
func (noWatcher) close()                    {}
