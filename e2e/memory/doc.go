// Package memory holds the end-to-end tests of what pincer recalls from
// earlier sessions and the notes it is told to remember, through the built
// binary.
//
// The tests build pincer once (e2etest.Main) and are skipped by go test -short.
package memory
