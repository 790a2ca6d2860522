package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Prune deletes snapshots not in keep that are older than maxAge or beyond
// the newest maxCount, and the objects only they used. A zero maxAge or
// maxCount does not limit. It returns how many snapshots were removed.
func (s *Store) Prune(keep []string, maxAge time.Duration, maxCount int) (int, error) {
	release, err := s.lock(context.Background())
	if err != nil {
		return 0, err
	}
	defer release()
	snaps, err := listSnapshots(s.st)
	if err != nil {
		return 0, err
	}
	kept := make(map[string]bool, len(keep))
	for _, k := range keep {
		kept[strings.ToLower(k)] = true
	}
	now := time.Now()
	removed := 0
	for i, sn := range snaps {
		newer := len(snaps) - 1 - i // snapshots newer than this one
		old := maxAge > 0 && now.Sub(sn.Time) > maxAge
		many := maxCount > 0 && newer >= maxCount
		if kept[sn.ID] || !(old || many) {
			continue
		}
		if err := s.st.RemoveReference(plumbing.ReferenceName(refPrefix + sn.ID)); err != nil {
			return removed, fmt.Errorf("pruning checkpoint %s: %w", sn.ID[:12], err)
		}
		removed++
	}
	if err := s.collect(); err != nil {
		return removed, err
	}
	return removed, nil
}

// Forget drops the given snapshots (a session was deleted) and reclaims the
// objects only they used. Ids that are already gone are no error.
func (s *Store) Forget(ids []string) error {
	release, err := s.lock(context.Background())
	if err != nil {
		return err
	}
	defer release()
	for _, id := range ids {
		if len(id) != 40 || strings.Trim(strings.ToLower(id), "0123456789abcdef") != "" {
			return fmt.Errorf("%q is not a checkpoint id; pass ids that Snapshot returned", id)
		}
	}
	for _, id := range ids {
		id = strings.ToLower(id)
		if err := s.st.RemoveReference(plumbing.ReferenceName(refPrefix + id)); err != nil {
			return fmt.Errorf("forgetting checkpoint %s: %w", id[:12], err)
		}
	}
	return s.collect()
}

// collect deletes every loose object no snapshot reaches (git's gc, for a
// store that never packs), drops stat cache entries that named them, and
// clears temporary files a crash left behind. The caller holds the lock.
func (s *Store) collect() error {
	refs, err := s.st.IterReferences()
	if err != nil {
		return fmt.Errorf("collecting unused checkpoint data: %w", err)
	}
	live := map[plumbing.Hash]bool{}
	var walkTree func(h plumbing.Hash) error
	walkTree = func(h plumbing.Hash) error {
		if live[h] {
			return nil
		}
		live[h] = true
		t, err := object.GetTree(s.st, h)
		if err != nil {
			return err
		}
		for _, e := range t.Entries {
			switch {
			case e.Mode == filemode.Dir:
				if err := walkTree(e.Hash); err != nil {
					return err
				}
			case e.Mode != filemode.Submodule:
				live[e.Hash] = true
			}
		}
		return nil
	}
	err = refs.ForEach(func(r *plumbing.Reference) error {
		if r.Type() != plumbing.HashReference {
			return nil
		}
		c, err := object.GetCommit(s.st, r.Hash())
		if err != nil {
			return fmt.Errorf("checkpoint %s: %w", r.Hash().String()[:12], err)
		}
		live[c.Hash] = true
		return walkTree(c.TreeHash)
	})
	if err != nil {
		// Deleting with a partial view of what is live could destroy data.
		return fmt.Errorf("collecting unused checkpoint data stopped (%v); nothing was deleted", err)
	}
	deleted, err := s.collectPacks(live)
	if err != nil {
		return fmt.Errorf("collecting unused checkpoint data: %w", err)
	}
	var dead []plumbing.Hash
	if err := s.st.ForEachObjectHash(func(h plumbing.Hash) error {
		if !live[h] {
			dead = append(dead, h)
		}
		return nil
	}); err != nil {
		return fmt.Errorf("collecting unused checkpoint data: %w", err)
	}
	var errs []error
	for _, h := range dead {
		if err := s.st.DeleteLooseObject(h); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		deleted[h] = true
	}
	s.clearTemp()
	if len(deleted) > 0 {
		c := loadCache(s.dir, s.cache)
		for p, e := range c.entries {
			if deleted[e.hash] {
				delete(c.entries, p)
			}
		}
		if err := c.save(s.dir); err != nil {
			errs = append(errs, err)
		}
		s.cache = c
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("collecting unused checkpoint data: %w", err)
	}
	return nil
}

// maxPacks is how many packs the store may hold before Prune merges them:
// a read looks through every pack's index.
const maxPacks = 16

// collectPacks drops the packs no snapshot uses and rewrites those that
// hold some unused objects (all of them, when there are more than maxPacks)
// into one new pack with only the live ones. It returns the objects it
// dropped.
func (s *Store) collectPacks(live map[plumbing.Hash]bool) (map[plumbing.Hash]bool, error) {
	deleted := map[plumbing.Hash]bool{}
	var drop []string
	var keep []plumbing.Hash
	all := packs(s.dir)
	merge := len(all) > maxPacks // too many packs slow every read: make one
	for _, name := range all {
		hs, err := packHashes(s.dir, name)
		if err != nil {
			return nil, err
		}
		var liveHs, deadHs []plumbing.Hash
		for _, h := range hs {
			if live[h] {
				liveHs = append(liveHs, h)
			} else {
				deadHs = append(deadHs, h)
			}
		}
		if len(deadHs) == 0 && !merge {
			continue
		}
		drop = append(drop, name)
		keep = append(keep, liveHs...)
		for _, h := range deadHs {
			deleted[h] = true
		}
	}
	if len(drop) == 0 {
		return deleted, nil
	}
	if _, err := s.packedObjects(); err != nil {
		return nil, err
	}
	if len(keep) > 0 {
		pw, err := newPackWriter(s.dir)
		if err != nil {
			return nil, err
		}
		w := &objectWriter{}
		var data bytes.Buffer
		for _, h := range keep {
			obj, err := s.st.EncodedObject(plumbing.AnyObject, h)
			if err != nil {
				pw.abort()
				return nil, fmt.Errorf("repacking %s: %w", h.String()[:12], err)
			}
			r, err := obj.Reader()
			if err != nil {
				pw.abort()
				return nil, fmt.Errorf("repacking %s: %w", h.String()[:12], err)
			}
			data.Reset()
			_, err = data.ReadFrom(r)
			r.Close()
			if err != nil {
				pw.abort()
				return nil, fmt.Errorf("repacking %s: %w", h.String()[:12], err)
			}
			w.zbuf.Reset()
			w.deflate(&w.zbuf, data.Bytes())
			if err := pw.add(h, obj.Type(), int64(data.Len()), w.zbuf.Bytes()); err != nil {
				pw.abort()
				return nil, err
			}
		}
		if err := pw.finish(); err != nil {
			return nil, err
		}
	}
	// The live objects are safe in the new pack: the old ones can go.
	var errs []error
	for _, name := range drop {
		base := filepath.Join(s.dir, "objects", "pack", name)
		errs = append(errs, ignoreMissing(os.Remove(base+".pack")), ignoreMissing(os.Remove(base+".idx")))
	}
	if _, err := s.packedObjects(); err != nil {
		errs = append(errs, err)
	}
	return deleted, errors.Join(errs...)
}

// ignoreMissing is err unless it says the file was already gone.
func ignoreMissing(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// clearTemp removes temporary object files older than an hour: a writer
// that crashed left them, and none in progress is that old (the lock is held).
func (s *Store) clearTemp() {
	matches, _ := filepath.Glob(filepath.Join(s.dir, "objects", "*", "tmp_obj_*"))
	for _, pattern := range []string{".tmp-*", "objects/pack/tmp_pack_*", "objects/pack/tmp_idx_*"} {
		more, _ := filepath.Glob(filepath.Join(s.dir, filepath.FromSlash(pattern)))
		matches = append(matches, more...)
	}
	for _, m := range matches {
		if info, err := os.Lstat(m); err == nil && time.Since(info.ModTime()) > time.Hour {
			os.Remove(m)
		}
	}
}
