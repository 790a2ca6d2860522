package ui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"pincer/internal/atomicfile"
	"pincer/internal/safetext"
	"pincer/rewind"
)

// projectFile is a file a slash command (/plan save, /export) writes in
// the project, checked before it is written.
type projectFile struct {
	path string // where to write, the folders' links resolved
	rel  string // the path in the project, for messages
	// mkdir is the folder to create first; "" when it exists.
	mkdir string
}

// projectFileArgs reads the arguments "[-f] [PATH]" of a command that
// writes a file in the project (verb: "/export", "/plan save"): whether
// to replace the file, and the path ("" for the command's default).
func projectFileArgs(args, verb string) (force bool, name string, err error) {
	words, err := quotedFields(args)
	if err != nil {
		return false, "", fmt.Errorf("%s: %v; write %s \"my notes.md\" for a path with spaces.", verb, err, verb)
	}
	for _, f := range words {
		switch {
		case f == "-f" || f == "--force":
			force = true
		case name == "":
			name = f
		default:
			return false, "", fmt.Errorf("%s takes one path: %s [-f] [PATH]; quote a path with spaces (%s \"my notes.md\").", verb, verb, verb)
		}
	}
	return force, name, nil
}

// quotedFields splits s at spaces, except inside "double" (Go escapes) or
// 'single' quotes, which are removed.
func quotedFields(s string) ([]string, error) {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		switch s[0] {
		case '"':
			lit, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, errors.New("a quote is not closed")
			}
			w, _ := strconv.Unquote(lit)
			out, s = append(out, w), s[len(lit):]
		case '\'':
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, errors.New("a quote is not closed")
			}
			out, s = append(out, s[1:1+end]), s[2+end:]
		default:
			end := strings.IndexFunc(s, unicode.IsSpace)
			if end < 0 {
				end = len(s)
			}
			out, s = append(out, s[:end]), s[end:]
		}
	}
	return out, nil
}

// projectFilePath finds where name lies in the project root for the
// command verb ("/export"). What such a command writes stays in the
// project: a path that leads out of it (.., an absolute path elsewhere, a
// link to a folder elsewhere) or into a .git folder (in any case, at any
// depth) is refused, as is one that names a folder, a link or a device.
// Missing folders are made when the file is written (see write), unless a
// file stands where one of them would go.
func projectFilePath(root, name, verb string) (projectFile, error) {
	shown := safetext.LineOf(name)
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return projectFile{}, fmt.Errorf("could not resolve the project directory: %w", err)
	}
	// The deepest folder on the way that exists, with its links resolved;
	// the folders below it are made.
	dir, missing := filepath.Dir(p), []string(nil)
	var realDir string
	for {
		fi, err := os.Lstat(dir)
		if err == nil {
			if realDir, err = filepath.EvalSymlinks(dir); err != nil {
				return projectFile{}, fmt.Errorf("%s cannot write to %s: %s is a link that leads nowhere", verb, shown, safetext.LineOf(dir))
			}
			if fi, err = os.Stat(realDir); err != nil || !fi.IsDir() {
				return projectFile{}, fmt.Errorf("%s cannot write to %s: %s is a file, not a folder", verb, shown, safetext.LineOf(relOr(realRoot, realDir)))
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return projectFile{}, fmt.Errorf("%s cannot write to %s: %w", verb, shown, err)
		}
		missing = append([]string{filepath.Base(dir)}, missing...)
		parent := filepath.Dir(dir)
		if parent == dir {
			return projectFile{}, fmt.Errorf("%s cannot write to %s: none of its folders exists", verb, shown)
		}
		dir = parent
	}
	full := filepath.Join(append(append([]string{realDir}, missing...), filepath.Base(p))...)
	rel, err := filepath.Rel(realRoot, full)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return projectFile{}, fmt.Errorf("%s writes only inside the project; %s is outside it", verb, shown)
	}
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.EqualFold(part, ".git") {
			return projectFile{}, fmt.Errorf("%s does not write into .git; give another path", verb)
		}
	}
	if fi, err := os.Lstat(full); err == nil && !fi.Mode().IsRegular() {
		what := "not a regular file"
		if fi.IsDir() {
			what = "a folder"
		}
		return projectFile{}, fmt.Errorf("%s is %s; give a file name", shown, what)
	}
	f := projectFile{path: full, rel: rel}
	if len(missing) > 0 {
		f.mkdir = filepath.Dir(full)
	}
	return f, nil
}

// relOr is path relative to root when it lies inside, else path.
func relOr(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// write makes the missing folders and writes data atomically; without
// force an existing file is kept and the error is fs.ErrExist.
func (f projectFile) write(data []byte, force bool) error {
	if f.mkdir != "" {
		if err := os.MkdirAll(f.mkdir, 0o755); err != nil {
			return fmt.Errorf("could not make the folder %s: %w", safetext.LineOf(filepath.Dir(f.rel)), err)
		}
	}
	if force {
		return atomicfile.Write(f.path, data, 0o644)
	}
	return atomicfile.WriteNew(f.path, data, 0o644)
}

// recordWrite tells the session's rewinder (nil without one) that pincer
// wrote f between turns, so a rewind names it as pincer's own write, not
// as changed outside pincer. It returns "" or a sentence, starting with a
// space, to add to the notice when that could not be recorded.
func recordWrite(rw *rewind.Rewinder, f projectFile) string {
	if rw == nil {
		return ""
	}
	if err := rw.Wrote(context.Background(), []string{filepath.ToSlash(f.rel)}); err != nil {
		return " " + sentence(fmt.Sprintf("/rewind will show it as changed outside pincer: %v", err))
	}
	return ""
}
