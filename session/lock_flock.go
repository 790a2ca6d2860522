//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package session

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// blockingLock says that waiting processes queue in the kernel and are woken
// in turn, rather than polling.
const blockingLock = true

// waitLock takes the same flock that bbolt takes (bbolt then finds it
// already held and goes on). It blocks in the kernel rather than polling, so
// a waiting process is woken the moment the lock is released and gets its
// turn even while another process writes in a tight loop.
func waitLock(f *os.File, exclusive bool, w *waiter) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	fd := int(f.Fd())
	err := syscall.Flock(fd, how|syscall.LOCK_NB)
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- flockRetryingEINTR(fd, how) }()
	timer := time.NewTimer(w.untilNext())
	defer timer.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-timer.C:
			if err := w.check(); err != nil {
				// The blocked flock cannot be cancelled: close the file
				// (which drops the lock) once it returns.
				go func() {
					<-done
					f.Close()
				}()
				return err
			}
			timer.Reset(w.untilNext())
		}
	}
}

// flockRetryingEINTR is a blocking flock that survives signals arriving
// while it waits.
func flockRetryingEINTR(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// unlock drops the file lock held through f. Closing f alone is not enough
// while bbolt's memory map of the file is still in place: the map keeps the
// open file, and with it the lock, alive.
func unlock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
