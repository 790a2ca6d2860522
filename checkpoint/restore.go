package checkpoint

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"pincer/internal/gitignore"
)

// RestoreOptions tune Restore.
type RestoreOptions struct {
	// Expect is the snapshot the caller believes the working tree matches
	// now (taken at the end of the last turn). Files whose current state
	// differs from Expect were changed outside pincer: Restore refuses with
	// *OutsideError listing them unless Force is set. "" skips the check.
	Expect string
	Force  bool
	DryRun bool // compute and return the plan, change nothing
}

// OutsideError is Restore's refusal to overwrite files that changed since
// the Expect snapshot, i.e. outside pincer.
type OutsideError struct {
	// Paths are the files changed since Expect that the restore would
	// overwrite or remove, sorted; a file changed outside pincer that the
	// restore leaves as it is does not count.
	Paths []string
}

// Error names up to a few of the paths and the fix.
func (e *OutsideError) Error() string {
	const show = 3
	names := e.Paths
	more := ""
	if len(names) > show {
		more = fmt.Sprintf(" and %d more", len(names)-show)
		names = names[:show]
	}
	noun := "files were"
	if len(e.Paths) == 1 {
		noun = "file was"
	}
	return fmt.Sprintf("%d %s changed outside pincer since the last checkpoint (%s%s); confirm to overwrite them, or restore with --force", len(e.Paths), noun, strings.Join(names, ", "), more)
}

// RestoreResult is what Restore did, or with DryRun would do.
type RestoreResult struct {
	// Before is a snapshot of the tree taken just before restoring, so a
	// redo can go back to it. Its ID is "" when nothing was changed (DryRun,
	// or a refusal): then it is not kept as a snapshot.
	Before  Snapshot
	Changes []Change // what was (or, with DryRun, would be) changed: from Before to the target
	Kept    []string // files left alone: too large or unreadable in the target or now, ignored files
}

// Restore brings the working tree back to snapshot id. It first records
// the tree as it is (RestoreResult.Before), then removes, writes and
// re-modes only what differs. Every change goes through an os.Root on the
// project, so a directory swapped for a link cannot lead a write outside
// it. On *OutsideError the result still holds the plan, for the caller to
// show before asking.
func (s *Store) Restore(ctx context.Context, id string, opts RestoreOptions) (RestoreResult, error) {
	release, err := s.lock(ctx)
	if err != nil {
		return RestoreResult{}, err
	}
	defer release()
	target, err := s.resolve(s.st, id)
	if err != nil {
		return RestoreResult{}, err
	}
	var expect *object.Commit
	if opts.Expect != "" && !opts.Force {
		if expect, err = s.resolve(s.st, opts.Expect); err != nil {
			return RestoreResult{}, err
		}
	}
	before, err := s.record(ctx, "before restoring "+target.Hash.String()[:12], false)
	if err != nil {
		return RestoreResult{}, err
	}
	root, err := os.OpenRoot(s.root)
	if err != nil {
		return RestoreResult{}, fmt.Errorf("cannot open project %s: %w", s.root, err)
	}
	defer root.Close()

	p, err := s.plan(ctx, root, before, target)
	if err != nil {
		return RestoreResult{}, err
	}
	res := RestoreResult{Before: before.snap, Changes: p.changes, Kept: p.kept}
	if expect != nil {
		outside, err := diffTrees(ctx, s.st, expect.TreeHash, before.tree)
		if err != nil {
			return res, err
		}
		changed := make(map[string]bool, len(outside))
		for _, c := range outside {
			changed[c.Path] = true
		}
		var hit []string
		for _, c := range p.changes {
			if changed[c.Path] {
				hit = append(hit, c.Path)
			}
		}
		if len(hit) > 0 {
			return res, &OutsideError{Paths: hit}
		}
	}
	if opts.DryRun {
		return res, nil
	}
	if err := s.keep(before.commit); err != nil {
		return res, fmt.Errorf("recording the tree before restoring: %w", err)
	}
	res.Before.ID = before.commit.String()
	if err := s.apply(ctx, root, before, p); err != nil {
		return res, fmt.Errorf("restoring checkpoint %s stopped: %w; checkpoint %s holds the tree as it was before", target.Hash.String()[:12], err, res.Before.ID[:12])
	}
	return res, nil
}

// plan is the work of one Restore.
type plan struct {
	changes []Change
	kept    []string
	tree    *object.Tree // the target's root tree
}

// plan compares the tree now (before) with the target and sets aside what
// must be left alone.
func (s *Store) plan(ctx context.Context, root *os.Root, before recorded, target *object.Commit) (plan, error) {
	all, err := diffTrees(ctx, s.st, before.tree, target.TreeHash)
	if err != nil {
		return plan{}, err
	}
	tree, err := object.GetTree(s.st, target.TreeHash)
	if err != nil {
		return plan{}, fmt.Errorf("reading checkpoint %s: %w", target.Hash.String()[:12], err)
	}
	p := plan{tree: tree}
	kept := map[string]bool{}
	targetSkipped := snapshotOf(target).Skipped
	under := func(skipped []Skipped, q string) bool {
		for _, sk := range skipped {
			if sk.Path == "." || q == sk.Path || strings.HasPrefix(q, sk.Path+"/") {
				return true
			}
		}
		return false
	}
	trackedDirs := map[string]bool{}
	for f := range before.flat {
		for d := path.Dir(f); d != "." && !trackedDirs[d]; d = path.Dir(d) {
			trackedDirs[d] = true
		}
	}
	ign := &targetIgnore{st: s.st, tree: tree, exclude: excludePatterns(root), dirs: map[string]gitignore.Stack{}}
	for _, c := range all {
		switch {
		case under(targetSkipped, c.Path):
			if exists(root, c.Path) {
				kept[c.Path] = true
			}
		case c.Kind == Removed && ign.ignored(c.Path):
			kept[c.Path] = true
		case c.Kind == Added && untrackedExists(root, before.flat, trackedDirs, c.Path):
			kept[c.Path] = true
		default:
			p.changes = append(p.changes, c)
		}
	}
	for _, sk := range slices.Concat(targetSkipped, before.snap.Skipped) {
		if sk.Path != "." && exists(root, sk.Path) {
			kept[sk.Path] = true
		}
	}
	for k := range kept {
		p.kept = append(p.kept, k)
	}
	slices.Sort(p.kept)
	return p, nil
}

// exists reports whether something is at name (a failure other than "not
// there" counts as something: it is left alone).
func exists(root *os.Root, name string) bool {
	_, err := root.Lstat(name)
	return !errors.Is(err, fs.ErrNotExist)
}

// untrackedExists reports whether name exists now though the snapshot of
// now did not record it (ignored, too large, unreadable): Restore must not
// overwrite it. A recorded file or link on its way is not in the way: it
// is removed first; nor is a directory of recorded files, which the
// removals empty.
func untrackedExists(root *os.Root, flat map[string]statEntry, dirs map[string]bool, name string) bool {
	if dirs[name] {
		return false
	}
	for d := path.Dir(name); d != "."; d = path.Dir(d) {
		if _, ok := flat[d]; ok {
			return false
		}
	}
	return exists(root, name)
}

// targetIgnore answers whether a path is ignored by the target snapshot's
// .gitignore files (and the project's .git/info/exclude): a file the target
// would have ignored was not recorded, so its absence there says nothing
// and Restore keeps it.
type targetIgnore struct {
	st      storer.EncodedObjectStorer
	tree    *object.Tree
	exclude gitignore.Stack
	dirs    map[string]gitignore.Stack
}

// patterns returns the patterns in force in directory dir ("." for the root).
func (t *targetIgnore) patterns(dir string) gitignore.Stack {
	if ps, ok := t.dirs[dir]; ok {
		return ps
	}
	var ps gitignore.Stack
	base := ""
	sub := t.tree
	if dir == "." {
		ps = t.exclude
	} else {
		ps = t.patterns(path.Dir(dir))
		base = dir
		var err error
		if sub, err = t.tree.Tree(dir); err != nil {
			sub = nil
		}
	}
	if sub != nil {
		if e, err := sub.FindEntry(".gitignore"); err == nil && e.Mode.IsFile() {
			if data, _, err := readBlob(t.st, e.Hash, 1<<20); err == nil {
				ps = ps.Push(gitignore.Parse(base, data))
			}
		}
	}
	t.dirs[dir] = ps
	return ps
}

// ignored reports whether name, or a directory above it, is ignored.
func (t *targetIgnore) ignored(name string) bool {
	comps := strings.Split(name, "/")
	dir := "."
	for i := 1; i < len(comps); i++ {
		if t.patterns(dir).Ignored(path.Join(comps[:i]...), true) {
			return true
		}
		dir = path.Join(comps[:i]...)
	}
	return t.patterns(dir).Ignored(name, false)
}

// apply carries out the plan: removals first, then the directories they
// left empty that the target does not have (so a file or link can take the
// place of a directory and the other way round), then writes in path order.
func (s *Store) apply(ctx context.Context, root *os.Root, before recorded, p plan) error {
	var removed []string
	for _, c := range slices.Backward(p.changes) {
		if c.Kind != Removed {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := root.Remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", c.Path, err)
		}
		removed = append(removed, c.Path)
	}
	gone := map[string]bool{}
	for _, r := range removed {
		for d := path.Dir(r); d != "." && !gone[d]; d = path.Dir(d) {
			if _, err := p.tree.Tree(d); err == nil {
				break
			}
			gone[d] = true
		}
	}
	dirs := make([]string, 0, len(gone))
	for d := range gone {
		dirs = append(dirs, d)
	}
	// Deepest first, so a parent is tried after its children.
	slices.SortFunc(dirs, func(a, b string) int {
		if c := strings.Count(b, "/") - strings.Count(a, "/"); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	for _, d := range dirs {
		if info, err := root.Lstat(d); err == nil && info.IsDir() {
			_ = root.Remove(d) // fails, as it should, when something is left inside
		}
	}
	for _, c := range p.changes {
		if c.Kind == Removed {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.write(root, before, c); err != nil {
			return err
		}
	}
	return nil
}

// write brings one added or modified path to its recorded content and mode,
// atomically: a temporary file or link beside it, renamed over it.
func (s *Store) write(root *os.Root, before recorded, c Change) error {
	if dir := path.Dir(c.Path); dir != "." {
		if err := root.MkdirAll(dir, 0o777); err != nil {
			return fmt.Errorf("creating the directory of %s: %w", c.Path, err)
		}
	}
	old, hadFile := before.flat[c.Path]
	hadFile = hadFile && old.mode.IsRegular()
	if c.Kind == Modified && c.OldHash == c.NewHash && hadFile && c.NewMode&fs.ModeSymlink == 0 {
		if err := root.Chmod(c.Path, execPerm(old.mode.Perm(), c.NewMode&0o111 != 0)); err != nil {
			return fmt.Errorf("changing the mode of %s: %w", c.Path, err)
		}
		return nil
	}
	data, _, err := readBlob(s.st, plumbing.NewHash(c.NewHash), 1<<40)
	if err != nil {
		return err
	}
	tmp := path.Join(path.Dir(c.Path), tempName())
	if c.NewMode&fs.ModeSymlink != 0 {
		if err := root.Symlink(string(data), tmp); err != nil {
			return fmt.Errorf("restoring link %s: %w", c.Path, err)
		}
	} else {
		perm := fs.FileMode(0o666)
		if c.NewMode&0o111 != 0 {
			perm = 0o777
		}
		f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err != nil {
			return fmt.Errorf("restoring %s: %w", c.Path, err)
		}
		_, werr := f.Write(data)
		var cherr error
		if hadFile {
			cherr = f.Chmod(execPerm(old.mode.Perm(), c.NewMode&0o111 != 0))
		}
		if err := errors.Join(werr, cherr, f.Close()); err != nil {
			root.Remove(tmp)
			return fmt.Errorf("restoring %s: %w", c.Path, err)
		}
	}
	if err := root.Rename(tmp, c.Path); err != nil {
		root.Remove(tmp)
		return fmt.Errorf("restoring %s: %w", c.Path, err)
	}
	return nil
}

// execPerm is perm with the executable bits set where it is readable, or
// cleared: the rest of the file's permissions stay as the user had them.
func execPerm(perm fs.FileMode, exec bool) fs.FileMode {
	if exec {
		return perm | (perm&0o444)>>2
	}
	return perm &^ 0o111
}

// tempName is a fresh name for a file being written beside its final one.
func tempName() string {
	var b [8]byte
	rand.Read(b[:])
	return ".pincer-restore-" + hex.EncodeToString(b[:]) + ".tmp"
}
