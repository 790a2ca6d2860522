package sandbox

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// denials are the phrases with which programs report a refused file or
// network operation (Landlock answers EACCES, EPERM or EXDEV; a pinned
// path's mount EROFS, or EBUSY to a rename).
func denials() []string {
	return []string{"permission denied", "operation not permitted", "read-only file system", "eacces", "eperm", "erofs", "invalid cross-device link", "device or resource busy"}
}

// missing are the phrases with which programs report a path that is not
// there: what a hidden home's files look like inside the jail.
func missing() []string {
	return []string{"no such file or directory", "directory nonexistent", "does not exist", "enoent"}
}

// offline are the phrases with which programs report that there is no
// network at all (the jail's own network namespace has only a loopback).
func offline() []string {
	return []string{"network is unreachable", "temporary failure in name resolution", "could not resolve host", "name or service not known", "no address associated with hostname", "enetunreach"}
}

// quoted and bare find path-like words in an error line. They are
// compiled on first use, not at start-up: the sandbox helper links this
// package and starts once per command, and never reads output.
var (
	quoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`['"‘“]([^'"’”\n]+)['"’”]`) })
	bare   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[\s(=])((?:~|\.{0,2})/[^\s'"’”:,;)]*)`) })
	// prog is the "program: " (and "line 3: ") a shell or tool puts first.
	prog = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\S+:\s+(?:line\s+)?(?:\d+:\s+)?`) })
)

// Blocked reads a failed command's output for what the sandbox refused:
// each line that reports a denial is searched for paths, and a path
// counts when the sandbox is what stands in the way — it lies outside
// spec's writable trees (or in a hidden one) and pincer itself, outside
// the sandbox, could write it (or read it, for a hidden one). A denied
// connect or bind counts when spec blocks the network. dir resolves
// relative paths. The result is one phrase per refusal, such as
// "write to /etc/x (outside the writable paths)"; empty when nothing in
// the output points at the sandbox.
//
// It reads what programs print, so a program that fails silently, or
// words its error in another way, is not recognised.
func Blocked(output string, spec Spec, dir string) []string {
	var out []string
	add := func(s string) {
		if !slices.Contains(out, s) && len(out) < 5 {
			out = append(out, s)
		}
	}
	has := func(low string, phrases []string) bool {
		return slices.ContainsFunc(phrases, func(d string) bool { return strings.Contains(low, d) })
	}
	for line := range strings.SplitSeq(output, "\n") {
		low := strings.ToLower(line)
		if !spec.Network && has(low, offline()) {
			add("a network connection (the network is off in the sandbox)")
			continue
		}
		if !spec.Network && strings.Contains(low, "connection refused") {
			add("a network connection (the network is off in the sandbox: 127.0.0.1 is the jail's own)")
			continue
		}
		denied := has(low, denials())
		if !denied && !(spec.HideHome && has(low, missing())) {
			continue
		}
		found := false
		for _, p := range pathsIn(line) {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			p = filepath.Clean(p)
			switch {
			case inHiddenHome(p, spec) && (denied || outsideHas(p, spec.Home)):
				add(hiddenAccess(low, p) + " (this jail hides your home but the project and the toolchains)")
				found = true
			case !denied:
			case inAny(p, spec.Hidden):
				add(hiddenAccess(low, p) + " (a protected path)")
				found = true
			case inAny(p, spec.Pinned) && couldWrite(p):
				add("a change to " + p + " (pincer's own, read-only)")
				found = true
			case !writableUnder(p, spec) && couldWrite(p):
				add("write to " + p + " (outside the writable paths)")
				found = true
			}
		}
		switch {
		case found, !denied:
		case spec.Unix != UnixListed && strings.Contains(low, "socket") && (strings.Contains(low, "unix") || strings.Contains(low, "af_unix")):
			add("a Unix socket (the jail allows none)")
		case !spec.Network && netWords(low):
			add("a network connection (the network is off in the sandbox)")
		}
	}
	return out
}

// What a refusal was, as the phrases Blocked returns begin: a read of a
// path the jail hides, or a change (a write, or a change to a pinned
// path). Other refusals (the network, a socket) begin otherwise.
const (
	refusedRead   = "a read of "
	refusedWrite  = "write to "
	refusedChange = "a change to "
)

// IsRead reports whether phrase, one of Blocked's, is a read the jail
// hid: the command saw nothing there, and nothing changed.
func IsRead(phrase string) bool { return strings.HasPrefix(phrase, refusedRead) }

// IsChange reports whether phrase, one of Blocked's, is a change the
// jail stopped.
func IsChange(phrase string) bool {
	return strings.HasPrefix(phrase, refusedWrite) || strings.HasPrefix(phrase, refusedChange)
}

// hiddenAccess words the refused access to p, a path the jail hides, by
// what the error line low says was done: a write when it names one
// (cannot create, touch, remove…), else a read.
func hiddenAccess(low, p string) string {
	if slices.ContainsFunc(writeWords(), func(w string) bool { return strings.Contains(low, w) }) {
		return refusedWrite + p + ", hidden by the sandbox"
	}
	return refusedRead + p + ", hidden by the sandbox"
}

// writeWords are how programs say, in an error, that they were writing.
func writeWords() []string {
	return []string{"cannot create", "cannot touch", "cannot make", "cannot remove", "cannot move", "cannot overwrite", "cannot link",
		"cannot write", "cannot rename", "for writing", "read-only file system", "erofs", "unable to create", "unable to write",
		"could not create", "could not write", "failed to create", "failed to write", "cannot change", "cannot set"}
}

// inHiddenHome reports whether p lies in a home directory the jail hid,
// outside what it kept of it (spec.HomeKeep holds all it kept, as a
// started Process's Spec says).
func inHiddenHome(p string, spec Spec) bool {
	return spec.HideHome && spec.Home != "" && within(p, spec.Home) && p != spec.Home &&
		!inAny(p, append(append(append([]string{spec.Root}, spec.Writable...), spec.Copies...), spec.HomeKeep...))
}

// outsideHas reports whether p, reported missing in the jail, is there
// outside it: p itself, or the directory it was to be made in (but home
// itself, where a missing file may just be missing).
func outsideHas(p, home string) bool {
	if _, err := os.Lstat(p); err == nil {
		return true
	}
	parent := filepath.Dir(p)
	if parent == home {
		return false
	}
	_, err := os.Stat(parent)
	return err == nil
}

// pathsIn returns the path-like words of a line: quoted ones, and bare
// ones that start with /, ./, ../ or ~/.
func pathsIn(line string) []string {
	if m := prog().FindString(line); m != "" {
		rest := strings.ToLower(line[len(m):])
		if !slices.ContainsFunc(denials(), func(d string) bool { return strings.HasPrefix(rest, d) }) {
			line = line[len(m):]
		}
	}
	var out []string
	// "…cannot create NAME: Permission denied": the word before the
	// denial is the path.
	low := strings.ToLower(line)
	for _, d := range append(denials(), missing()...) {
		if i := strings.Index(low, ": "+d); i > 0 {
			before := strings.TrimRight(line[:i], " ")
			word := before[strings.LastIndexAny(before, " \t")+1:]
			// A bare word is a file only where it looks like one: "connect:
			// Permission denied" names a system call.
			lowBefore := strings.ToLower(before)
			fileLike := strings.ContainsAny(word, "/.") || strings.Contains(lowBefore, "cannot ") || strings.Contains(lowBefore, "can't ")
			if word != "" && fileLike && !strings.ContainsAny(word, "'\"‘’“”") {
				out = append(out, word)
			}
		}
	}
	for _, m := range quoted().FindAllStringSubmatch(line, -1) {
		if s := strings.TrimSpace(m[1]); s != "" && !strings.ContainsAny(s, " \t") {
			out = append(out, s)
		}
	}
	for _, m := range bare().FindAllStringSubmatch(line, -1) {
		if s := strings.TrimRight(m[1], "."); len(s) > 1 {
			out = append(out, s)
		}
	}
	return out
}

// netWords reports whether an error line speaks of a network operation.
func netWords(low string) bool {
	for _, w := range []string{"connect", "bind", "socket", "dial", "listen", "network"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// writableUnder reports whether the sandbox lets p be written.
func writableUnder(p string, spec Spec) bool {
	return inAny(p, spec.Writable) && !inAny(p, spec.Hidden) || slices.Contains(devices(), p)
}

// inAny reports whether p is one of roots or lies beneath one.
func inAny(p string, roots []string) bool {
	return slices.ContainsFunc(roots, func(r string) bool { return within(p, filepath.Clean(r)) })
}
