package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// globMaxResults is how many paths glob lists.
const globMaxResults = 500

type globArgs struct {
	Pattern string `json:"pattern" jsonschema_description:"Glob pattern: * and ? within a path segment, ** across directories, {a,b} alternatives, [abc] classes. Relative patterns start at the project root; absolute ones and ~/ work too."`
}

func globTool(o Options) (Tool, error) {
	return New(Spec[globArgs]{
		Name: "glob",
		Description: fmt.Sprintf("Find files whose path matches a glob pattern, e.g. \"**/*.go\" or \"cmd/*/main.go\". "+
			"Honours .gitignore files and skips .git. Lists files only (no directories), relative to the project root, sorted by path; "+
			"at most %d, saying how many more matched.", globMaxResults),
		Example: globArgs{Pattern: "**/*_test.go"},
		Check: func(a *globArgs) error {
			if strings.TrimSpace(a.Pattern) == "" {
				return errors.New(`argument "pattern" is empty; give a glob such as "**/*.go"`)
			}
			if !doublestar.ValidatePattern(filepath.ToSlash(a.Pattern)) {
				return fmt.Errorf(`argument "pattern" is not a valid glob: %q; check that every [ and { is closed`, a.Pattern)
			}
			return nil
		},
		Bind: func(a globArgs) Call {
			base, pattern := splitGlob(o.Root, a.Pattern)
			return &globCall{opts: o, args: a, base: base, pattern: pattern, judged: newJudgedPath(o.Root, base)}
		},
	})
}

// splitGlob separates the fixed leading directories of a pattern from the
// part with wildcards, and resolves them against root.
func splitGlob(root, pattern string) (string, string) {
	p := filepath.ToSlash(pattern)
	if strings.HasPrefix(p, "~/") || p == "~" {
		p = filepath.ToSlash(resolvePath(root, p))
	}
	dir, rest := doublestar.SplitPattern(p)
	return resolvePath(root, dir), rest
}

type globCall struct {
	opts    Options
	args    globArgs
	base    string     // directory the walk starts at
	pattern string     // the part of the pattern below base
	judged  judgedPath // base with its links resolved, as the policy judges it
}

func (c *globCall) Summary() string { return "glob " + c.args.Pattern }

func (c *globCall) Access() Access { return Access{Reads: c.judged.paths(c.base)} }

func (c *globCall) Run(ctx context.Context) (Result, error) {
	if err := c.judged.unchanged(c.base); err != nil {
		return errorResult(fmt.Sprintf("cannot search %s: %v", displayPath(c.opts.Root, c.base), err)), nil
	}
	info, err := os.Stat(c.base)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return errorResult(notFound(c.opts.Root, c.base, "directory")), nil
	case err != nil:
		return errorResult(fmt.Sprintf("cannot search %s: %v", displayPath(c.opts.Root, c.base), err)), nil
	case !info.IsDir():
		return errorResult(fmt.Sprintf("%s is a file, not a directory, so nothing below it can match %s.", displayPath(c.opts.Root, c.base), shortJSON(c.args.Pattern))), nil
	}
	var found []string
	err = walkFiles(ctx, c.opts.Root, c.base, func(e dirEntry) error {
		if ok, _ := doublestar.Match(c.pattern, relTo(c.base, e.abs)); ok {
			found = append(found, displayPath(c.opts.Root, e.abs))
		}
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return errorResult(fmt.Sprintf("cannot search %s: %v", displayPath(c.opts.Root, c.base), err)), nil
	}
	total := len(found)
	sort.Strings(found)
	found = found[:min(total, globMaxResults)]
	if total == 0 {
		return Result{Content: fmt.Sprintf("No files match %s (ignored files are not searched).", shortJSON(c.args.Pattern))}, nil
	}
	text := strings.Join(found, "\n")
	if total > len(found) {
		text += fmt.Sprintf("\n\n[%d of %d matching files shown; use a more specific pattern to see the rest]", len(found), total)
	}
	return Result{Content: capText(text, c.opts.MaxOutput)}, nil
}
