package checkpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// refPrefix names the refs that keep snapshots alive: one per snapshot,
// refs/pincer/<id>. A snapshot without a ref is garbage for Prune.
const refPrefix = "refs/pincer/"

// metaPrefix opens the commit message line that carries a snapshot's
// details as JSON.
const metaPrefix = "pincer-checkpoint: "

// Skipped is a path that was not recorded, and why.
type Skipped struct {
	Path   string
	Size   int64
	Reason string // "larger than 5 MiB", "not a regular file, directory or link", "unreadable: ..."
}

// Snapshot is one recorded state of the working tree.
type Snapshot struct {
	ID      string // the commit hash, hex
	Time    time.Time
	Files   int
	Skipped []Skipped
	Label   string
}

// meta is the JSON line in a snapshot's commit message.
type meta struct {
	Time    int64     `json:"time"` // ns; the commit's own time has whole seconds only
	Files   int       `json:"files"`
	Skipped []Skipped `json:"skipped,omitempty"`
}

// recorded is a snapshot built by record: its commit, tree and the walk's
// view of the tree (flat, for Restore).
type recorded struct {
	snap   Snapshot
	commit plumbing.Hash
	tree   plumbing.Hash
	flat   map[string]statEntry
	hashed int // files read and hashed because their stat changed
}

// Snapshot records the working tree now (label goes into the commit
// message) and returns it. Files whose size, times, inode and mode are as
// at the last snapshot are not read again. It is safe to call from any
// goroutine; it waits for a Snapshot, Restore or Prune in progress, in this
// process or another, and stops early when ctx is cancelled.
func (s *Store) Snapshot(ctx context.Context, label string) (Snapshot, error) {
	release, err := s.lock(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	defer release()
	r, err := s.record(ctx, label, true)
	if err != nil {
		return Snapshot{}, err
	}
	return r.snap, nil
}

// record walks the tree, stores what changed, writes the commit and, when
// keep is set, the ref that makes it a snapshot. The caller holds the lock.
func (s *Store) record(ctx context.Context, label string, keep bool) (recorded, error) {
	root, err := os.OpenRoot(s.root)
	if err != nil {
		return recorded{}, fmt.Errorf("cannot read project %s: %w", s.root, err)
	}
	defer root.Close()
	start := time.Now()
	if _, err := s.packedObjects(); err != nil {
		return recorded{}, err
	}
	s.cache = loadCache(s.dir, s.cache)
	sc := s.newScan(ctx, root, s.cache)
	top := &node{}
	if err := sc.run(top, excludePatterns(root)); err != nil {
		return recorded{}, fmt.Errorf("recording a checkpoint: %w", err)
	}
	if err := s.runJobs(sc); err != nil {
		return recorded{}, fmt.Errorf("recording a checkpoint: %w", err)
	}
	tree, ok, err := s.buildTree(ctx, top)
	if err != nil {
		return recorded{}, fmt.Errorf("recording a checkpoint: %w", err)
	}
	if !ok {
		if tree, err = s.putObject(&object.Tree{}); err != nil {
			return recorded{}, err
		}
	}
	slices.SortFunc(sc.skipped, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	m := meta{Time: start.UnixNano(), Files: sc.files, Skipped: sc.skipped}
	mj, err := json.Marshal(m)
	if err != nil {
		return recorded{}, err
	}
	sig := object.Signature{Name: "pincer", Email: "pincer@localhost", When: start}
	c := &object.Commit{
		Author:    sig,
		Committer: sig,
		Message:   oneLine(label) + "\n\n" + metaPrefix + string(mj) + "\n",
		TreeHash:  tree,
	}
	ch, err := s.putObject(c)
	if err != nil {
		return recorded{}, err
	}
	if err := ctx.Err(); err != nil {
		return recorded{}, fmt.Errorf("recording a checkpoint: %w", err)
	}
	snap := Snapshot{Time: start, Files: sc.files, Skipped: sc.skipped, Label: oneLine(label)}
	if keep {
		if err := s.keep(ch); err != nil {
			return recorded{}, fmt.Errorf("recording a checkpoint: %w", err)
		}
		snap.ID = ch.String()
	}
	next := &statCache{scan: start, entries: sc.next}
	if err := next.save(s.dir); err != nil {
		return recorded{}, err
	}
	s.cache = next
	return recorded{snap: snap, commit: ch, tree: tree, flat: sc.next, hashed: len(sc.jobs)}, nil
}

// keep writes the ref that makes commit h a snapshot, atomically (the
// temporary file outside refs/), so that a reader listing snapshots without
// the lock never sees half a ref.
func (s *Store) keep(h plumbing.Hash) error {
	dir := filepath.Join(s.dir, filepath.FromSlash(refPrefix))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return writeFileVia(s.dir, filepath.Join(dir, h.String()), []byte(h.String()+"\n"))
}

// oneLine keeps a label to one line of plain text for the commit message.
func oneLine(label string) string {
	label = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, label)
	return strings.TrimSpace(label)
}

// resolve finds the snapshot id: it must be one of this store's snapshots
// (a ref), not just any object.
func (s *Store) resolve(st storer.Storer, id string) (*object.Commit, error) {
	if len(id) != 40 || strings.Trim(strings.ToLower(id), "0123456789abcdef") != "" {
		return nil, fmt.Errorf("%q is not a checkpoint id; use the 40-character id a snapshot returned", id)
	}
	id = strings.ToLower(id)
	ref, err := st.Reference(plumbing.ReferenceName(refPrefix + id))
	if err != nil {
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return nil, fmt.Errorf("checkpoint %s does not exist (it was pruned or forgotten); pick another one", id[:12])
		}
		return nil, fmt.Errorf("reading checkpoint %s: %w", id[:12], err)
	}
	c, err := object.GetCommit(st, ref.Hash())
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s is damaged (%v); pick another one", id[:12], err)
	}
	return c, nil
}

// snapshotOf reads a snapshot's details back from its commit.
func snapshotOf(c *object.Commit) Snapshot {
	snap := Snapshot{ID: c.Hash.String(), Time: c.Committer.When}
	label, rest, _ := strings.Cut(c.Message, "\n")
	snap.Label = label
	for line := range strings.SplitSeq(rest, "\n") {
		if js, ok := strings.CutPrefix(line, metaPrefix); ok {
			var m meta
			if json.Unmarshal([]byte(js), &m) == nil {
				snap.Time = time.Unix(0, m.Time)
				snap.Files = m.Files
				snap.Skipped = m.Skipped
			}
		}
	}
	return snap
}

// Get returns the snapshot id's details.
func (s *Store) Get(id string) (Snapshot, error) {
	s.rmu.Lock()
	defer s.rmu.Unlock()
	s.syncReader()
	c, err := s.resolve(s.rst, id)
	if err != nil {
		return Snapshot{}, err
	}
	return snapshotOf(c), nil
}

// List returns every snapshot in the store, oldest first.
func (s *Store) List() ([]Snapshot, error) {
	s.rmu.Lock()
	defer s.rmu.Unlock()
	s.syncReader()
	return listSnapshots(s.rst)
}

// listSnapshots reads every snapshot's commit, oldest first.
func listSnapshots(st storer.Storer) ([]Snapshot, error) {
	refs, err := st.IterReferences()
	if err != nil {
		return nil, fmt.Errorf("listing checkpoints: %w", err)
	}
	var out []Snapshot
	err = refs.ForEach(func(r *plumbing.Reference) error {
		if !strings.HasPrefix(r.Name().String(), refPrefix) || r.Type() != plumbing.HashReference {
			return nil
		}
		c, err := object.GetCommit(st, r.Hash())
		if err != nil {
			if _, rerr := st.Reference(r.Name()); errors.Is(rerr, plumbing.ErrReferenceNotFound) {
				return nil // pruned while we listed
			}
			return fmt.Errorf("checkpoint %s is damaged: %w", r.Hash().String()[:12], err)
		}
		out = append(out, snapshotOf(c))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing checkpoints: %w", err)
	}
	slices.SortFunc(out, func(a, b Snapshot) int {
		if c := a.Time.Compare(b.Time); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}
