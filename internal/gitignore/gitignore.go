// Package gitignore decides which paths .gitignore files (and
// .git/info/exclude) hide, with git's semantics. It is pincer's one
// matcher: the file tools, the project tree and checkpoints all ask it, so
// they agree on what is ignored.
//
// It is pincer's own rather than a library's because the libraries
// measured against git disagree with it: go-git's
// plumbing/format/gitignore treats "[!abc]" as a set containing "!" and
// matches "abc/**" against abc itself; sabhiram/go-gitignore is
// unmaintained. The tests check every case against git itself.
package gitignore

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
)

// pattern is one pattern line of a .gitignore file. Most lines are a
// name ("vendor") or a name's ending ("*.log"): those are compared as
// strings, the rest through a regular expression.
type pattern struct {
	re       *regexp.Regexp // nil when literal or suffix decides
	literal  string         // the whole name or path, when the pattern has no wildcard
	suffix   string         // the ending, for "*" followed by no other wildcard
	anchored bool           // matched against the path below base, not the last name
	negate   bool           // "!pattern": re-include what an earlier rule ignored
	dirOnly  bool           // "pattern/": matches directories only
}

// match reports whether the pattern matches sub, a path relative to the
// directory of its file.
func (p *pattern) match(sub string) bool {
	name := sub
	if !p.anchored {
		// Without a "/" a pattern matches a name at any depth, and its
		// wildcards never cross a "/", so only the last name counts.
		name = sub[strings.LastIndexByte(sub, '/')+1:]
	}
	switch {
	case p.re != nil:
		return p.re.MatchString(name)
	case p.suffix != "":
		return strings.HasSuffix(name, p.suffix) && (!p.anchored || !strings.Contains(name, "/"))
	}
	return name == p.literal
}

// File holds the rules of one .gitignore (or .git/info/exclude) file.
type File struct {
	base  string // directory holding the file, relative to the walk base, "/"-separated; "" at the base
	rules []pattern
}

// Parse reads gitignore rules with git's semantics: blank lines and
// "#" comments skipped, "\" escapes, "!" negation, a trailing "/" for
// directories only, a "/" at the start or in the middle anchoring the
// pattern to base, "*", "?", "[...]" within one path segment, "**/", "/**"
// and "/**/" across segments. Lines that cannot be compiled are skipped, as
// git does with lines it cannot use.
func Parse(base string, data []byte) *File {
	f := &File{base: base}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		if rule, ok := parseLine(sc.Text()); ok {
			f.rules = append(f.rules, rule)
		}
	}
	return f
}

// parseLine compiles one line; ok is false for blanks and comments.
func parseLine(line string) (pattern, bool) {
	line = strings.TrimSuffix(line, "\r")
	line = trimUnescapedSpaces(line)
	if line == "" || line[0] == '#' {
		return pattern{}, false
	}
	var rule pattern
	switch {
	case line[0] == '!':
		rule.negate = true
		line = line[1:]
	case strings.HasPrefix(line, `\!`), strings.HasPrefix(line, `\#`):
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
		rule.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	rule.anchored = strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return pattern{}, false
	}
	const wild = `*?[\`
	switch {
	case !strings.ContainsAny(line, wild):
		rule.literal = line
	case line[0] == '*' && len(line) > 1 && !strings.ContainsAny(line[1:], wild):
		rule.suffix = line[1:]
	default:
		re, err := regexp.Compile("^" + globToRegexp(line) + "$")
		if err != nil {
			return pattern{}, false
		}
		rule.re = re
	}
	return rule, true
}

// trimUnescapedSpaces drops trailing spaces that are not escaped with "\".
func trimUnescapedSpaces(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return s
}

// globToRegexp translates a gitignore glob into regular expression syntax.
func globToRegexp(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case strings.HasPrefix(p[i:], "**"):
			atSegmentStart := i == 0 || p[i-1] == '/'
			next := i + 2
			switch {
			case atSegmentStart && next < len(p) && p[next] == '/':
				b.WriteString("(?:.*/)?")
				i = next + 1
			case atSegmentStart && next == len(p):
				b.WriteString(".*")
				i = next
			default:
				b.WriteString("[^/]*")
				i = next
			}
			continue
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			if class, n := globClass(p[i:]); n > 0 {
				b.WriteString(class)
				i += n
				continue
			}
			b.WriteString(`\[`)
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
		i++
	}
	return b.String()
}

// globClass translates a bracket expression at the start of p. It returns
// the regexp class and how many bytes of p it used, or 0 when the bracket
// is not closed (then "[" is a literal).
func globClass(p string) (string, int) {
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		b.WriteByte('^')
		i++
	}
	first := true
	for i < len(p) {
		c := p[i]
		switch {
		case c == ']' && !first:
			b.WriteByte(']')
			return b.String(), i + 1
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		case c == '[' || c == ']' || c == '^' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
		first = false
		i++
	}
	return "", 0
}

// Stack is the .gitignore files in force for one directory, from the
// walk base down. Later files take precedence, as in git. It is never
// changed in place: Push returns a new stack.
type Stack []*File

// Push returns the stack with f on top.
func (s Stack) Push(f *File) Stack {
	if f == nil || len(f.rules) == 0 {
		return s
	}
	out := make(Stack, len(s), len(s)+1)
	copy(out, s)
	return append(out, f)
}

// Ignored reports whether rel ("/"-separated, relative to the walk base) is
// ignored: the last rule that matches decides.
func (s Stack) Ignored(rel string, isDir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		f := s[i]
		sub := rel
		if f.base != "" {
			if !strings.HasPrefix(rel, f.base+"/") {
				continue
			}
			sub = rel[len(f.base)+1:]
		}
		for j := len(f.rules) - 1; j >= 0; j-- {
			r := &f.rules[j]
			if r.dirOnly && !isDir {
				continue
			}
			if r.match(sub) {
				return !r.negate
			}
		}
	}
	return false
}
