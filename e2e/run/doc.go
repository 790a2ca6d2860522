// Package run holds the end-to-end tests of pincer run and the other
// one-shot commands: the built binary against a fake model server, its JSON
// and text output, exit codes, web reads, configuration and the secrets it
// must not leak.
//
// The tests build pincer once (e2etest.Main) and are skipped by go test -short.
package run
