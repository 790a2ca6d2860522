package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// offeredTools is the names of the tools a request offered.
func offeredTools(r agenttest.Request) []string {
	var names []string
	list, _ := r.Body["tools"].([]any)
	for _, raw := range list {
		fn, _ := raw.(map[string]any)["function"].(map[string]any)
		if name, ok := fn["name"].(string); ok {
			names = append(names, name)
		}
	}
	return names
}

// TestRunPlanChangesNothing: `pincer run --plan`, even with
// --dangerously-approve-all, offers the model no writing tool, refuses the
// write_file and the writing command it sends anyway (the files stay as
// they were, the model is told plan mode forbids them), and prints the plan.
func TestRunPlanChangesNothing(t *testing.T) {
	t.Parallel()
	plan := "1. Rename greet to hello in greet.txt.\n2. Run the tests."
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "write_file", Arguments: `{"path":"greet.txt","content":"overwritten"}`}),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "run_command", Arguments: `{"command":"touch made.txt"}`}),
		agenttest.Tools("", agenttest.Call{ID: "c3", Name: "run_command", Arguments: `{"command":"cat greet.txt"}`}),
		agenttest.Text(plan, 8),
	)
	defer srv.Close()
	s := newSandbox(t, srv.BaseURL())
	s.write("greet.txt", "greet\n")
	r := s.run("", "run", "--plan", "--dangerously-approve-all", "--sandbox", "off", "plan the rename")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Rename greet to hello") {
		t.Errorf("the plan was not printed:\n%s", r.stdout)
	}
	if data, _ := os.ReadFile(filepath.Join(s.dir, "greet.txt")); string(data) != "greet\n" {
		t.Errorf("greet.txt = %q, want it untouched", data)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "made.txt")); err == nil {
		t.Error("the writing command ran in plan mode")
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	for i, req := range reqs {
		if err := agenttest.CheckStrict(req.Raw); err != nil {
			t.Errorf("request %d: %v", i, err)
		}
		offered := offeredTools(req)
		for _, w := range []string{"write_file", "edit_file", "schedule_task"} {
			if slices.Contains(offered, w) {
				t.Errorf("request %d offers %s in plan mode: %v", i, w, offered)
			}
		}
		if !slices.Contains(offered, "read_file") || !slices.Contains(offered, "run_command") {
			t.Errorf("request %d lacks the read-only tools: %v", i, offered)
		}
	}
	results := toolResults(reqs[3])
	if len(results) != 3 {
		t.Fatalf("tool results %v, want 3", results)
	}
	if !strings.Contains(results[0], "plan mode, which forbids write_file") {
		t.Errorf("write_file result does not say plan mode forbids it: %q", results[0])
	}
	if !strings.Contains(results[1], "plan mode") || !strings.Contains(results[1], "read-only commands") {
		t.Errorf("the writing command's result does not say plan mode refused it: %q", results[1])
	}
	if !strings.Contains(results[2], "greet") {
		t.Errorf("the read-only command did not run: %q", results[2])
	}
}
