package tui

import (
	"os"
	"path/filepath"
	"pincer/e2e/e2etest"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// TestCustomCommandHeadless: `pincer run "/review internal/api"` sends the
// project's command file with its arguments filled in, to the model its
// front matter names.
func TestCustomCommandHeadless(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("reviewed", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write(".pincer/commands/review.md", "---\ndescription: review a package\nmodel: review-model\n---\nReview the package $ARGUMENTS for bugs.\n")
	if r := s.Run("", "run", "/review internal/api"); r.Code != 0 {
		t.Fatalf("run: exit %d\n%s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request")
	}
	last := e2etest.RequestText(reqs[len(reqs)-1])
	if !strings.Contains(last, "Review the package internal/api for bugs.") || strings.Contains(last, "/review") {
		t.Errorf("the request does not hold the expanded command:\n%s", last)
	}
	if m := reqs[len(reqs)-1].Body["model"]; m != "review-model" {
		t.Errorf("model %v, want the command's review-model", m)
	}
}

// TestCustomCommandIncludes: a command's "!" lines and "!`…`" parts run
// through the approvals and their output is in the prompt, an @path
// mention brings the file's content, and a command the person refuses
// sends nothing at all. A project's command runs its lines only once the
// project is trusted: before, it is listed, a warning names pincer trust,
// and typing it runs and sends nothing.
func TestCustomCommandIncludes(t *testing.T) {
	t.Parallel()
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("done", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "the-notes-content-7731\n")
	s.Write(".pincer/commands/ctx.md", "Context for $1:\n!echo line-$1-out\nInline: !`echo inline-out` end.\nNotes: @notes.txt\n")
	s.Write(".pincer/commands/risky.md", "Before:\n!touch made-by-command\nAfter.\n")
	s.Write(".pincer/commands/plain.md", "Just a prompt.\n")

	r := s.Run("", "run", "--yes", "/risky")
	if r.Code == 0 || !strings.Contains(r.Stderr, "/risky run shell lines") && !strings.Contains(r.Stderr, "/risky") ||
		!strings.Contains(r.Stderr+r.Stdout, "pincer trust") {
		t.Errorf("an untrusted project's command: exit %d\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "made-by-command")); err == nil {
		t.Fatal("an untrusted project's command line ran, even with --yes")
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests for a command that was not sent", n)
	}
	if r := s.Run("", "run", "/plain"); r.Code != 0 {
		t.Errorf("a project's command without shell lines needs no trust: exit %d\n%s", r.Code, r.Stderr)
	}
	if r := s.Run("", "trust", "--yes"); r.Code != 0 || !strings.Contains(r.Stdout, ".pincer/commands/risky.md") {
		t.Fatalf("pincer trust: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}

	r = s.Run("", "run", "/ctx alpha")
	if r.Code != 0 {
		t.Fatalf("run /ctx: exit %d\n%s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()[1:] // after /plain's
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if err := agenttest.CheckStrict(reqs[0].Raw); err != nil {
		t.Errorf("the request is not valid: %v", err)
	}
	text := e2etest.RequestText(reqs[0])
	for _, want := range []string{"Context for alpha:", "$ echo line-alpha-out", "line-alpha-out", "Inline: inline-out end.", "the-notes-content-7731"} {
		if !strings.Contains(text, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "!echo") || strings.Contains(text, "!`") {
		t.Errorf("the prompt still holds the shell syntax:\n%s", text)
	}

	// Without --yes a confirm-tier command is refused: nothing is sent and
	// nothing runs.
	r = s.Run("", "run", "/risky")
	if r.Code == 0 {
		t.Errorf("a refused command's /risky exited 0")
	}
	if !strings.Contains(r.Stderr+r.Stdout, "was refused") {
		t.Errorf("the refusal is not said:\nstdout %s\nstderr %s", r.Stdout, r.Stderr)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests after the refused command, want still 2", n)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "made-by-command")); err == nil {
		t.Error("the refused command ran")
	}

	// With --yes it runs, once, and the prompt goes out.
	if r = s.Run("", "run", "--yes", "/risky"); r.Code != 0 {
		t.Fatalf("run --yes /risky: exit %d\n%s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "made-by-command")); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests after the approved command, want 3", n)
	}
	// A change to the command is a change to what was trusted.
	s.Write(".pincer/commands/risky.md", "Before:\n!touch made-again\nAfter.\n")
	if r = s.Run("", "run", "--yes", "/risky"); r.Code == 0 || !strings.Contains(r.Stderr+r.Stdout, "pincer trust") {
		t.Errorf("a changed command ran without a new trust: exit %d\n%s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "made-again")); err == nil {
		t.Error("the changed command's line ran")
	}
}

// TestTUICustomCommand: on the screen a command's model answers its turn
// only, and its "!" line asks for approval before it runs.
func TestTUICustomCommand(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("answered", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write(".pincer/commands/review.md", "---\nmodel: review-model\n---\nReview $ARGUMENTS please.\n!touch review-ran\n")
	if r := s.Run("", "trust", "--yes"); r.Code != 0 {
		t.Fatalf("pincer trust: exit %d\n%s", r.Code, r.Stderr)
	}
	ts := e2etest.NewTmuxScreen(t, s, 110, 34, "-s", "cmds")
	ts.WaitFor("the screen to open", "Ask pincer")
	ts.Keys("/review api", "Enter")
	ts.WaitFor("the approval of the command's line", "touch review-ran", "y ")
	ts.AnswerDialog("y", "Run this command?")
	ts.WaitFor("the answer", "answered", "idle")
	if _, err := os.Stat(filepath.Join(s.Dir, "review-ran")); err != nil {
		t.Errorf("the approved line did not run: %v", err)
	}
	ts.Keys("and now plain", "Enter")
	ts.WaitUntil("the second answer", "", func(screen string) bool { return strings.Count(screen, "answered") >= 2 })
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if m := reqs[0].Body["model"]; m != "review-model" {
		t.Errorf("the command's turn asked %v, want review-model", m)
	}
	if m := reqs[1].Body["model"]; m == "review-model" {
		t.Errorf("the next turn still asked the command's model")
	}
	if text := e2etest.RequestText(reqs[0]); !strings.Contains(text, "Review api please.") || !strings.Contains(text, "$ touch review-ran") {
		t.Errorf("the command's prompt is wrong:\n%s", text)
	}
}
