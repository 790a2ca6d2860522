// Package checkpoint records snapshots of a project's working tree in a
// shadow git repository kept outside the project, and brings the tree back
// to any of them. It never writes the project's own .git and reads nothing
// of it but .git/info/exclude: the snapshots live in a bare repository in a
// directory the caller chooses (under pincer's data dir), written in git's
// object format with go-git, so that unchanged files cost nothing and no git
// binary is needed.
package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// DefaultMaxFileSize is the size above which a file is not recorded when
// Options.MaxFileSize is 0: large files are usually build output or data
// that would bloat the store.
const DefaultMaxFileSize int64 = 5 << 20

// Names of pincer's own files in the store directory, beside the bare
// repository's HEAD, config, objects and refs.
const (
	stampName = "pincer-checkpoints.json"
	lockName  = "pincer-checkpoints.lock"
	cacheName = "pincer-stat-cache"
)

// Options tune a Store.
type Options struct {
	MaxFileSize int64 // files larger than this are not recorded (0 means 5 MiB)
}

// Store is the shadow repository of one project. Its methods are safe for
// concurrent use: writes are serialised by a mutex within the process and
// by a lock file between processes.
type Store struct {
	dir     string // the bare repository
	root    string // the project's root, absolute and link-resolved
	maxSize int64

	mu chan struct{} // holds one token while Snapshot, Restore, Prune or Forget runs (a mutex a waiter can give up on)
	st *filesystem.Storage

	rmu sync.Mutex // serialises reads through rst (Changes, Blob)
	rst *filesystem.Storage

	cache *statCache // the stat cache as last loaded or saved; guarded by mu

	lockWait time.Duration // how long to wait for another process's lock

	packed    map[plumbing.Hash]bool // objects in packs, as of packNames; guarded by mu
	packNames []string
	rpacks    []string // the packs rst has indexed; guarded by rmu
}

// stamp is what pincer writes beside the repository so that Open can tell
// its own store from a stranger's directory, and one project's from another's.
type stamp struct {
	Version int    `json:"version"`
	Root    string `json:"root"`
}

// Key returns a stable directory name for a project root: the hex of the
// SHA-256 of its cleaned absolute, link-resolved path, shortened. Callers
// build the store's dir from it so that every session in one project shares
// one store.
func Key(root string) string {
	sum := sha256.Sum256([]byte(canonicalRoot(root)))
	return hex.EncodeToString(sum[:10])
}

// canonicalRoot is root made absolute, cleaned and link-resolved when it
// exists, so that two spellings of one directory name one store.
func canonicalRoot(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = filepath.Clean(root)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// Open opens (creating when missing) the shadow repository in dir for the
// project at root. dir is made private (0700): it holds copies of the
// project's files.
func Open(dir, root string, opts Options) (*Store, error) {
	if dir == "" {
		return nil, errors.New("checkpoint store directory is empty; pass the data directory's checkpoints folder")
	}
	realRoot := canonicalRoot(root)
	info, err := os.Stat(realRoot)
	if err != nil {
		return nil, fmt.Errorf("cannot open project %s for checkpoints: %w", root, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("project root %s is not a directory; start pincer in the project's directory", root)
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("checkpoint store %s: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create checkpoint store %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot make checkpoint store %s private: %w", dir, err)
	}
	release, err := lockDir(context.Background(), dir, lockWait)
	if err != nil {
		return nil, err
	}
	err = prepare(dir, realRoot) // under the lock: two pincers may create it at once
	release()
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, root: realRoot, maxSize: opts.MaxFileSize, lockWait: lockWait, mu: make(chan struct{}, 1)}
	if s.maxSize <= 0 {
		s.maxSize = DefaultMaxFileSize
	}
	s.st = filesystem.NewStorage(osfs.New(dir), cache.NewObjectLRU(16*cache.MiByte))
	s.rst = filesystem.NewStorage(osfs.New(dir), cache.NewObjectLRU(8*cache.MiByte))
	if _, err := s.st.Reference(plumbing.HEAD); err != nil {
		return nil, damaged(dir, err)
	}
	if _, err := s.st.Config(); err != nil {
		return nil, damaged(dir, err)
	}
	return s, nil
}

// prepare makes dir a bare repository stamped with root, or checks that it
// already is one for this root.
func prepare(dir, root string) error {
	data, err := os.ReadFile(filepath.Join(dir, stampName))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		entries, rerr := os.ReadDir(dir)
		if rerr != nil {
			return fmt.Errorf("cannot read checkpoint store %s: %w", dir, rerr)
		}
		for _, e := range entries {
			if e.Name() != lockName {
				return fmt.Errorf("%s is not a pincer checkpoint store (it holds other files); move it aside or choose another directory", dir)
			}
		}
		// The stamp first: a creation cut short leaves a store that the
		// next Open finishes (below) rather than a stranger's directory.
		out, _ := json.Marshal(stamp{Version: 1, Root: root})
		if err := writeFileAtomic(filepath.Join(dir, stampName), out); err != nil {
			return fmt.Errorf("cannot create checkpoint store %s: %w", dir, err)
		}
		if err := initBare(dir); err != nil {
			return fmt.Errorf("cannot create checkpoint store %s: %w", dir, err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("cannot read checkpoint store %s: %w", dir, err)
	}
	var st stamp
	if err := json.Unmarshal(data, &st); err != nil || st.Version != 1 || st.Root == "" {
		return damaged(dir, fmt.Errorf("unreadable %s", stampName))
	}
	if st.Root != root {
		return fmt.Errorf("checkpoint store %s belongs to project %s, not %s; use checkpoint.Key to choose the directory", dir, st.Root, root)
	}
	if !hasSnapshots(dir) {
		// Nothing to lose: (re)lay out the repository, finishing a
		// creation that was cut short.
		if err := initBare(dir); err != nil {
			return damaged(dir, err)
		}
		return nil
	}
	for _, name := range []string{"HEAD", "config", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return damaged(dir, err)
		}
	}
	return nil
}

// hasSnapshots reports whether dir holds any snapshot ref (or cannot tell).
func hasSnapshots(dir string) bool {
	entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(refPrefix)))
	return len(entries) > 0 || err != nil && !errors.Is(err, fs.ErrNotExist)
}

// initBare lays out an empty bare repository in dir: objects/, refs/,
// HEAD and a config saying it is bare. (go-git's own init would link its
// network transports into pincer for nothing.)
func initBare(dir string) error {
	st := filesystem.NewStorage(osfs.New(dir), cache.NewObjectLRU(cache.MiByte))
	defer st.Close()
	if err := st.Init(); err != nil {
		return err
	}
	if err := st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.Master)); err != nil {
		return err
	}
	cfg := config.NewConfig()
	cfg.Core.IsBare = true
	return st.SetConfig(cfg)
}

// damaged is the error for a store that cannot be read: one sentence with
// the fix.
func damaged(dir string, err error) error {
	return fmt.Errorf("checkpoint store %s is damaged (%v); move it aside or delete it and pincer will start a new one", dir, err)
}

// Close releases the store. The repository on disk stays.
func (s *Store) Close() error {
	s.mu <- struct{}{}
	defer func() { <-s.mu }()
	s.rmu.Lock()
	defer s.rmu.Unlock()
	return errors.Join(s.st.Close(), s.rst.Close())
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Root is the project root the store records, absolute and link-resolved.
func (s *Store) Root() string { return s.root }

// writeFileAtomic replaces name with data via a temporary file and a rename,
// so a reader never sees half a file.
func writeFileAtomic(name string, data []byte) error {
	return writeFileVia(filepath.Dir(name), name, data)
}

// writeFileVia is writeFileAtomic with the temporary file in tmpDir (on the
// same file system), for directories whose every file is read as data.
func writeFileVia(tmpDir, name string, data []byte) error {
	f, err := os.CreateTemp(tmpDir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), name); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
