// Package tui holds the end-to-end tests of the full screen: the built
// pincer driven in tmux (and in a pseudo-terminal for the screen
// benchmarks), with custom commands, plan mode, the task list and sanitised
// dialogs seen as a person sees them.
//
// The tests build pincer once (e2etest.Main) and are skipped by go test -short.
package tui
