package session

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Waiting for the file lock. bbolt retries a busy lock every 50 ms; any
// timeout below that makes it try exactly once, and the loop in acquire
// decides how long and how often to retry instead.
const (
	lockAttempt   = time.Nanosecond
	waitNotice    = 2 * time.Second
	firstRetry    = 500 * time.Microsecond
	longestRetry  = 8 * time.Millisecond
	noticeMessage = "waiting for another pincer process to release %s"
)

// fileMode keeps the store private to its owner: sessions hold whatever the
// person pasted and the tools printed.
const fileMode = 0o600

// view runs fn in a read-only transaction, sharing the file with other
// readers.
func (s *Store) view(fn func(*bolt.Tx) error) error { return s.run(false, fn) }

// update runs fn in one read-write transaction, committed and fsynced before
// it returns.
func (s *Store) update(fn func(*bolt.Tx) error) error { return s.run(true, fn) }

// run opens the file, runs fn in one transaction and closes the file, so the
// lock is held only for the length of the transaction.
func (s *Store) run(write bool, fn func(*bolt.Tx) error) (err error) {
	if write {
		if err := s.writable(); err != nil {
			return err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
	} else {
		s.mu.RLock()
		defer s.mu.RUnlock()
	}

	// bbolt reads the file through a memory map, and a damaged file can make
	// it fault or panic. Turn both into an error instead of a crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var file *os.File // the descriptor bbolt uses, set when it opens the file
	var db *bolt.DB
	defer func() {
		r := recover()
		switch {
		case r != nil:
			// A panic inside a transaction can leave bbolt's own locks
			// held, so Close could block forever: drop the descriptor (and
			// with it the file lock) instead.
			if file != nil {
				unlock(file)
				_ = file.Close()
			}
			err = damaged(s.path, fmt.Errorf("%v", r))
		case db != nil:
			if cerr := db.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("close session store %s: %w", s.path, cerr)
			}
		}
		if errors.Is(err, ErrDamaged) {
			// Whatever found the damage, the file is never written again
			// by this store.
			s.broken.CompareAndSwap(nil, &err)
		}
	}()

	db, err = s.acquire(write, &file)
	if err != nil {
		return err
	}
	// Errors from fn already say what failed; errors of bbolt's own (a
	// failed commit, say) get the path.
	var fnErr error
	body := func(tx *bolt.Tx) error { fnErr = fn(tx); return fnErr }
	if write {
		err = db.Update(body)
	} else {
		err = db.View(body)
	}
	if err != nil && err != fnErr {
		err = fmt.Errorf("session store %s: %w", s.path, err)
	}
	return err
}

// writable refuses a write to a store opened read-only or found damaged.
func (s *Store) writable() error {
	if e := s.broken.Load(); e != nil {
		return *e
	}
	if s.readOnly {
		return newError(ErrReadOnly, nil,
			"the session store %s was opened only for reading; this is a bug in pincer, please report it", s.path)
	}
	return nil
}

// acquire opens the file, waiting while another process holds the lock. It
// sets *file to the descriptor it opened, so that run can drop it when a
// transaction panics.
func (s *Store) acquire(write bool, file **os.File) (*bolt.DB, error) {
	w := s.newWaiter()
	opts := &bolt.Options{
		Timeout:    lockAttempt,
		ReadOnly:   !write,
		NoSync:     s.noSync,
		NoGrowSync: s.noSync,
		OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
			f, err := openPrivate(name, flag, perm)
			if err != nil {
				return nil, err
			}
			*file = f
			if err := waitLock(f, write, w); err != nil {
				var se *storeError
				if !errors.As(err, &se) {
					f.Close()
					err = newError(ErrUnwritable, err,
						"cannot lock the session store %s (%v); keep it on a local disk or set PINCER_DATA_DIR to another directory",
						name, err)
				}
				return nil, err
			}
			return f, nil
		},
	}
	delay := firstRetry
	for {
		db, err := bolt.Open(s.path, fileMode, opts)
		if err == nil {
			return db, nil
		}
		if !errors.Is(err, berrors.ErrTimeout) {
			return nil, s.openError(err, write)
		}
		// Only where waitLock cannot block (Windows) does bbolt's single
		// attempt fail; poll, with jitter so two waiters do not retry in step.
		if err := w.check(); err != nil {
			return nil, err
		}
		time.Sleep(delay/2 + rand.N(delay/2+1))
		delay = min(2*delay, longestRetry)
	}
}

// openError explains why bbolt could not open the file.
func (s *Store) openError(err error, write bool) error {
	var pe *fs.PathError
	var se *storeError
	var errno syscall.Errno
	switch {
	case errors.As(err, &se):
		return err
	case errors.As(err, &pe) && write:
		return newError(ErrUnwritable, err,
			"cannot open the session store %s for writing (%v); make it writable or set PINCER_DATA_DIR to another directory",
			s.path, pe.Err)
	case errors.As(err, &pe):
		return newError(ErrUnwritable, err,
			"cannot read the session store %s (%v); fix its permissions or set PINCER_DATA_DIR to another directory",
			s.path, pe.Err)
	case errors.As(err, &errno):
		// The system refused something (memory for the map, say); the file
		// itself may be fine.
		return fmt.Errorf("cannot open the session store %s: %w", s.path, err)
	default:
		return damaged(s.path, err)
	}
}

// damaged reports a file that bbolt cannot read as a database.
func damaged(path string, cause error) error {
	return newError(ErrDamaged, cause,
		"the session store %s is damaged or is not a pincer store (%v); pincer leaves it untouched: move it aside to start a new one",
		path, cause)
}
