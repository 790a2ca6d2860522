package tools

import (
	"crypto/sha256"
	"sync"
)

// ReadLog remembers what the model last saw of each file: the content it
// read, or the content its own edit wrote. An edit planned on a file that
// has changed on disk since then says so, so the person reviewing it knows
// the model worked from an old copy. It is safe for concurrent use.
type ReadLog struct {
	mu   sync.Mutex
	seen map[string][sha256.Size]byte
}

// NewReadLog returns an empty log.
func NewReadLog() *ReadLog { return &ReadLog{seen: map[string][sha256.Size]byte{}} }

// Saw records that the model has seen content as the file at path.
func (l *ReadLog) Saw(path string, content []byte) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.seen[path] = sha256.Sum256(content)
	l.mu.Unlock()
}

// ChangedSince reports whether the model saw the file at path with other
// content than content. A file the model never saw has not changed.
func (l *ReadLog) ChangedSince(path string, content []byte) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	sum, ok := l.seen[path]
	l.mu.Unlock()
	return ok && sum != sha256.Sum256(content)
}
