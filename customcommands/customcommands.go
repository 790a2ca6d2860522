// Package customcommands loads the person's own slash commands: Markdown files
// whose text becomes the prompt when the command is typed. They live in
// the user's config directory (commands/) and in the project
// (.pincer/commands/, and .claude/commands/ so commands written for that
// tool work unchanged); a project's command wins a name clash, and a
// subfolder makes a "folder:name" command.
//
// A command writes a prompt: what the model then does is asked about like
// any other turn. Its "!" lines run when the command is typed, so a
// project's command with such lines is held to the project's trust: until
// the person runs pincer trust, those lines do not run (the caller gives
// Render a run function that refuses).
package customcommands

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"pincer/internal/frontmatter"
	"pincer/internal/safefile"
)

// Command is one custom slash command.
type Command struct {
	// Name is what follows the slash: "review", or "git:commit" for
	// commands/git/commit.md.
	Name string
	// Description and ArgumentHint come from the front matter, for the
	// completion list and help.
	Description  string
	ArgumentHint string
	// Model, when set, is the model the front matter asks for.
	Model string
	// Body is the prompt, with $ARGUMENTS and $1… to fill in.
	Body string
	// Path is the file it came from, for lists.
	Path string
}

// Dir is one place commands are read from.
type Dir = frontmatter.Dir

// Dirs are the places commands are read from, lowest precedence first:
// the user's, then the project's.
func Dirs(configDir, root string) []Dir { return frontmatter.Dirs(configDir, root, "commands") }

// maxCommands bounds how many files are read, so a huge tree cannot slow
// the start.
const maxCommands = 500

// Load reads the commands in dirs; a later directory's command replaces
// an earlier one of the same name. A file that cannot be read is left
// out with a warning that names it.
func Load(dirs []Dir) ([]Command, []string) {
	byName := map[string]Command{}
	var warnings []string
	count := 0
	for _, d := range dirs {
		err := filepath.WalkDir(d.Path, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == d.Path {
					return filepath.SkipAll
				}
				warnings = append(warnings, fmt.Sprintf("cannot read the commands in %s: %v", p, err))
				return nil
			}
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
				return nil
			}
			if count++; count > maxCommands {
				return filepath.SkipAll
			}
			rel, _ := filepath.Rel(d.Path, p)
			name := strings.TrimSuffix(filepath.ToSlash(rel), ".md")
			name = strings.ReplaceAll(name, "/", ":")
			if !validName(name) {
				warnings = append(warnings, fmt.Sprintf("left out the command file %s: a command name uses letters, digits, - and _ (and : for a folder)", p))
				return nil
			}
			data, err := safefile.Read(p, safefile.Options{Within: d.Within, Limit: 256 << 10})
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("left out the command %s: %v", name, err))
				return nil
			}
			c := parse(string(data))
			c.Name, c.Path = name, p
			byName[name] = c
			return nil
		})
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("cannot read the commands in %s: %v", d.Path, err))
		}
	}
	out := make([]Command, 0, len(byName))
	for _, c := range byName {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Command) int { return strings.Compare(a.Name, b.Name) })
	return out, warnings
}

// validName keeps names a person can type after a slash.
func validName(name string) bool {
	if name == "" || strings.HasPrefix(name, ":") || strings.HasSuffix(name, ":") {
		return false
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == ':'
		if !ok {
			return false
		}
	}
	return true
}

// parse splits a command file into its front matter and body.
func parse(text string) Command {
	m, body := frontmatter.Parse(text)
	return Command{Description: m.Get("description"), ArgumentHint: m.Get("argument-hint"), Model: m.Get("model"), Body: body}
}

// Expand is the prompt the command makes with args: $ARGUMENTS becomes
// all of them, $1 to $9 each word; without either placeholder the
// arguments are added at the end.
func (c Command) Expand(args string) string {
	args = strings.TrimSpace(args)
	words := strings.Fields(args)
	body := c.Body
	used := strings.Contains(body, "$ARGUMENTS")
	body = strings.ReplaceAll(body, "$ARGUMENTS", args)
	for i := 9; i >= 1; i-- {
		ph := "$" + strconv.Itoa(i)
		if !strings.Contains(body, ph) {
			continue
		}
		used = true
		v := ""
		if i <= len(words) {
			v = words[i-1]
		}
		body = strings.ReplaceAll(body, ph, v)
	}
	if !used && args != "" {
		body += "\n\n" + args
	}
	return body
}

// Find returns the command that text ("/name args") calls, and its
// arguments.
func Find(cmds []Command, text string) (Command, string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "/")
	if !ok || strings.HasPrefix(rest, "/") {
		return Command{}, "", false
	}
	name, args, _ := strings.Cut(rest, " ")
	for _, c := range cmds {
		if c.Name == name {
			return c, strings.TrimSpace(args), true
		}
	}
	return Command{}, "", false
}

// RunFunc runs one shell command a command's text asks for and returns
// what it printed; the caller decides how (the same checks and approvals
// as the model's run_command).
type RunFunc func(ctx context.Context, command string) (string, error)

// Render is the prompt the command makes with args, with each shell part
// replaced by what it printed: a line that starts with "!" is a command
// (the rest of the line), and so is "!`command`" within a line, the form
// other tools' command files use. Arguments are filled in first, so a
// command can act on them. A command that fails to run (refused, or
// cancelled) fails the whole render: a prompt missing what it was meant to
// include is not sent.
func (c Command) Render(ctx context.Context, args string, run RunFunc) (string, error) {
	body := c.Expand(args)
	if !hasShell(body) {
		return body, nil
	}
	if run == nil {
		return "", fmt.Errorf("/%s runs commands, which cannot run here", c.Name)
	}
	lines := strings.Split(body, "\n")
	for i, line := range lines {
		if cmd, ok := shellLine(line); ok {
			cmd = strings.TrimSpace(cmd)
			if cmd == "" {
				continue
			}
			out, err := run(ctx, cmd)
			if err != nil {
				return "", fmt.Errorf("/%s was not sent: %w", c.Name, err)
			}
			lines[i] = shellBlock(cmd, out)
			continue
		}
		rendered, err := renderInline(ctx, line, run)
		if err != nil {
			return "", fmt.Errorf("/%s was not sent: %w", c.Name, err)
		}
		lines[i] = rendered
	}
	return strings.Join(lines, "\n"), nil
}

// shellLine returns the command of a line that is one: it starts with
// "!", but not with "!`" (an inline command) or "![" (a Markdown image,
// which command files written for other tools hold).
func shellLine(line string) (string, bool) {
	cmd, ok := strings.CutPrefix(line, "!")
	if !ok || strings.HasPrefix(cmd, "`") || strings.HasPrefix(cmd, "[") {
		return "", false
	}
	return cmd, true
}

// RunsShell reports whether the command's text has a shell part ("!"
// lines, "!`…`") that Render would run.
func (c Command) RunsShell() bool { return hasShell(c.Body) }

// hasShell reports whether body has a shell part Render would run.
func hasShell(body string) bool {
	for line := range strings.SplitSeq(body, "\n") {
		if cmd, ok := shellLine(line); ok && strings.TrimSpace(cmd) != "" {
			return true
		}
		if strings.Contains(line, "!`") {
			return true
		}
	}
	return false
}

// renderInline replaces each "!`command`" of line with its output; an
// unclosed one is left as it is.
func renderInline(ctx context.Context, line string, run RunFunc) (string, error) {
	var b strings.Builder
	for {
		start := strings.Index(line, "!`")
		if start < 0 {
			b.WriteString(line)
			return b.String(), nil
		}
		end := strings.IndexByte(line[start+2:], '`')
		if end < 0 {
			b.WriteString(line)
			return b.String(), nil
		}
		cmd := strings.TrimSpace(line[start+2 : start+2+end])
		b.WriteString(line[:start])
		if cmd != "" {
			out, err := run(ctx, cmd)
			if err != nil {
				return "", err
			}
			b.WriteString(inlineOutput(out))
		}
		line = line[start+2+end+1:]
	}
}

// shellBlock is how a "!" line's output appears in the prompt: the
// command, then what it printed, fenced so the model reads it as output.
func shellBlock(cmd, out string) string {
	fence := "```"
	for strings.Contains(out, fence) {
		fence += "`"
	}
	return "$ " + cmd + "\n" + fence + "\n" + strings.TrimRight(out, "\n") + "\n" + fence
}

// inlineOutput is what a "!`command`" part becomes: what it printed, on
// its own, when it ended well (run_command's "[exit code 0]" trailer and
// "(no output)" marker would break the sentence it sits in); otherwise all
// of it, so the prompt says how the command failed.
func inlineOutput(out string) string {
	out = strings.TrimRight(out, "\n")
	body, ok := strings.CutSuffix(out, "[exit code 0]")
	if !ok {
		return out
	}
	body = strings.TrimSpace(body)
	if body == "(no output)" {
		return ""
	}
	return body
}
