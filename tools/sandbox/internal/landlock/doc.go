// Package landlock restricts the calling thread with Linux Landlock: it
// probes the kernel's ABI, lowers what a ruleset handles to what that ABI
// knows, adds "path beneath" rules and enforces the ruleset on the
// calling thread only.
//
// It exists so the sandbox needs no cgo. General-purpose Landlock
// libraries can also restrict every thread of a process, which on older
// kernels takes a C library; linked in, that made every binary importing
// the sandbox (pincer and a third of its test binaries) link through gcc.
// The sandbox never restricts more than its helper's one thread, which
// plain system calls do.
//
// It is Linux only; elsewhere the package is empty.
package landlock
