package cli

import (
	"os"
	"path/filepath"
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
	s := newSandbox(t, srv.BaseURL())
	s.write(".pincer/commands/review.md", "---\ndescription: review a package\nmodel: review-model\n---\nReview the package $ARGUMENTS for bugs.\n")
	if r := s.run("", "run", "/review internal/api"); r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request")
	}
	last := requestText(reqs[len(reqs)-1])
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
	s := newSandbox(t, srv.BaseURL())
	s.write("notes.txt", "the-notes-content-7731\n")
	s.write(".pincer/commands/ctx.md", "Context for $1:\n!echo line-$1-out\nInline: !`echo inline-out` end.\nNotes: @notes.txt\n")
	s.write(".pincer/commands/risky.md", "Before:\n!touch made-by-command\nAfter.\n")
	s.write(".pincer/commands/plain.md", "Just a prompt.\n")

	r := s.run("", "run", "--yes", "/risky")
	if r.code == 0 || !strings.Contains(r.stderr, "/risky run shell lines") && !strings.Contains(r.stderr, "/risky") ||
		!strings.Contains(r.stderr+r.stdout, "pincer trust") {
		t.Errorf("an untrusted project's command: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "made-by-command")); err == nil {
		t.Fatal("an untrusted project's command line ran, even with --yes")
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests for a command that was not sent", n)
	}
	if r := s.run("", "run", "/plain"); r.code != 0 {
		t.Errorf("a project's command without shell lines needs no trust: exit %d\n%s", r.code, r.stderr)
	}
	if r := s.run("", "trust", "--yes"); r.code != 0 || !strings.Contains(r.stdout, ".pincer/commands/risky.md") {
		t.Fatalf("pincer trust: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	r = s.run("", "run", "/ctx alpha")
	if r.code != 0 {
		t.Fatalf("run /ctx: exit %d\n%s", r.code, r.stderr)
	}
	reqs := srv.Requests()[1:] // after /plain's
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if err := agenttest.CheckStrict(reqs[0].Raw); err != nil {
		t.Errorf("the request is not valid: %v", err)
	}
	text := requestText(reqs[0])
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
	r = s.run("", "run", "/risky")
	if r.code == 0 {
		t.Errorf("a refused command's /risky exited 0")
	}
	if !strings.Contains(r.stderr+r.stdout, "was refused") {
		t.Errorf("the refusal is not said:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests after the refused command, want still 2", n)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "made-by-command")); err == nil {
		t.Error("the refused command ran")
	}

	// With --yes it runs, once, and the prompt goes out.
	if r = s.run("", "run", "--yes", "/risky"); r.code != 0 {
		t.Fatalf("run --yes /risky: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "made-by-command")); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests after the approved command, want 3", n)
	}
	// A change to the command is a change to what was trusted.
	s.write(".pincer/commands/risky.md", "Before:\n!touch made-again\nAfter.\n")
	if r = s.run("", "run", "--yes", "/risky"); r.code == 0 || !strings.Contains(r.stderr+r.stdout, "pincer trust") {
		t.Errorf("a changed command ran without a new trust: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "made-again")); err == nil {
		t.Error("the changed command's line ran")
	}
}

// TestTUICustomCommand: on the screen a command's model answers its turn
// only, and its "!" line asks for approval before it runs.
func TestTUICustomCommand(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("answered", 5))
	s := newSandbox(t, srv.BaseURL())
	s.write(".pincer/commands/review.md", "---\nmodel: review-model\n---\nReview $ARGUMENTS please.\n!touch review-ran\n")
	if r := s.run("", "trust", "--yes"); r.code != 0 {
		t.Fatalf("pincer trust: exit %d\n%s", r.code, r.stderr)
	}
	ts := newTmuxScreen(t, s, 110, 34, "-s", "cmds")
	ts.waitFor("the screen to open", "Ask pincer")
	ts.keys("/review api", "Enter")
	ts.waitFor("the approval of the command's line", "touch review-ran", "y ")
	ts.answerDialog("y", "Run this command?")
	ts.waitFor("the answer", "answered", "idle")
	if _, err := os.Stat(filepath.Join(s.dir, "review-ran")); err != nil {
		t.Errorf("the approved line did not run: %v", err)
	}
	ts.keys("and now plain", "Enter")
	ts.waitUntil("the second answer", "", func(screen string) bool { return strings.Count(screen, "answered") >= 2 })
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
	if text := requestText(reqs[0]); !strings.Contains(text, "Review api please.") || !strings.Contains(text, "$ touch review-ran") {
		t.Errorf("the command's prompt is wrong:\n%s", text)
	}
}
