package customcommands

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoad(t *testing.T) {
	base := t.TempDir()
	cfg, root := filepath.Join(base, "config"), filepath.Join(base, "project")
	write(t, filepath.Join(cfg, "commands", "review.md"), "---\ndescription: \"review code\"\nargument-hint: PATH\nmodel: big\n---\nReview $ARGUMENTS carefully.\n")
	write(t, filepath.Join(cfg, "commands", "mine.md"), "Only mine.")
	write(t, filepath.Join(root, ".pincer", "commands", "review.md"), "---\ndescription: project review\n---\nProject review of $1 then $2.")
	write(t, filepath.Join(root, ".claude", "commands", "git", "commit.md"), "Write a commit message.\r\n")
	write(t, filepath.Join(root, ".pincer", "commands", "bad name.md"), "x")
	write(t, filepath.Join(root, ".pincer", "commands", "notes.txt"), "not a command")
	outside := filepath.Join(base, "secret.md")
	write(t, outside, "secret")
	if err := os.Symlink(outside, filepath.Join(root, ".pincer", "commands", "leak.md")); err != nil {
		t.Fatal(err)
	}
	cmds, warnings := Load(Dirs(cfg, root))
	var names []string
	by := map[string]Command{}
	for _, c := range cmds {
		names = append(names, c.Name)
		by[c.Name] = c
	}
	if got := strings.Join(names, " "); got != "git:commit mine review" {
		t.Fatalf("commands %q", got)
	}
	if r := by["review"]; r.Description != "project review" || !strings.Contains(r.Body, "Project review") {
		t.Errorf("the project's review does not win: %+v", r)
	}
	if c := by["git:commit"]; c.Body != "Write a commit message." {
		t.Errorf("git:commit body %q", c.Body)
	}
	joined := strings.Join(warnings, "\n")
	for _, want := range []string{"bad name.md", "leak"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no warning about %s in %q", want, joined)
		}
	}
	// Front matter of the user's own command.
	user, _ := Load(Dirs(cfg, ""))
	for _, c := range user {
		if c.Name == "review" && (c.Description != "review code" || c.ArgumentHint != "PATH" || c.Model != "big" || c.Body != "Review $ARGUMENTS carefully.") {
			t.Errorf("front matter: %+v", c)
		}
	}
}

func TestExpand(t *testing.T) {
	for _, tc := range []struct{ body, args, want string }{
		{"Review $ARGUMENTS now.", "a/b c", "Review a/b c now."},
		{"From $1 to $2 ($3)", "x y", "From x to y ()"},
		{"Summarise the diff.", "", "Summarise the diff."},
		{"Summarise the diff.", "focus on tests", "Summarise the diff.\n\nfocus on tests"},
		{"$1 and $10", "a", "a and a0"},
	} {
		if got := (Command{Body: tc.body}).Expand(tc.args); got != tc.want {
			t.Errorf("Expand(%q, %q) = %q, want %q", tc.body, tc.args, got, tc.want)
		}
	}
}

func TestFind(t *testing.T) {
	cmds := []Command{{Name: "review"}, {Name: "git:commit"}}
	for _, tc := range []struct {
		text, name, args string
		ok               bool
	}{
		{"/review internal/api", "review", "internal/api", true},
		{"/git:commit", "git:commit", "", true},
		{"/unknown x", "", "", false},
		{"//review", "", "", false},
		{"review", "", "", false},
	} {
		c, args, ok := Find(cmds, tc.text)
		if ok != tc.ok || c.Name != tc.name || args != tc.args {
			t.Errorf("Find(%q) = %q %q %v", tc.text, c.Name, args, ok)
		}
	}
}

// fakeRun answers like run_command: output, a blank line, the status.
func fakeRun(outputs map[string]string) RunFunc {
	return func(_ context.Context, cmd string) (string, error) {
		out, ok := outputs[cmd]
		if !ok {
			return "", errors.New("unexpected command " + cmd)
		}
		return out, nil
	}
}

func TestRender(t *testing.T) {
	outputs := map[string]string{
		"git status": "clean\n\n[exit code 0]",
		"date":       "Tue\n\n[exit code 0]",
		"true":       "(no output)\n\n[exit code 0]",
		"false":      "(no output)\n\n[exit code 1]",
		"echo x":     "x\n\n[exit code 0]",
		"cat fenced": "```go\nx\n```\n\n[exit code 0]",
		"echo a b":   "a b\n\n[exit code 0]",
	}
	for _, tc := range []struct{ name, body, args, want string }{
		{"no shell", "Plain $1.", "x", "Plain x."},
		{"line", "Look:\n!git status\nthen fix", "", "Look:\n$ git status\n```\nclean\n\n[exit code 0]\n```\nthen fix"},
		{"inline", "Today is !`date`, ok", "", "Today is Tue, ok"},
		{"inline no output", "[!`true`]", "", "[]"},
		{"inline failure keeps status", "[!`false`]", "", "[(no output)\n\n[exit code 1]]"},
		{"two inline", "!`echo x` and !`date`", "", "x and Tue"},
		{"unclosed inline", "odd !`echo x", "", "odd !`echo x"},
		{"arguments first", "!echo $ARGUMENTS", "a b", "$ echo a b\n```\na b\n\n[exit code 0]\n```"},
		{"fence grows", "!cat fenced", "", "$ cat fenced\n````\n```go\nx\n```\n\n[exit code 0]\n````"},
		{"bang alone", "Wow\n!\nok", "", "Wow\n!\nok"},
		{"markdown image", "See:\n![diagram](x.png)\nok", "", "See:\n![diagram](x.png)\nok"},
	} {
		got, err := (Command{Name: "c", Body: tc.body}).Render(context.Background(), tc.args, fakeRun(outputs))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s: Render = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestRenderFails: a command that cannot run fails the whole prompt, and
// a body with shell parts but nothing to run them is an error, not a
// prompt with the syntax left in.
func TestRenderFails(t *testing.T) {
	refused := errors.New(`"rm x" was refused`)
	run := func(context.Context, string) (string, error) { return "", refused }
	for _, body := range []string{"a\n!rm x\nb", "a !`rm x` b"} {
		_, err := (Command{Name: "c", Body: body}).Render(context.Background(), "", run)
		if !errors.Is(err, refused) || !strings.Contains(err.Error(), "/c was not sent") {
			t.Errorf("Render(%q) error = %v, want the refusal, saying nothing was sent", body, err)
		}
		if _, err := (Command{Name: "c", Body: body}).Render(context.Background(), "", nil); err == nil {
			t.Errorf("Render(%q) with no runner succeeded", body)
		}
	}
}
