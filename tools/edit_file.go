package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"pincer/internal/human"
)

type editFileArgs struct {
	Path       string `json:"path" jsonschema_description:"File to edit, relative to the project root or absolute."`
	OldText    string `json:"old_text" jsonschema_description:"The exact text to replace, including indentation and line breaks; copy it from read_file output without the line numbers. Empty only to create a file that does not exist yet (or fill an empty one)."`
	NewText    string `json:"new_text" jsonschema_description:"The text to put in its place; empty deletes old_text."`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema_description:"Replace every occurrence of old_text instead of requiring it to be unique."`
}

func editFileTool(o Options) (Tool, error) {
	return New(Spec[editFileArgs]{
		Name: "edit_file",
		Description: "Replace exact text in a file. old_text must match the file exactly (whitespace and indentation included) " +
			"and occur once, unless replace_all is true; include a few surrounding lines to make it unique. " +
			"Line endings need no care: in a file with CRLF line endings, \\n in old_text and new_text matches and writes \\r\\n. " +
			"When old_text is not found, the error shows the closest lines and whether only whitespace differs. " +
			"With an empty old_text a missing file is created with new_text. " +
			"The user may review the diff before it is written; the result shows the edited lines.",
		Mutates: true,
		Example: editFileArgs{Path: "main.go", OldText: "func main() {\n\tfmt.Println(\"hi\")", NewText: "func main() {\n\tfmt.Println(\"hello\")"},
		Check: func(a *editFileArgs) error {
			if strings.TrimSpace(a.Path) == "" {
				return errors.New(`argument "path" is empty; give the file to edit, e.g. "main.go"`)
			}
			if a.OldText == a.NewText {
				return errors.New(`"old_text" and "new_text" are identical, so the edit would change nothing; put the replacement in new_text`)
			}
			return nil
		},
		Bind: func(a editFileArgs) Call {
			abs := resolvePath(o.Root, a.Path)
			return &editFileCall{opts: o, args: a, abs: abs, target: newJudgedPath(o.Root, abs)}
		},
	})
}

type editFileCall struct {
	opts Options
	args editFileArgs
	abs  string
	// target is abs with its links resolved now, once: the path policy
	// judges it and Apply writes there, so a link swapped in between
	// cannot move the write.
	target judgedPath
}

func (c *editFileCall) Summary() string {
	return "edit_file " + displayPath(c.opts.Root, c.abs)
}

func (c *editFileCall) Access() Access { return Access{Writes: c.target.paths(c.abs)} }

// Run plans and applies the edit without review.
func (c *editFileCall) Run(ctx context.Context) (Result, error) {
	return planAndApply(ctx, c, c.opts.MaxOutput)
}

// Plan finds old_text and computes the edited content. Every error is
// written for the model.
func (c *editFileCall) Plan(ctx context.Context) (*Change, error) {
	ch, err := c.plan(ctx)
	if ch != nil {
		ch.log = c.opts.ReadLog
		ch.target = c.target
		ch.buffers = c.opts.Buffers
		ch.Stale = ch.Before != nil && c.opts.ReadLog.ChangedSince(c.abs, ch.Before)
	}
	return ch, err
}

func (c *editFileCall) plan(ctx context.Context) (*Change, error) {
	rel := displayPath(c.opts.Root, c.abs)
	before, err := readCurrent(ctx, c.opts.Buffers, c.target.real, rel)
	if err != nil {
		return nil, err
	}
	a := c.args
	if before == nil {
		if a.OldText != "" {
			return nil, fmt.Errorf("%s; to create a new file, call edit_file with an empty old_text, or use write_file", notFound(c.opts.Root, c.abs, "file"))
		}
		after := []byte(a.NewText)
		return &Change{Path: c.abs, Rel: rel, After: after, Created: true,
			Summary: fmt.Sprintf("new file, %s", human.Plural(lineCount(after), "line"))}, nil
	}
	if isBinary(before) {
		return nil, fmt.Errorf("%s is a binary file; edit_file only edits text", rel)
	}
	if a.OldText == "" {
		if len(before) > 0 {
			return nil, fmt.Errorf(`"old_text" is empty but %s already has content; put the exact text to replace in old_text (to insert, include the line next to the insertion point in both old_text and new_text), or use write_file to replace the whole file`, rel)
		}
		after := []byte(a.NewText)
		return &Change{Path: c.abs, Rel: rel, Before: before, After: after,
			Summary: fmt.Sprintf("filled the empty file with %s", human.Plural(lineCount(after), "line"))}, nil
	}

	oldText, newText := matchLineEndings(before, a.OldText, a.NewText)
	idx, count := findFirst(before, []byte(oldText), maxListedPlaces)
	if count == 0 {
		return nil, errors.New(notFoundHint(ctx, before, oldText, rel))
	}
	if count > 1 && !a.ReplaceAll {
		var lines []string
		line, prev := 1, 0
		for _, off := range idx {
			line += bytes.Count(before[prev:off], []byte{'\n'})
			prev = off
			lines = append(lines, fmt.Sprint(line))
		}
		return nil, fmt.Errorf("old_text occurs %d times in %s (at lines %s); include more surrounding lines in old_text to pick one, or set replace_all to true to replace every occurrence", count, rel, placeList(lines, count))
	}

	// Line numbers are counted as the text is built, once: asking each
	// occurrence's line of the whole text again made an edit with many
	// occurrences in a large file quadratic.
	var after bytes.Buffer
	var ranges []string
	prev, line := 0, 1
	newLines, newBreaks := lineSpan(newText), strings.Count(newText, "\n")
	sub := []byte(oldText)
	for at := 0; ; {
		i := bytes.Index(before[at:], sub)
		if i < 0 {
			break
		}
		off := at + i
		at = off + len(sub)
		after.Write(before[prev:off])
		line += bytes.Count(before[prev:off], []byte{'\n'})
		if len(ranges) < maxListedPlaces {
			ranges = append(ranges, lineRange(line, newLines))
		}
		after.WriteString(newText)
		line += newBreaks
		prev = off + len(oldText)
	}
	after.Write(before[prev:])

	summary := fmt.Sprintf("replaced %s (%s)", human.Plural(count, "occurrence"), placeList(ranges, count))
	if newText == "" {
		summary = fmt.Sprintf("deleted %s (was at %s)", human.Plural(count, "occurrence"), placeList(ranges, count))
	}
	return &Change{Path: c.abs, Rel: rel, Before: before, After: after.Bytes(), Summary: summary}, nil
}

// maxListedPlaces is how many places of old_text an error or a summary
// names; the rest are counted.
const maxListedPlaces = 10

// placeList joins the first places of n, saying how many more there are.
func placeList(places []string, n int) string {
	s := strings.Join(places, ", ")
	if n > len(places) {
		s += fmt.Sprintf(" and %d more", n-len(places))
	}
	return s
}

// matchLineEndings adapts old and new to the file's line endings, so text
// the model writes with "\n" matches a CRLF file and keeps it CRLF, and
// "\r\n" from the model matches an LF file.
func matchLineEndings(file []byte, oldText, newText string) (string, string) {
	lf := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
	if usesCRLF(file) {
		crlf := func(s string) string { return strings.ReplaceAll(lf(s), "\n", "\r\n") }
		if bytes.Contains(file, []byte(crlf(oldText))) {
			return crlf(oldText), crlf(newText)
		}
		return oldText, newText
	}
	if !bytes.Contains(file, []byte(oldText)) && bytes.Contains(file, []byte(lf(oldText))) {
		return lf(oldText), lf(newText)
	}
	return oldText, newText
}

// findFirst returns the offsets of the first k non-overlapping
// occurrences of sub and how many there are in all, holding no more than
// k offsets however often sub occurs.
func findFirst(s, sub []byte, k int) (first []int, n int) {
	for at := 0; ; {
		i := bytes.Index(s[at:], sub)
		if i < 0 {
			return first, n
		}
		if len(first) < k {
			first = append(first, at+i)
		}
		n++
		at += i + len(sub)
	}
}

// lineSpan is how many lines text occupies once inserted: a final newline
// ends the last line rather than starting another.
func lineSpan(text string) int {
	if text == "" {
		return 0
	}
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// lineRange words a span of n lines starting at line start.
func lineRange(start, n int) string {
	if n <= 1 {
		return fmt.Sprintf("line %d", start)
	}
	return fmt.Sprintf("lines %d-%d", start, start+n-1)
}
