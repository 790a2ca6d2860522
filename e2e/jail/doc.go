// Package jail holds the end-to-end tests of the sandbox commands run in:
// what a jailed command can write, read and reach, pincer sandbox, and
// hostile projects, through the built binary.
//
// The tests build pincer once (e2etest.Main) and are skipped by go test -short.
package jail
