package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// lockWait is how long an operation waits for another process to finish
// with the store before giving up with an error.
const lockWait = 3 * time.Second

// errBusy is what tryLock returns when another holder has the lock.
var errBusy = errors.New("lock held")

// lock takes the store within the process and then its lock file, giving
// up when ctx ends. The returned function releases both.
func (s *Store) lock(ctx context.Context) (func(), error) {
	select {
	case s.mu <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for checkpoint store %s: %w", s.dir, ctx.Err())
	}
	release, err := lockDir(ctx, s.dir, s.lockWait)
	if err != nil {
		<-s.mu
		return nil, err
	}
	return func() {
		release()
		<-s.mu
	}, nil
}

// lockDir takes the lock file in dir, waiting up to wait for another
// process to let go of it. The returned function releases it.
func lockDir(ctx context.Context, dir string, wait time.Duration) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open the lock of checkpoint store %s: %w", dir, err)
	}
	deadline := time.Now().Add(wait)
	for {
		err := tryLock(f)
		if err == nil {
			break
		}
		if !errors.Is(err, errBusy) {
			f.Close()
			return nil, fmt.Errorf("cannot lock checkpoint store %s: %w", dir, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("checkpoint store %s is in use by another pincer process; wait for it to finish, then try again", dir)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for checkpoint store %s: %w", dir, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return func() {
		unlock(f)
		f.Close()
	}, nil
}
