package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// defaultLockWait is how long an operation waits for another process to
// release the file before it gives up.
const defaultLockWait = 30 * time.Second

// Options tunes a Store. The zero value is ready to use.
type Options struct {
	// LockWait is how long one operation waits for another pincer process to
	// release the file before it fails with ErrLocked; 0 means 30 seconds.
	LockWait time.Duration
	// OnWait, when set, is called once per operation whose wait for the file
	// passes about two seconds, with one sentence a person can read. It runs
	// on the waiting goroutine and should return quickly.
	OnWait func(message string)
	// Now is the clock used for ids and timestamps; nil means time.Now.
	Now func() time.Time
	// ReadOnly opens an existing store only for reading, for commands that
	// list or show sessions: it needs no write access to the file or its
	// directory, never migrates, and every write fails with ErrReadOnly.
	// When there is no store yet, Open creates it as usual.
	ReadOnly bool
	// NoSync skips the flush to disk after each write. It exists for
	// tests, whose every write would otherwise wait for the disk and which
	// throw the file away: a crash of the machine can lose the last writes
	// or damage the file, so pincer itself never sets it.
	NoSync bool
}

// Store is pincer's session store: one bbolt file shared by every pincer
// process of the user. It does not keep the file open between operations,
// so it needs no Close and several processes can use the same file. A Store
// is safe for concurrent use by several goroutines.
type Store struct {
	path     string
	lockWait time.Duration
	onWait   func(string)
	now      func() time.Time

	// readOnly is set when the store was opened with Options.ReadOnly.
	readOnly bool
	// noSync is Options.NoSync.
	noSync bool
	// broken holds the error that first found the file damaged; once set,
	// the file is never opened for writing again.
	broken atomic.Pointer[error]

	// mu keeps this process's own operations from queueing on the file lock
	// behind each other: readers share it, writers take it alone.
	mu sync.RWMutex
}

// Open prepares the store at path: it creates the directory (mode 0700) and
// the file (mode 0600) if they are missing, checks that an existing file is a
// readable pincer store of a schema this build knows, and migrates it to the
// current schema. A damaged or foreign file is reported with ErrDamaged and
// left untouched; a directory or file that cannot be written is reported with
// ErrUnwritable; a file that is a symbolic link, that other users may write,
// or that belongs to another user is refused with ErrNotPrivate.
func Open(path string, o Options) (*Store, error) {
	return open(path, o, migrations)
}

// open is Open with the migration list as a parameter, so tests can
// exercise the migration machinery with steps of their own.
func open(path string, o Options, steps []migration) (*Store, error) {
	if path == "" {
		return nil, newError(ErrUnwritable, nil,
			"no place for the session store: set PINCER_DATA_DIR to a directory pincer may write")
	}
	s := &Store{path: path, lockWait: o.LockWait, onWait: o.OnWait, now: o.Now, noSync: o.NoSync}
	if s.lockWait <= 0 {
		s.lockWait = defaultLockWait
	}
	if s.now == nil {
		s.now = time.Now
	}

	dir := filepath.Dir(path)
	version := uint64(0)
	info, err := os.Lstat(path)
	s.readOnly = o.ReadOnly && err == nil && info.Mode().IsRegular() && info.Size() > 0
	if !s.readOnly {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, newError(ErrUnwritable, err,
				"cannot create the data directory %s (%v); make it writable or set PINCER_DATA_DIR to another directory",
				dir, unwrapPath(err))
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A new store: the migration below creates it.
	case err != nil:
		return nil, newError(ErrUnwritable, err,
			"cannot read the session store %s (%v); fix its permissions or set PINCER_DATA_DIR to another directory",
			path, unwrapPath(err))
	case info.Mode()&fs.ModeSymlink != 0:
		return nil, symlinkError(path)
	case info.IsDir():
		return nil, newError(ErrDamaged, nil,
			"the session store %s is a directory, not a file; move it aside or set PINCER_DATA_DIR to another directory", path)
	case info.Size() > 0:
		if err := checkPrivate(path, info); err != nil {
			return nil, err
		}
		if !s.readOnly {
			if err := checkWritable(path); err != nil {
				return nil, err
			}
		}
		// Look before writing: a damaged file must never be opened for
		// writing, and a newer schema must not be touched.
		err := s.view(func(tx *bolt.Tx) error {
			var err error
			if version, err = inspect(tx, path, len(steps)); err != nil || s.readOnly {
				return err
			}
			// Under the same shared lock, so no writer is half-way.
			return checkPages(tx, path)
		})
		if err != nil {
			return nil, err
		}
	}
	if s.readOnly {
		if version == 0 {
			// Nothing stored yet (a first Open that crashed): nothing to
			// read, and nothing to migrate without writing.
			return nil, newError(ErrReadOnly, nil,
				"the session store %s has not been set up yet; run pincer once with write access to it", path)
		}
		return s, nil
	}
	if version < uint64(len(steps)) {
		if err := s.update(func(tx *bolt.Tx) error { return migrate(tx, path, steps) }); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkWritable makes sure the file can be opened for writing, so that an
// unwritable store is reported by Open rather than by the first Append.
func checkWritable(path string) error {
	f, err := openPrivate(path, os.O_RDWR, 0)
	var se *storeError
	if errors.As(err, &se) {
		return err
	}
	if err != nil {
		return newError(ErrUnwritable, err,
			"cannot open the session store %s for writing (%v); make it writable or set PINCER_DATA_DIR to another directory",
			path, unwrapPath(err))
	}
	return f.Close()
}

// Path returns the file the store lives in, so callers can show it.
func (s *Store) Path() string { return s.path }

// unwrapPath drops the operation and path from an *fs.PathError, because the
// messages built around it already name the path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// symlinkError refuses a store file that is a symbolic link: pincer would
// write the person's conversations wherever the link points.
func symlinkError(path string) error {
	return newError(ErrNotPrivate, nil,
		"the session store %s is a symbolic link, which pincer does not follow; replace it with the file it points to, or set PINCER_DATA_DIR to that file's directory",
		path)
}

// checkPages runs verifyPages on the pages the transaction's meta page
// counts (inspect made sure the file holds them), from a map of its own
// rather than bbolt's.
func checkPages(tx *bolt.Tx, path string) error {
	f, err := openPrivate(path, os.O_RDONLY, 0)
	if err != nil {
		return fmt.Errorf("read session store %s: %w", path, err)
	}
	defer f.Close()
	data, release, err := mapFile(f, tx.Size())
	if err != nil {
		return fmt.Errorf("read session store %s: %w", path, err)
	}
	defer release()
	if err := verifyPages(data, tx.DB().Info().PageSize); err != nil {
		return damaged(path, err)
	}
	return nil
}
