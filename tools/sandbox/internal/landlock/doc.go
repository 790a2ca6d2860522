// Package landlock restricts the calling thread with Linux Landlock: it
// probes the kernel's ABI, lowers what a ruleset handles to what that ABI
// knows, adds "path beneath" rules and enforces the ruleset on the
// calling thread only.
//
// It exists so the sandbox needs no cgo. The general-purpose Landlock
// library it replaces can also restrict every thread of a process, and
// for that it linked a C library, which made every binary importing the
// sandbox (pincer and a third of its test binaries) link through gcc.
// The sandbox never restricts more than its helper's one thread, which
// plain system calls do.
//
// It is Linux only; elsewhere the package is empty.
package landlock
