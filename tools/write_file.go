package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"pincer/internal/human"
)

type writeFileArgs struct {
	Path    string `json:"path" jsonschema_description:"File to write, relative to the project root or absolute. Missing parent directories are created."`
	Content string `json:"content" jsonschema_description:"The complete new content of the file."`
}

func writeFileTool(o Options) (Tool, error) {
	return New(Spec[writeFileArgs]{
		Name: "write_file",
		Description: "Create a file, or replace an existing file's whole content. Missing parent directories are created. " +
			"To change part of an existing file use edit_file instead: it is cheaper and safer. " +
			"The user may review the change before it is written.",
		Mutates: true,
		Example: writeFileArgs{Path: "notes/todo.md", Content: "# To do\n"},
		Check: func(a *writeFileArgs) error {
			if strings.TrimSpace(a.Path) == "" {
				return errors.New(`argument "path" is empty; give the file to write, e.g. "notes/todo.md"`)
			}
			return nil
		},
		Bind: func(a writeFileArgs) Call {
			abs := resolvePath(o.Root, a.Path)
			return &writeFileCall{opts: o, args: a, abs: abs, target: newJudgedPath(o.Root, abs)}
		},
	})
}

type writeFileCall struct {
	opts Options
	args writeFileArgs
	abs  string
	// target is abs with its links resolved now, once: the path policy
	// judges it and Apply writes there, so a link swapped in between
	// cannot move the write.
	target judgedPath
}

func (c *writeFileCall) Summary() string {
	return "write_file " + displayPath(c.opts.Root, c.abs)
}

func (c *writeFileCall) Access() Access { return Access{Writes: c.target.paths(c.abs)} }

// Plan reads the current content, if any, and proposes the new one.
func (c *writeFileCall) Plan(ctx context.Context) (*Change, error) {
	rel := displayPath(c.opts.Root, c.abs)
	before, err := readCurrent(ctx, c.opts.Buffers, c.target.real, rel)
	if err != nil {
		return nil, err
	}
	after := []byte(c.args.Content)
	ch := &Change{Path: c.abs, Rel: rel, Before: before, After: after, Created: before == nil, log: c.opts.ReadLog, target: c.target, buffers: c.opts.Buffers}
	ch.Stale = before != nil && c.opts.ReadLog.ChangedSince(c.abs, before)
	n := lineCount(after)
	switch {
	case ch.Created:
		ch.Summary = fmt.Sprintf("new file, %s, %s", human.Plural(n, "line"), human.Plural(len(after), "byte"))
	case bytes.Equal(before, after):
		ch.Summary = "the file already had this content; nothing changed"
	default:
		ch.Summary = fmt.Sprintf("replaced the whole content (%s before, %s now)", human.Plural(lineCount(before), "line"), human.Plural(n, "line"))
	}
	return ch, nil
}

// Run plans and applies the write without review.
func (c *writeFileCall) Run(ctx context.Context) (Result, error) {
	return planAndApply(ctx, c, c.opts.MaxOutput)
}

// readCurrent is readExisting, with the text of the editor's buffer when
// there is one: the disk says whether the file exists and is a regular
// file, the editor what it holds now.
func readCurrent(ctx context.Context, b Buffers, real, rel string) ([]byte, error) {
	data, err := readExisting(real, rel)
	if err != nil || data == nil {
		return data, err
	}
	if text, ok := readBuffer(ctx, b, real); ok {
		return text, nil
	}
	return data, nil
}

// readExisting returns a file's content for planning an edit: nil when it
// does not exist, an error for the model when it is a directory or unreadable.
// real is the path with its links resolved (what the policy judges); it is
// opened without following a link or waiting on a named pipe swapped in.
func readExisting(real, rel string) ([]byte, error) {
	info, err := os.Stat(real)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %w", rel, err)
	case info.IsDir():
		return nil, fmt.Errorf("%s is a directory; give a file path", rel)
	case !info.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (%s); only regular files can be written", rel, info.Mode().Type())
	}
	f, err := openJudged(real)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", rel, err)
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s changed while it was being read; try again", rel)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", rel, err)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// planAndApply is Run for a Planner: plan, write, describe. Plan failures and
// files changed under our feet are tool-level errors for the model.
func planAndApply(ctx context.Context, p Planner, maxOutput int) (Result, error) {
	ch, err := p.Plan(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return errorResult(err.Error()), nil
	}
	if ch.Before != nil && bytes.Equal(ch.Before, ch.After) {
		return Result{Content: fmt.Sprintf("%s: %s.", ch.Rel, ch.Summary)}, nil
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if err := ApplyContext(ctx, ch, ch.After); err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return errorResult(err.Error()), nil
	}
	res := AppliedResult(ch, ch.After)
	res.Content = capText(res.Content, maxOutput)
	return res, nil
}
