// Package memory holds the end-to-end tests of what the model keeps in
// mind across a long session and between sessions: compression of a long
// session, the context window's limit, the notes it is told to remember
// and what it recalls from earlier sessions, through the built binary.
//
// The tests build pincer once (e2etest.Main) and are skipped by go test -short.
package memory
