package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"pincer/internal/human"
	"pincer/internal/privatekey"
)

// Limits of grep.
const (
	grepMaxMatches  = 200      // matching lines shown
	grepMaxLine     = 300      // bytes of a matching line shown
	grepMaxFileSize = 10 << 20 // larger files are skipped
)

type grepArgs struct {
	Pattern string `json:"pattern" jsonschema_description:"Regular expression in Go RE2 syntax, matched against each line. Prefix (?i) to ignore case; escape literal characters such as ( [ . * with a backslash."`
	Path    string `json:"path,omitempty" jsonschema_description:"Directory to search recursively, or a single file; relative to the project root or absolute."`
	Glob    string `json:"glob,omitempty" jsonschema_description:"Only search files matching this glob, e.g. \"*.go\" (matched against the file name) or \"internal/**/*.go\" (matched against the path relative to path). Empty searches every file."`
}

func grepTool(o Options) (Tool, error) {
	return New(Spec[grepArgs]{
		Name: "grep",
		Description: fmt.Sprintf("Search file contents with a regular expression (Go RE2 syntax: no backreferences or lookaround). "+
			"Searches recursively, honours .gitignore files, and skips .git, binary files and files over %s. "+
			"Files that need the user's approval to read (secret-looking ones such as .env, links leading outside the project) are skipped and named; read one with read_file to ask. "+
			"Prints one line per match as path:line:text, paths relative to the project root, files sorted by path. "+
			"Shows at most %d matches and cuts lines longer than %d bytes; when there are more it says how many, then narrow the pattern, path or glob.",
			human.Bytes(grepMaxFileSize), grepMaxMatches, grepMaxLine),
		Defaults: grepArgs{Path: "."},
		Example:  grepArgs{Pattern: `func \w+Handler`, Path: "internal", Glob: "*.go"},
		Check: func(a *grepArgs) error {
			if a.Pattern == "" {
				return errors.New(`argument "pattern" is empty; give a regular expression, e.g. "TODO"`)
			}
			if _, err := regexp.Compile(a.Pattern); err != nil {
				return fmt.Errorf(`argument "pattern" is not a valid Go (RE2) regular expression: %v; escape literal characters such as ( [ { . * + ? with a backslash`, regexpProblem(err))
			}
			if a.Glob != "" && !doublestar.ValidatePattern(a.Glob) {
				return fmt.Errorf(`argument "glob" is not a valid glob pattern: %q; use patterns such as "*.go" or "src/**/*.ts"`, a.Glob)
			}
			return nil
		},
		Bind: func(a grepArgs) Call {
			abs := resolvePath(o.Root, a.Path)
			return &grepCall{opts: o, args: a, abs: abs, judged: newJudgedPath(o.Root, abs)}
		},
	})
}

// regexpProblem drops the "error parsing regexp: " prefix.
func regexpProblem(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}

type grepCall struct {
	opts Options
	args grepArgs
	abs  string
	// judged is abs with its links resolved, as the policy judges it.
	judged judgedPath
}

func (c *grepCall) Summary() string {
	s := fmt.Sprintf("grep %s in %s", shortJSON(c.args.Pattern), displayPath(c.opts.Root, c.abs))
	if c.args.Glob != "" {
		s += " (" + c.args.Glob + ")"
	}
	return s
}

func (c *grepCall) Access() Access { return Access{Reads: c.judged.paths(c.abs)} }

// fileMatches is what grep found in one file.
type fileMatches struct {
	lines   []string // formatted path:line:text, at most grepMaxMatches
	count   int      // all matching lines in the file
	skipped bool     // too large to search
	needs   string   // why reading it needs approval after all (what it holds), "" when not
}

func (c *grepCall) Run(ctx context.Context) (Result, error) {
	line, err := regexp.Compile(c.args.Pattern)
	if err != nil {
		return errorResult(fmt.Sprintf("invalid pattern: %s", regexpProblem(err))), nil
	}
	// A whole-file scan with line anchors finds files without a match fast;
	// only files that pass are split into lines.
	whole, err := regexp.Compile("(?m)" + c.args.Pattern)
	if err != nil {
		whole = line
	}
	if err := c.judged.unchanged(c.abs); err != nil {
		return errorResult(fmt.Sprintf("cannot search %s: %v", displayPath(c.opts.Root, c.abs), err)), nil
	}
	if _, err := os.Stat(c.abs); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return errorResult(notFound(c.opts.Root, c.abs, "path")), nil
		}
		return errorResult(fmt.Sprintf("cannot search %s: %v", displayPath(c.opts.Root, c.abs), err)), nil
	}

	var files []dirEntry
	var needApproval []skippedFile
	reals := map[string]string{} // the path judged for each file, opened as is
	names := map[string]string{} // how each is named to the model
	scope := newReadScope(c.opts, c.abs)
	err = walkFiles(ctx, c.opts.Root, c.abs, func(e dirEntry) error {
		if c.args.Glob != "" && !globMatches(c.args.Glob, c.abs, e.abs) {
			return nil
		}
		ok, real, skip := scope.allow(e)
		if !ok {
			needApproval = append(needApproval, skip)
			return nil
		}
		files = append(files, e)
		reals[e.abs], names[e.abs] = real, skip.shown
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return errorResult(fmt.Sprintf("cannot search %s: %v", displayPath(c.opts.Root, c.abs), err)), nil
	}

	sort.Slice(files, func(i, j int) bool { return files[i].abs < files[j].abs })
	results := make([]fileMatches, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), max(1, len(files))); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for i := range jobs {
				real := reals[files[i].abs]
				judge := func(head []byte) string { return scope.allowRead(real, head) }
				results[i], buf = grepFile(real, displayPath(c.opts.Root, files[i].abs), line, whole, judge, buf)
			}
		}()
	}
feed:
	for i := range files {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}

	var b strings.Builder
	shown, total, inFiles, skipped := 0, 0, 0, 0
	for i, r := range results {
		if r.needs != "" {
			needApproval = append(needApproval, skippedFile{names[files[i].abs], r.needs})
			continue
		}
		if r.skipped {
			skipped++
		}
		if r.count == 0 {
			continue
		}
		total += r.count
		inFiles++
		for _, l := range r.lines {
			if shown == grepMaxMatches {
				break
			}
			b.WriteString(l)
			b.WriteByte('\n')
			shown++
		}
	}
	var notes []string
	if total == 0 {
		b.WriteString(fmt.Sprintf("No matches for %s in %s", shortJSON(c.args.Pattern), displayPath(c.opts.Root, c.abs)))
		if c.args.Glob != "" {
			b.WriteString(" (files matching " + c.args.Glob + ")")
		}
		b.WriteString(fmt.Sprintf("; %s searched.\n", human.Plural(len(files)-skipped, "file")))
	}
	if total > shown {
		notes = append(notes, fmt.Sprintf("%d of %d matching lines (in %s) shown; narrow the pattern, path or glob to see the rest", shown, total, human.Plural(inFiles, "file")))
	}
	if skipped > 0 {
		notes = append(notes, fmt.Sprintf("%s over %s not searched", human.Plural(skipped, "file"), human.Bytes(grepMaxFileSize)))
	}
	if note := skippedNote(needApproval); note != "" {
		notes = append(notes, note)
	}
	text := strings.TrimSuffix(b.String(), "\n")
	if len(notes) > 0 {
		text += "\n\n[" + strings.Join(notes, "; ") + "]"
	}
	return Result{Content: capText(text, c.opts.MaxOutput)}, nil
}

// grepFile searches one file (abs has its links resolved: what the policy
// judged by name), reading it into buf (grown as needed and returned for
// the next file); judge says why what it read needs approval (a private
// key), and such a file is not searched. Unreadable and binary files have
// no matches.
func grepFile(abs, shown string, line, whole *regexp.Regexp, judge func(head []byte) string, buf []byte) (fileMatches, []byte) {
	f, err := openJudged(abs)
	if err != nil {
		return fileMatches{}, buf
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return fileMatches{}, buf
	}
	if info.Size() > grepMaxFileSize {
		// Not searched, but named as needing approval if it does.
		head, _ := readAll(io.LimitReader(f, privatekey.SniffLimit), nil)
		return fileMatches{skipped: true, needs: judge(head)}, buf
	}
	if need := int(info.Size()) + 1; cap(buf) < need {
		buf = make([]byte, 0, need)
	}
	data, err := readAll(f, buf[:0])
	buf = data[:0]
	if err != nil {
		return fileMatches{}, buf
	}
	if why := judge(data); why != "" {
		return fileMatches{needs: why}, buf
	}
	if isBinary(data) {
		return fileMatches{}, buf
	}
	crlf := bytes.IndexByte(data, '\r') >= 0
	if !crlf && !whole.Match(data) {
		return fileMatches{}, buf // with CRLF lines "$" would not match before "\r", so scan every line
	}
	var m fileMatches
	n := 0
	// Lines of a private key block are never shown, whatever the file's
	// name (read_file asks before reading a file that starts with one).
	keys, inKey := privatekey.IsText(data), false
	for len(data) > 0 {
		n++
		text := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			text, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if crlf {
			text = bytes.TrimSuffix(text, []byte{'\r'})
		}
		wasInKey := inKey
		if keys {
			switch {
			case privatekey.IsText(text):
				inKey, wasInKey = true, false
			case bytes.HasPrefix(bytes.TrimSpace(text), []byte("-----END ")):
				inKey, wasInKey = false, false
			}
		}
		if !line.Match(text) {
			continue
		}
		m.count++
		if wasInKey {
			if len(m.lines) < grepMaxMatches {
				m.lines = append(m.lines, fmt.Sprintf("%s:%d:[a line of a private key, not shown]", shown, n))
			}
			continue
		}
		if len(m.lines) < grepMaxMatches {
			s := strings.ToValidUTF8(string(text), "\uFFFD")
			m.lines = append(m.lines, fmt.Sprintf("%s:%d:%s", shown, n, clipLine(s, grepMaxLine)))
		}
	}
	return m, buf
}

// readAll reads r to the end, appending to buf.
func readAll(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// globMatches reports whether file matches pattern: against the file name
// when pattern has no "/", else against the path relative to base.
func globMatches(pattern, base, file string) bool {
	name := relTo(base, file)
	if !strings.Contains(pattern, "/") || name == "" {
		name = path.Base(filepath.ToSlash(file))
	}
	ok, _ := doublestar.Match(pattern, name)
	return ok
}
