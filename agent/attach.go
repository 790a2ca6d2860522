package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"pincer/internal/human"
	"pincer/safety"
	"pincer/tools"
)

// The most of one file a prompt's @path mention attaches; the model is told
// where the cut is, so it can read the rest with read_file.
const (
	AttachMaxBytes = 100 << 10
	AttachMaxLines = 2000
)

// attachMarker starts each attached file in a user message; SplitAttachments
// finds the typed prompt by it.
const attachMarker = "\n\n--- attached file: "

// mention is one @word of a prompt.
type mention struct {
	start, end int    // the word's bytes in the prompt, @ included
	path       string // the word without @ and trailing punctuation
	escaped    bool   // @@path: a path named, not attached
}

// findMentions returns the words of text that start with @ (at the start
// or after white space).
func findMentions(text string) []mention {
	var out []mention
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r != '@' || (i > 0 && !unicode.IsSpace(lastRune(text[:i]))) {
			i += n
			continue
		}
		if m, ok := quotedMention(text, i); ok {
			out = append(out, m)
			i = m.end
			continue
		}
		end := i
		for end < len(text) {
			r, n := utf8.DecodeRuneInString(text[end:])
			if unicode.IsSpace(r) {
				break
			}
			end += n
		}
		word := text[i:end]
		m := mention{start: i, end: end, path: strings.TrimPrefix(word, "@")}
		if strings.HasPrefix(m.path, "@") {
			m.escaped, m.path = true, m.path[1:]
		}
		if m.path != "" {
			out = append(out, m)
		}
		i = end
	}
	return out
}

// quotedMention reads @"path" (or @@"path") at text[i:], the form that
// names a path with spaces or control characters in it: a Go string
// literal, as MentionPath writes it.
func quotedMention(text string, i int) (mention, bool) {
	rest := text[i+1:]
	escaped := strings.HasPrefix(rest, "@")
	if escaped {
		rest = rest[1:]
	}
	lit, err := strconv.QuotedPrefix(rest)
	if err != nil || !strings.HasPrefix(lit, `"`) {
		return mention{}, false
	}
	p, err := strconv.Unquote(lit)
	if err != nil || p == "" {
		return mention{}, false
	}
	end := len(text) - len(rest) + len(lit)
	return mention{start: i, end: end, path: p, escaped: escaped}, true
}

// MentionPath is how path is written after @ in a prompt so that the
// prompt's mention names it: as it is, or, when it holds white space,
// control characters or starts with a quote, as a quoted Go string
// (@"docs/release notes.md").
func MentionPath(path string) string {
	for _, r := range path {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError {
			return strconv.Quote(path)
		}
	}
	if strings.HasPrefix(path, `"`) {
		return strconv.Quote(path)
	}
	return path
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// attachMentions gives the model the files a prompt mentions as @path:
// each regular file is read (capped, the cut said) and appended to the
// prompt after the text. The read is judged like read_file's: a file
// outside the project or a secret is asked about, a deny rule refuses it.
// @@path names a file without attaching it and is sent as @path. Words
// that name no file stay as they are.
//
// typed says which resource mentions the person typed; nil means all of
// the text was typed. A resource mention it lacks is asked about first.
func (a *Agent) attachMentions(ctx context.Context, text string, typed map[string]bool, sink func(Event)) string {
	mentions := findMentions(text)
	if len(mentions) == 0 {
		return text
	}
	var out strings.Builder
	var blocks []string
	seen := map[string]bool{}
	last := 0
	for _, m := range mentions {
		if m.escaped {
			out.WriteString(text[last:m.start])
			out.WriteString(text[m.start+1 : m.end]) // drop one @
			last = m.end
			continue
		}
		abs, rel, ok := a.mentionedFile(m.path)
		if !ok {
			if server, uri, ok := a.mentionedResource(m.path); ok && !seen[m.path] {
				seen[m.path] = true
				if block, ok := a.attachResource(ctx, server, uri, typed == nil || typed[m.path], sink); ok {
					blocks = append(blocks, block)
				}
			}
			continue
		}
		if seen[abs] {
			continue
		}
		seen[abs] = true
		if block, ok := a.attach(ctx, abs, rel, sink); ok {
			blocks = append(blocks, block)
		}
	}
	out.WriteString(text[last:])
	return out.String() + strings.Join(blocks, "")
}

// mentionedFile finds the regular file a mention names, relative to the
// project or absolute (~ for the home directory); trailing punctuation of
// the sentence is not part of the name.
func (a *Agent) mentionedFile(word string) (abs, rel string, ok bool) {
	for _, cand := range []string{word, strings.TrimRight(word, ",.;:!?)]}'\"")} {
		if cand == "" {
			continue
		}
		p := cand
		if strings.HasPrefix(p, "~/") && a.opts.Home != "" {
			p = filepath.Join(a.opts.Home, p[2:])
		} else if !filepath.IsAbs(p) {
			p = filepath.Join(a.opts.Root, p)
		}
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			rel := cand
			if r, err := filepath.Rel(a.opts.Root, p); err == nil && !strings.HasPrefix(r, "..") {
				rel = r
			}
			return p, rel, true
		}
	}
	return "", "", false
}

// Resources reads what a prompt attaches as @SERVER:URI: a resource of a
// configured MCP server.
type Resources interface {
	HasServer(name string) bool
	ReadResource(ctx context.Context, server, uri string) (string, error)
}

// mentionedResource reads a mention as SERVER:URI of a configured MCP
// server; trailing punctuation of the sentence is not part of the URI.
func (a *Agent) mentionedResource(word string) (server, uri string, ok bool) {
	if a.opts.Resources == nil {
		return "", "", false
	}
	server, uri, ok = strings.Cut(strings.TrimRight(word, ",.;!?"), ":")
	if !ok || server == "" || uri == "" || !a.opts.Resources.HasServer(server) {
		return "", "", false
	}
	return server, uri, true
}

// typedResources is the set of mentions the person typed in a composed
// prompt, or nil when the whole prompt was typed.
func typedResources(o TurnOptions) map[string]bool {
	if !o.Composed {
		return nil
	}
	typed := map[string]bool{}
	for _, m := range findMentions(o.Typed) {
		if !m.escaped {
			typed[m.path] = true
		}
	}
	return typed
}

// attachResource reads a server's resource for the prompt. When the
// person typed the mention, nothing is asked; when a command's file or
// output named it, the person is asked first: the resource is theirs
// (their server, their account), and the file is not. What the server
// returns is foreign and reaches the model as an attachment, capped.
func (a *Agent) attachResource(ctx context.Context, server, uri string, typed bool, sink func(Event)) (string, bool) {
	name := server + ":" + uri
	if !typed {
		d := ask(ctx, a.opts.Approver, Approval{
			Kind: ApprovePath, Tool: "mcp_resource", Summary: "attach " + name + " to the prompt",
			Tier:    safety.Confirm,
			Reasons: []string{"the command's text names this resource of the MCP server " + server + "; you did not type it"},
		})
		if !d.Allow {
			sink(Notice{Text: fmt.Sprintf("Did not attach %s: reading it was refused.", name)})
			return "", false
		}
	}
	text, err := a.opts.Resources.ReadResource(ctx, server, uri)
	if err != nil {
		sink(Notice{Text: fmt.Sprintf("Did not attach %s: %v.", name, err)})
		return "", false
	}
	sink(Notice{Text: "Attached " + name + ", a resource of the MCP server " + server + "."})
	return AttachedText(name, text), true
}

// attach judges and reads one file, and returns its block.
func (a *Agent) attach(ctx context.Context, abs, rel string, sink func(Event)) (string, bool) {
	tool, ok := a.opts.Tools.Get("read_file")
	if !ok {
		return "", false
	}
	args, _ := json.Marshal(map[string]string{"path": abs})
	call, err := tool.Decode(string(args))
	if err != nil {
		return "", false
	}
	acc := call.Access()
	v := a.judge(acc)
	if v.Denied {
		sink(Notice{Text: fmt.Sprintf("Did not attach %s: the deny rule %q blocks reading it.", rel, v.Rule)})
		return "", false
	}
	if v.Tier > safety.Safe {
		d := ask(ctx, a.opts.Approver, Approval{
			Kind: ApprovePath, Tool: "read_file", Summary: "attach " + rel + " to the prompt",
			Paths: acc.Reads, Tier: v.Tier, Reasons: v.Reasons, Secret: v.Secret,
		})
		if !d.Allow {
			sink(Notice{Text: fmt.Sprintf("Did not attach %s: reading it was refused.", rel)})
			return "", false
		}
	}
	// Read what was judged: the resolved path, opened without following
	// a link or blocking on a pipe swapped in since.
	judged := abs
	if len(acc.Reads) > 0 {
		judged = acc.Reads[0]
	}
	content, cut, err := readCapped(judged)
	if err != nil {
		sink(Notice{Text: fmt.Sprintf("Did not attach %s: %v.", rel, err)})
		return "", false
	}
	lines := strings.Count(content, "\n")
	if content != "" && !strings.HasSuffix(content, "\n") {
		lines++
		content += "\n"
	}
	head := fmt.Sprintf("%s (%s)", rel, human.Plural(lines, "line"))
	note := "Attached " + head + "."
	if cut != "" {
		head += " [cut: " + cut + "]"
		note = "Attached " + rel + " (" + cut + ")."
	}
	sink(Notice{Text: note})
	return attachMarker + head + " ---\n" + content + "--- end of " + rel + " ---", true
}

// readCapped reads at most AttachMaxLines lines and AttachMaxBytes bytes
// of a text file, cut at a line end; cut says what was left out, "" when
// nothing was.
func readCapped(path string) (content, cut string, err error) {
	f, err := tools.OpenRegular(path)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", "", err
	}
	data, err := io.ReadAll(io.LimitReader(f, AttachMaxBytes+1))
	if err != nil {
		return "", "", err
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return "", "", fmt.Errorf("it is a binary file")
	}
	size := info.Size()
	switch {
	case len(data) > AttachMaxBytes:
		data = data[:AttachMaxBytes]
		if i := bytes.LastIndexByte(data, '\n'); i > 0 {
			data = data[:i+1]
		}
		cut = fmt.Sprintf("the file is %s, the first %s are attached", human.Bytes(size), human.Bytes(int64(len(data))))
	}
	if n := bytes.Count(data, []byte{'\n'}); n > AttachMaxLines {
		end := 0
		for i := 0; i < AttachMaxLines; i++ {
			end += bytes.IndexByte(data[end:], '\n') + 1
		}
		data = data[:end]
		if cut == "" {
			total := n
			if len(data) > 0 && data[len(data)-1] != '\n' {
				total++
			}
			cut = fmt.Sprintf("the file has %d lines, the first %d are attached", total, AttachMaxLines)
		} else {
			cut = fmt.Sprintf("the file is %s, the first %d lines are attached", human.Bytes(size), AttachMaxLines)
		}
	}
	return strings.ToValidUTF8(string(data), "\uFFFD"), cut, nil
}

// AttachedText is the block that attaches text a front end was given with
// a prompt (the editor's selection, or a file with its unsaved changes) to
// the prompt, the way an @path mention attaches a file, so the model reads
// it alike and SplitAttachments finds the typed prompt again. name says
// where the text comes from; a text past AttachMaxBytes is cut at a line
// end, and the block says so.
func AttachedText(name, text string) string {
	cut := ""
	if len(text) > AttachMaxBytes {
		end := strings.LastIndexByte(text[:AttachMaxBytes], '\n') + 1
		if end == 0 {
			end = AttachMaxBytes
		}
		cut = fmt.Sprintf(" [cut: the first %s of %s]", human.Bytes(int64(end)), human.Bytes(int64(len(text))))
		text = strings.ToValidUTF8(text[:end], "\uFFFD")
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return attachMarker + name + " (" + human.Plural(strings.Count(text, "\n"), "line") + ")" + cut + " ---\n" + text + "--- end of " + name + " ---"
}

// SplitAttachments separates a stored user message into what the person
// typed and the names of the files attached to it, for showing a resumed
// session.
func SplitAttachments(content string) (typed string, files []string) {
	i := strings.Index(content, attachMarker)
	if i < 0 {
		return content, nil
	}
	typed = content[:i]
	for rest := content[i:]; ; {
		j := strings.Index(rest, attachMarker)
		if j < 0 {
			break
		}
		rest = rest[j+len(attachMarker):]
		head, _, _ := strings.Cut(rest, "\n")
		name, _, _ := strings.Cut(head, " (")
		files = append(files, name)
	}
	return typed, files
}
