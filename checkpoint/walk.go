package checkpoint

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"pincer/internal/gitignore"
	"pincer/internal/human"
)

// Reasons a file is not recorded, as Skipped.Reason shows them.
const reasonSpecial = "not a regular file, directory or link"

// node is one directory of the tree being recorded, with what its walk
// found; directories are walked concurrently, each writing only its node.
type node struct {
	entries []tentry
	recs    []rec
	skipped []Skipped
}

// rec is a recorded file or link of a node: its stat, and whether it must
// be read (job) or its hash came from the cache.
type rec struct {
	path string
	e    statEntry
	i    int // index in node.entries
	job  bool
}

// tentry is one entry of a node: a file or link (hash set once known) or a
// subdirectory (sub set).
type tentry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
	sub  *node
}

// hashJob is a file whose stat changed since the cache: it must be read,
// hashed and stored.
type hashJob struct {
	n    *node
	i    int
	path string // slash-separated, relative to the root
	size int64
}

// scan is one walk of the working tree.
type scan struct {
	ctx     context.Context
	root    *os.Root
	maxSize int64
	skipDir string // the store's own directory relative to root ("" when outside)
	old     *statCache
	next    map[string]statEntry
	skipped []Skipped
	jobs    []hashJob
	files   int

	sem  chan struct{} // bounds the directories walked at once
	wg   sync.WaitGroup
	emu  sync.Mutex
	werr error // the first error of a concurrent walk
}

// newScan prepares a walk of the tree under root.
func (s *Store) newScan(ctx context.Context, root *os.Root, old *statCache) *scan {
	sc := &scan{ctx: ctx, root: root, maxSize: s.maxSize, old: old, next: make(map[string]statEntry, len(old.entries)),
		sem: make(chan struct{}, 2*runtime.GOMAXPROCS(0))}
	if rel, err := filepath.Rel(s.root, s.dir); err == nil && rel != "." && filepath.IsLocal(rel) {
		sc.skipDir = filepath.ToSlash(rel)
	}
	return sc
}

// isGitDir reports whether name is a git directory (or gitlink file), which
// is never recorded or touched, whatever its case on a case-folding disk.
func isGitDir(name string) bool { return strings.EqualFold(name, ".git") }

// excludePatterns reads the project's .git/info/exclude (read only; a .git
// that is a file, as in a linked worktree, has none here).
func excludePatterns(root *os.Root) gitignore.Stack {
	info, err := root.Lstat(".git")
	if err != nil || !info.IsDir() {
		return nil
	}
	data, err := readSmall(root, ".git/info/exclude")
	if err != nil {
		return nil
	}
	return gitignore.Stack{}.Push(gitignore.Parse("", data))
}

// readSmall reads a small text file (an ignore file) through root, at most
// 1 MiB of it.
func readSmall(root *os.Root, name string) ([]byte, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|openReadFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	return io.ReadAll(io.LimitReader(f, 1<<20))
}

// walk records the directory rel ("" for the root) into n. Entries whose
// stat matches the cache take their hash from it; the others become jobs.
func (sc *scan) walk(rel string, n *node, ps gitignore.Stack) error {
	name := rel
	if name == "" {
		name = "."
	}
	if err := sc.ctx.Err(); err != nil {
		return err
	}
	d, err := sc.root.Open(name)
	if err != nil {
		n.skip(rel, 0, "unreadable: "+errText(err))
		return nil
	}
	dirents, err := d.ReadDir(-1)
	d.Close()
	if err != nil && len(dirents) == 0 {
		n.skip(rel, 0, "unreadable: "+errText(err))
		return nil
	}
	slices.SortFunc(dirents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range dirents {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			if data, err := readSmall(sc.root, path.Join(rel, ".gitignore")); err == nil {
				ps = ps.Push(gitignore.Parse(rel, data))
			}
			break
		}
	}
	for k, e := range dirents {
		if k%256 == 255 {
			if err := sc.ctx.Err(); err != nil {
				return err
			}
		}
		base := e.Name()
		p := path.Join(rel, base)
		if isGitDir(base) || p == sc.skipDir {
			continue
		}
		if ps.Ignored(p, e.IsDir()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // gone since the listing
			}
			n.skip(p, 0, "unreadable: "+errText(err))
			continue
		}
		mode := info.Mode()
		switch {
		case mode.IsDir():
			// An empty subdirectory stays in the list; buildTree leaves it out.
			sub := &node{}
			n.entries = append(n.entries, tentry{name: base, mode: filemode.Dir, sub: sub})
			select {
			case sc.sem <- struct{}{}:
				sc.wg.Go(func() {
					defer func() { <-sc.sem }()
					if err := sc.walk(p, sub, ps); err != nil {
						sc.fail(err)
					}
				})
			default:
				if err := sc.walk(p, sub, ps); err != nil {
					return err
				}
			}
		case mode.IsRegular():
			if info.Size() > sc.maxSize {
				n.skip(p, info.Size(), "larger than "+human.Bytes(sc.maxSize))
				continue
			}
			fm := filemode.Regular
			if mode&0o100 != 0 {
				fm = filemode.Executable
			}
			sc.add(n, base, p, fm, info)
		case mode&fs.ModeSymlink != 0:
			sc.add(n, base, p, filemode.Symlink, info)
		default:
			n.skip(p, info.Size(), reasonSpecial)
		}
	}
	return nil
}

// add records a file or link, from the cache when its stat is unchanged.
func (sc *scan) add(n *node, base, p string, fm filemode.FileMode, info fs.FileInfo) {
	ino, ctime := statExtra(info)
	e := statEntry{size: info.Size(), mtime: info.ModTime().UnixNano(), ctime: ctime, ino: ino, mode: info.Mode()}
	n.entries = append(n.entries, tentry{name: base, mode: fm})
	i := len(n.entries) - 1
	if h, ok := sc.old.fresh(p, e.size, e.mtime, e.ctime, e.ino, e.mode); ok {
		n.entries[i].hash = h
		e.hash = h
		n.recs = append(n.recs, rec{path: p, e: e, i: i})
		return
	}
	n.recs = append(n.recs, rec{path: p, e: e, i: i, job: true}) // hash filled in when the job is done
}

// fail keeps the first error of a concurrent walk.
func (sc *scan) fail(err error) {
	sc.emu.Lock()
	defer sc.emu.Unlock()
	if sc.werr == nil {
		sc.werr = err
	}
}

// run walks the whole tree into top, then gathers what the directories
// found, in path order.
func (sc *scan) run(top *node, ps gitignore.Stack) error {
	err := sc.walk("", top, ps)
	sc.wg.Wait()
	if err == nil {
		err = sc.werr
	}
	if err != nil {
		return err
	}
	sc.gather(top)
	return nil
}

// gather moves what the walk of n and below found into sc.
func (sc *scan) gather(n *node) {
	sc.skipped = append(sc.skipped, n.skipped...)
	for _, r := range n.recs {
		sc.files++
		sc.next[r.path] = r.e
		if r.job {
			sc.jobs = append(sc.jobs, hashJob{n: n, i: r.i, path: r.path, size: r.e.size})
		}
	}
	n.recs, n.skipped = nil, nil
	for _, e := range n.entries {
		if e.sub != nil {
			sc.gather(e.sub)
		}
	}
}

// skip notes a path that is not recorded.
func (n *node) skip(p string, size int64, reason string) {
	if p == "" {
		p = "."
	}
	n.skipped = append(n.skipped, Skipped{Path: p, Size: size, Reason: reason})
}

// skip notes a path that is not recorded after all (found when reading it).
func (sc *scan) skip(p string, size int64, reason string) {
	sc.skipped = append(sc.skipped, Skipped{Path: p, Size: size, Reason: reason})
}

// errText is an error's message without the path the caller already shows.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
