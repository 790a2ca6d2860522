package tools

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"unicode/utf8"

	"pincer/chat"
	"pincer/internal/human"
)

// defaultReadLimit is how many lines read_file shows when no limit is given.
const defaultReadLimit = 2000

type readFileArgs struct {
	Path   string `json:"path" jsonschema_description:"File to read, relative to the project root or absolute."`
	Offset int    `json:"offset,omitempty" jsonschema:"minimum=1" jsonschema_description:"1-based line number to start reading at."`
	Limit  int    `json:"limit,omitempty" jsonschema:"minimum=1" jsonschema_description:"Most lines to read."`
}

func readFileTool(o Options) (Tool, error) {
	return New(Spec[readFileArgs]{
		Name: "read_file",
		Description: fmt.Sprintf("Read a text file. Each line is shown as its 1-based line number, a tab, then the text; "+
			"line numbers are not part of the file. Reads up to limit lines from offset, and at most about %d bytes; "+
			"lines longer than %d bytes are cut. When the file goes on, the output ends with the range shown and the "+
			"offset to read more. Binary files are refused; for a directory use tree_view.", o.MaxOutput, maxLineBytes),
		Defaults: readFileArgs{Offset: 1, Limit: defaultReadLimit},
		Example:  readFileArgs{Path: "main.go", Offset: 1, Limit: 200},
		Check: func(a *readFileArgs) error {
			if strings.TrimSpace(a.Path) == "" {
				return errors.New(`argument "path" is empty; give the file to read, e.g. "main.go"`)
			}
			return nil
		},
		Bind: func(a readFileArgs) Call {
			abs := resolvePath(o.Root, a.Path)
			return &readFileCall{opts: o, args: a, abs: abs, target: newJudgedPath(o.Root, abs)}
		},
	})
}

type readFileCall struct {
	opts Options
	args readFileArgs
	abs  string
	// target is abs with its links resolved once: the policy judges it and
	// Run reads it, so a link swapped in between cannot move the read.
	target judgedPath
}

func (c *readFileCall) Summary() string {
	s := "read_file " + displayPath(c.opts.Root, c.abs)
	if c.args.Offset > 1 {
		s += fmt.Sprintf(" from line %d", c.args.Offset)
	}
	return s
}

// maxLoggedRead is the largest file whose content the read log remembers;
// larger files are rarely edited whole and would cost a second full read.
const maxLoggedRead = 8 << 20

func (c *readFileCall) Access() Access { return Access{Reads: c.target.paths(c.abs)} }

func (c *readFileCall) Run(ctx context.Context) (Result, error) {
	rel := displayPath(c.opts.Root, c.abs)
	info, err := os.Stat(c.abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return errorResult(notFound(c.opts.Root, c.abs, "file")), nil
	case err != nil:
		return errorResult(fmt.Sprintf("cannot read %s: %v", rel, err)), nil
	case info.IsDir():
		return errorResult(fmt.Sprintf("%s is a directory; use tree_view to list it, or glob to find files in it.", rel)), nil
	case !info.Mode().IsRegular():
		return errorResult(fmt.Sprintf("%s is not a regular file (%s); read_file only reads files.", rel, info.Mode().Type())), nil
	}
	var r *bufio.Reader
	size := info.Size()
	if text, ok := readBuffer(ctx, c.opts.Buffers, c.target.real); ok {
		// The editor's text, unsaved changes included: what the person sees.
		r, size = bufio.NewReader(bytes.NewReader(text)), int64(len(text))
		if c.opts.ReadLog != nil && size <= maxLoggedRead {
			c.opts.ReadLog.Saw(c.abs, text)
		}
	} else {
		f, err := openJudged(c.target.real)
		if err != nil {
			if errors.Is(err, syscall.ELOOP) {
				err = errSwapped
			}
			return errorResult(fmt.Sprintf("cannot read %s: %v", rel, err)), nil
		}
		defer f.Close()
		if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
			return errorResult(fmt.Sprintf("%s changed while it was being opened; read it again.", rel)), nil
		}
		size = info.Size()
		if c.opts.ReadLog != nil && size <= maxLoggedRead {
			if data, err := io.ReadAll(io.NewSectionReader(f, 0, size+1)); err == nil {
				c.opts.ReadLog.Saw(c.abs, data)
			}
		}
		r = bufio.NewReaderSize(f, 64*1024)
	}
	if head, _ := r.Peek(sniffBytes); isBinary(head) {
		return errorResult(fmt.Sprintf("%s is a binary file (%d bytes); read_file only shows text. Use run_command with a suitable tool (e.g. file, xxd, hexdump) if you need to inspect it.", rel, size)), nil
	}
	if size == 0 {
		return Result{Content: fmt.Sprintf("(%s is empty)", rel), Touched: c.touched()}, nil
	}

	budget := c.opts.MaxOutput - noticeReserve
	var b strings.Builder
	first, last, total := c.args.Offset, 0, 0
	cutByBytes := false
	for {
		if total%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
		}
		line, full, err := readLineCapped(r, maxLineBytes+utf8.UTFMax)
		if full == 0 && err != nil {
			if err != io.EOF {
				return errorResult(fmt.Sprintf("cannot read %s: %v", rel, err)), nil
			}
			break
		}
		total++
		if total < first {
			continue
		}
		var text string
		if full > len(line) {
			// Cut while reading: clip here, counting the bytes not held.
			text = fmt.Sprintf("%6d\t%s\n", total, strings.ToValidUTF8(cutLine(string(line), maxLineBytes, full), "\uFFFD"))
		} else {
			text = numberedLine(total, strings.ToValidUTF8(strings.TrimSuffix(string(line), "\n"), "\uFFFD")) + "\n"
		}
		if total-first >= c.args.Limit || b.Len()+len(text) > budget && b.Len() > 0 {
			cutByBytes = total-first < c.args.Limit
			last = total - 1
			rest, err := countLines(ctx, r)
			if err != nil {
				return Result{}, err
			}
			total += rest
			break
		}
		b.WriteString(text)
	}
	if first > total {
		return errorResult(fmt.Sprintf("offset %d is past the end of %s, which has %s.", first, rel, human.Plural(total, "line"))), nil
	}
	if last == 0 {
		last = total
	}
	if first > 1 || last < total {
		why := ""
		if cutByBytes {
			why = fmt.Sprintf(" (output limit of about %d bytes reached)", c.opts.MaxOutput)
		}
		if last < total {
			fmt.Fprintf(&b, "\n[lines %d–%d of %d%s; use offset=%d to read more]", first, last, total, why, last+1)
		} else {
			fmt.Fprintf(&b, "\n[lines %d–%d of %d]", first, last, total)
		}
	}
	return Result{Content: strings.TrimSuffix(b.String(), "\n"), Touched: c.touched()}, nil
}

// readLineCapped reads one line of r and keeps at most keep bytes of it:
// the rest is read and counted, never held, so a file that is one line of
// gigabytes costs keep bytes, not twice its size. full is the line's
// length without its line end ("\n" or "\r\n") when the line was cut,
// and len(line) otherwise, line end included as read.
func readLineCapped(r *bufio.Reader, keep int) (line []byte, full int, err error) {
	var last [2]byte // the line's last two bytes, to leave out its line end
	n := 0
	for {
		chunk, err := r.ReadSlice('\n')
		n += len(chunk)
		if room := keep - len(line); room > 0 {
			line = append(line, chunk[:min(room, len(chunk))]...)
		}
		for _, b := range chunk[max(0, len(chunk)-2):] {
			last[0], last[1] = last[1], b
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if n <= len(line) {
			return line, len(line), err
		}
		if last[1] == '\n' {
			n--
			if last[0] == '\r' {
				n--
			}
		}
		return line, n, err
	}
}

func (c *readFileCall) touched() []chat.Touch {
	return []chat.Touch{{Path: displayPath(c.opts.Root, c.abs), Kind: chat.TouchRead}}
}

// countLines counts the lines left in r, a final line without a newline
// included.
func countLines(ctx context.Context, r io.Reader) (int, error) {
	buf := make([]byte, 256*1024)
	n, lastByte := 0, byte('\n')
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		k, err := r.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			lastByte = buf[k-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if lastByte != '\n' {
		n++
	}
	return n, nil
}
