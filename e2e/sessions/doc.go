// Package sessions holds the end-to-end tests of what outlives one run:
// named sessions and their store (damaged, read-only, shared by two
// processes), rewind, scheduled tasks and sub-agents, through the built
// binary.
//
// The tests build pincer once (e2etest.Main) and are skipped by go test -short.
package sessions
