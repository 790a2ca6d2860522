//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package session

import "os"

// blockingLock says that waiting processes poll for the lock here.
const blockingLock = false

// waitLock leaves locking to bbolt on systems without flock (on Windows
// bbolt's lock is a byte-range lock that cannot be taken twice through one
// handle); acquire then polls bbolt's single attempts instead.
func waitLock(*os.File, bool, *waiter) error { return nil }

// unlock does nothing here: bbolt's lock goes with the handle.
func unlock(*os.File) {}
