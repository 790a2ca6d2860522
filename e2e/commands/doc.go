// Package commands holds the end-to-end tests of the commands pincer runs:
// the model's commands in their jail (what they can write, read and reach),
// pincer sandbox, the person's hooks, and hostile projects, through the
// built binary.
//
// The tests build pincer once (e2etest.Main) and are skipped by go test -short.
package commands
