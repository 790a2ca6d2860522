package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// secretScan finds the secret files and directories below a root (the
// project) and tells cheaply whether that may have changed: it remembers
// every directory's modification time, which changes whenever an entry
// is created, removed or renamed in it, and reads again only the
// directories that changed. Links are not followed and .git is not
// entered.
type secretScan struct {
	root     string
	isSecret func(rel string) bool
	dirs     map[string]scannedDir // by path relative to root, "." for root
}

type scannedDir struct {
	mtime   time.Time
	secrets []string // names of the secret entries
	subdirs []string // names of the subdirectories scanned
}

func newSecretScan(root string, isSecret func(rel string) bool) *secretScan {
	s := &secretScan{root: filepath.Clean(root), isSecret: isSecret, dirs: map[string]scannedDir{}}
	s.read(".")
	return s
}

// read (re)reads one directory and scans its new subdirectories.
func (s *secretScan) read(rel string) {
	dir := filepath.Join(s.root, rel)
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
	old := s.dirs[rel]
	d := scannedDir{mtime: info.ModTime()}
	for _, e := range entries {
		name := e.Name()
		relName := filepath.ToSlash(filepath.Join(rel, name))
		if s.isSecret(relName) {
			d.secrets = append(d.secrets, name)
			continue // a secret directory is hidden whole
		}
		if e.IsDir() && name != ".git" {
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
		return
	}
	delete(s.dirs, rel)
	for _, sub := range d.subdirs {
		s.drop(filepath.Join(rel, sub))
	}
}

// refresh reads again the directories that changed since the last look
// and reports whether the secrets found changed.
func (s *secretScan) refresh() bool {
	before := s.found()
	var stale []string
	for rel, d := range s.dirs {
		info, err := os.Lstat(filepath.Join(s.root, rel))
		if err != nil || !info.ModTime().Equal(d.mtime) {
			stale = append(stale, rel)
		}
	}
	// Parents first, so a removed tree is dropped before its children
	// are looked at.
	slices.SortFunc(stale, func(a, b string) int { return strings.Count(a, "/") - strings.Count(b, "/") })
	for _, rel := range stale {
		if _, still := s.dirs[rel]; still {
			s.read(rel)
		}
	}
	return !slices.Equal(before, s.found())
}

// found lists the secret paths, absolute and sorted.
func (s *secretScan) found() []string {
	var out []string
	for rel, d := range s.dirs {
		for _, name := range d.secrets {
			out = append(out, filepath.Join(s.root, rel, name))
		}
	}
	slices.Sort(out)
	return out
}

// homeSecrets lists the secret files and directories near the top of
// home: its entries, theirs, and one level further inside its hidden
// directories (~/.local/share/keyrings), leaving out skip (the project)
// and the build caches. isSecret gets "~/…" paths. At most limit
// entries are looked at, so a huge home costs a bounded time.
func homeSecrets(home string, skip []string, isSecret func(string) bool, limit int) []string {
	var out []string
	seen := 0
	var walk func(dir, shown string, depth int, hidden bool)
	walk = func(dir, shown string, depth int, hidden bool) {
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
			if e.IsDir() && deeper && !bulky(ps) {
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
