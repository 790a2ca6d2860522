package checkpoint

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Kind is what happened to a path between two snapshots.
type Kind int

// The kinds of Change.
const (
	Added    Kind = iota + 1
	Removed       // the path is gone
	Modified      // content, mode or link target changed
)

// String names the kind for people and JSON.
func (k Kind) String() string {
	switch k {
	case Added:
		return "added"
	case Removed:
		return "removed"
	case Modified:
		return "modified"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// MarshalText writes the kind's name, for --json output.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Change is one path that differs between two snapshots.
type Change struct {
	Path             string // slash-separated, relative to root
	Kind             Kind
	OldMode, NewMode fs.FileMode // 0 when absent
	OldHash, NewHash string      // blob hashes, "" when absent
}

// Changes lists what differs between snapshot from and snapshot to, sorted
// by path. Directories that are equal in both are not read.
func (s *Store) Changes(ctx context.Context, from, to string) ([]Change, error) {
	s.rmu.Lock()
	defer s.rmu.Unlock()
	s.syncReader()
	a, err := s.resolve(s.rst, from)
	if err != nil {
		return nil, err
	}
	b, err := s.resolve(s.rst, to)
	if err != nil {
		return nil, err
	}
	return diffTrees(ctx, s.rst, a.TreeHash, b.TreeHash)
}

// diffTrees lists the changes from tree a to tree b, sorted by path.
func diffTrees(ctx context.Context, st storer.EncodedObjectStorer, a, b plumbing.Hash) ([]Change, error) {
	var out []Change
	if err := diffInto(ctx, st, "", a, b, &out); err != nil {
		return nil, fmt.Errorf("comparing checkpoints: %w", err)
	}
	slices.SortFunc(out, func(x, y Change) int { return strings.Compare(x.Path, y.Path) })
	return out, nil
}

// treeEntries reads tree h's entries; the zero hash is an empty tree.
func treeEntries(st storer.EncodedObjectStorer, h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	t, err := object.GetTree(st, h)
	if err != nil {
		return nil, fmt.Errorf("reading tree %s: %w", h.String()[:12], err)
	}
	return t.Entries, nil
}

// diffInto appends the changes between trees a and b under prefix.
func diffInto(ctx context.Context, st storer.EncodedObjectStorer, prefix string, a, b plumbing.Hash, out *[]Change) error {
	if a == b {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ea, err := treeEntries(st, a)
	if err != nil {
		return err
	}
	eb, err := treeEntries(st, b)
	if err != nil {
		return err
	}
	byName := make(map[string]object.TreeEntry, len(eb))
	for _, e := range eb {
		byName[e.Name] = e
	}
	for _, x := range ea {
		p := path.Join(prefix, x.Name)
		y, ok := byName[x.Name]
		delete(byName, x.Name)
		if err := diffEntry(ctx, st, p, x, true, y, ok, out); err != nil {
			return err
		}
	}
	for _, y := range eb {
		if _, left := byName[y.Name]; !left {
			continue
		}
		if err := diffEntry(ctx, st, path.Join(prefix, y.Name), object.TreeEntry{}, false, y, true, out); err != nil {
			return err
		}
	}
	return nil
}

// diffEntry compares entry x of the old tree (when hasX) with y of the new
// (when hasY).
func diffEntry(ctx context.Context, st storer.EncodedObjectStorer, p string, x object.TreeEntry, hasX bool, y object.TreeEntry, hasY bool, out *[]Change) error {
	if !hasX {
		x = object.TreeEntry{}
	}
	if !hasY {
		y = object.TreeEntry{}
	}
	xDir, yDir := hasX && x.Mode == filemode.Dir, hasY && y.Mode == filemode.Dir
	switch {
	case xDir || yDir:
		var ah, bh plumbing.Hash
		if xDir {
			ah = x.Hash
		}
		if yDir {
			bh = y.Hash
		}
		if err := diffInto(ctx, st, p, ah, bh, out); err != nil {
			return err
		}
		if hasX && !xDir {
			*out = append(*out, Change{Path: p, Kind: Removed, OldMode: osMode(x.Mode), OldHash: x.Hash.String()})
		}
		if hasY && !yDir {
			*out = append(*out, Change{Path: p, Kind: Added, NewMode: osMode(y.Mode), NewHash: y.Hash.String()})
		}
	case hasX && hasY:
		if x.Hash != y.Hash || x.Mode != y.Mode {
			*out = append(*out, Change{Path: p, Kind: Modified, OldMode: osMode(x.Mode), NewMode: osMode(y.Mode), OldHash: x.Hash.String(), NewHash: y.Hash.String()})
		}
	case hasX:
		*out = append(*out, Change{Path: p, Kind: Removed, OldMode: osMode(x.Mode), OldHash: x.Hash.String()})
	case hasY:
		*out = append(*out, Change{Path: p, Kind: Added, NewMode: osMode(y.Mode), NewHash: y.Hash.String()})
	}
	return nil
}

// osMode turns a git mode into the file mode a Change shows.
func osMode(m filemode.FileMode) fs.FileMode {
	switch m {
	case filemode.Executable:
		return 0o755
	case filemode.Symlink:
		return fs.ModeSymlink | 0o777
	case filemode.Regular, filemode.Deprecated:
		return 0o644
	}
	return 0
}

// syncReader makes the reading storage see packs written or removed since
// it last looked, by this process or another. The caller holds rmu.
func (s *Store) syncReader() {
	names := packs(s.dir)
	if !slices.Equal(names, s.rpacks) {
		s.rst.Reindex()
		s.rpacks = names
	}
}

// Blob returns a recorded file's content (for diffs), at most limit bytes,
// and whether it was cut.
func (s *Store) Blob(hash string, limit int64) ([]byte, bool, error) {
	if len(hash) != 40 || strings.Trim(strings.ToLower(hash), "0123456789abcdef") != "" {
		return nil, false, fmt.Errorf("%q is not a blob hash; pass a hash from a Change", hash)
	}
	s.rmu.Lock()
	defer s.rmu.Unlock()
	s.syncReader()
	return readBlob(s.rst, plumbing.NewHash(hash), limit)
}

// readBlob reads at most limit bytes of blob h.
func readBlob(st storer.EncodedObjectStorer, h plumbing.Hash, limit int64) ([]byte, bool, error) {
	obj, err := st.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, false, fmt.Errorf("reading recorded file %s: %w", h.String()[:12], err)
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, false, fmt.Errorf("reading recorded file %s: %w", h.String()[:12], err)
	}
	defer r.Close()
	if limit < 0 {
		limit = 0
	}
	data, err := io.ReadAll(io.LimitReader(r, limit))
	if err != nil {
		return nil, false, fmt.Errorf("reading recorded file %s: %w", h.String()[:12], err)
	}
	return data, obj.Size() > limit, nil
}
