package session

import (
	"errors"
	"fmt"
)

// Sentinel errors. The store wraps them with the session, name or path
// concerned, so test for them with errors.Is.
var (
	// ErrNotFound means no session matches the name, id or id prefix given.
	ErrNotFound = errors.New("session not found")
	// ErrNameTaken means another session already has the requested name.
	ErrNameTaken = errors.New("session name already taken")
	// ErrInvalidName means a requested session name breaks the naming rules.
	ErrInvalidName = errors.New("invalid session name")
	// ErrAmbiguous means an id prefix matches more than one session or
	// scheduled task.
	ErrAmbiguous = errors.New("ambiguous id prefix")
	// ErrLocked means another process held the store's file for longer than
	// Options.LockWait.
	ErrLocked = errors.New("session store is locked by another process")
	// ErrDamaged means the store's file is not a readable pincer store. The
	// file is left as it is.
	ErrDamaged = errors.New("session store is damaged")
	// ErrDamagedRecord means one session's record in the file cannot be
	// decoded; the rest of the store is readable.
	ErrDamagedRecord = errors.New("session record is damaged")
	// ErrSchemaTooNew means the file was written by a newer pincer whose
	// layout this build does not know. The file is left as it is.
	ErrSchemaTooNew = errors.New("session store was written by a newer pincer")
	// ErrUnwritable means the data directory or the file cannot be created or
	// written.
	ErrUnwritable = errors.New("session store is not writable")
	// ErrNotPrivate means the store's file is a symbolic link, may be
	// written by other users, or belongs to another user: pincer refuses it
	// rather than keep the person's conversations where others can read or
	// change them.
	ErrNotPrivate = errors.New("session store is not private")
	// ErrReadOnly means a write was asked of a store opened with
	// Options.ReadOnly.
	ErrReadOnly = errors.New("session store is open only for reading")
	// ErrEmptyQuery means a search query has no word to look for: it is
	// empty, punctuation, or only words too common to be indexed.
	ErrEmptyQuery = errors.New("search query has no words to look for")
	// ErrTaskNotFound means no scheduled task has the id or id prefix given.
	ErrTaskNotFound = errors.New("scheduled task not found")
	// ErrInvalidTask means a task to schedule lacks a prompt or a time, or
	// repeats too often.
	ErrInvalidTask = errors.New("invalid scheduled task")
)

// storeError is an error whose text is one sentence meant for people, while
// errors.Is still finds the sentinel that classifies it and the cause
// underneath.
type storeError struct {
	msg   string
	kind  error
	cause error
	// subject is the id of the session a damaged record belongs to.
	subject string
}

func (e *storeError) Error() string { return e.msg }

func (e *storeError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

// newError builds a storeError of the given kind; cause may be nil.
func newError(kind, cause error, format string, args ...any) error {
	return &storeError{msg: fmt.Sprintf(format, args...), kind: kind, cause: cause}
}
