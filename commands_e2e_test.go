package main

import (
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
