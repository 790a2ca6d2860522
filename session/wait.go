package session

import (
	"fmt"
	"time"
)

// waiter keeps the clock of one operation's wait for the file lock: it says
// once that it is waiting and decides when to give up.
type waiter struct {
	path    string
	limit   time.Duration
	onWait  func(string)
	start   time.Time
	noticed bool
}

func (s *Store) newWaiter() *waiter {
	return &waiter{path: s.path, limit: s.lockWait, onWait: s.onWait, start: time.Now()}
}

// check returns an ErrLocked error once the wait has passed the limit, and
// calls onWait the first time it passes waitNotice.
func (w *waiter) check() error {
	waited := time.Since(w.start)
	if waited >= w.limit {
		return newError(ErrLocked, nil,
			"another pincer process has kept %s locked for %s; close it or try again later",
			w.path, waited.Round(time.Second))
	}
	if !w.noticed && waited >= waitNotice && w.onWait != nil {
		w.noticed = true
		w.onWait(fmt.Sprintf(noticeMessage, w.path))
	}
	return nil
}

// untilNext is how long until check has something new to do.
func (w *waiter) untilNext() time.Duration {
	waited := time.Since(w.start)
	next := w.limit - waited
	if !w.noticed && w.onWait != nil && waitNotice-waited < next {
		next = waitNotice - waited
	}
	return max(next, time.Millisecond)
}
