package tui

import (
	"os"
	"path/filepath"
	"pincer/e2e/e2etest"
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
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("greet.txt", "greet\n")
	r := s.Run("", "run", "--plan", "--dangerously-approve-all", "--sandbox", "off", "plan the rename")
	if r.Code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stdout, "Rename greet to hello") {
		t.Errorf("the plan was not printed:\n%s", r.Stdout)
	}
	if data, _ := os.ReadFile(filepath.Join(s.Dir, "greet.txt")); string(data) != "greet\n" {
		t.Errorf("greet.txt = %q, want it untouched", data)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "made.txt")); err == nil {
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
	results := e2etest.ToolResults(reqs[3])
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

// TestTUIPlanMode drives the screen in tmux: shift+tab cycles the mode and
// the status line shows it; in plan mode the request offers no writing
// tool and a write_file call is refused with the file untouched; /plan
// save writes the plan; /plan go goes back to ask and sends the plan; in
// accept edits an edit lands without a dialog and its diff shows.
func TestTUIPlanMode(t *testing.T) {
	plan := "1. Rename greet to hello in greet.txt."
	srv := agenttest.New(
		agenttest.Tools("", agenttest.Call{ID: "w1", Name: "write_file", Arguments: `{"path":"greet.txt","content":"overwritten"}`}),
		agenttest.Text(plan, 8),
		agenttest.Text("Carried out.", 6),
		agenttest.Tools("", agenttest.Call{ID: "e1", Name: "edit_file", Arguments: `{"path":"greet.txt","old_text":"greet","new_text":"hello"}`}),
		agenttest.Text("Edited.", 6),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("greet.txt", "greet\n")
	ts := e2etest.NewTmuxScreen(t, s, 110, 30, "-s", "plan-e2e")
	ts.WaitFor("the screen to open", "Ask pincer", " ask · idle")

	ts.Keys("BTab")
	ts.WaitFor("accept edits in the status line", " accept edits · idle")
	ts.Keys("BTab")
	ts.WaitFor("plan in the status line", " plan  · idle")

	ts.Keys("plan the rename", "Enter")
	ts.WaitFor("the plan", "Rename greet to hello", "Plan ready", "plan mode, which forbids write_file")
	if data, _ := os.ReadFile(filepath.Join(s.Dir, "greet.txt")); string(data) != "greet\n" {
		t.Fatalf("greet.txt = %q after plan mode, want it untouched", data)
	}

	ts.Keys("/plan save", "Enter")
	ts.WaitFor("the plan to be saved", "Saved the plan to PLAN.md")
	if data, _ := os.ReadFile(filepath.Join(s.Dir, "PLAN.md")); string(data) != plan+"\n" {
		t.Errorf("PLAN.md = %q", data)
	}

	ts.Keys("/plan go", "Enter")
	ts.WaitFor("the plan to be carried out", "Carried out.", " ask · idle")

	ts.Keys("BTab")
	ts.WaitFor("accept edits", " accept edits · idle")
	ts.Keys("now edit it", "Enter")
	screen := ts.WaitFor("the edit without a dialog", "Edited.", "+hello")
	if strings.Contains(screen, "Review the edit") {
		t.Errorf("accept edits opened the review:\n%s", screen)
	}
	if data, _ := os.ReadFile(filepath.Join(s.Dir, "greet.txt")); string(data) != "hello\n" {
		t.Errorf("greet.txt = %q after accept edits, want hello", data)
	}

	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	for i, r := range reqs {
		if err := agenttest.CheckStrict(r.Raw); err != nil {
			t.Errorf("request %d: %v", i, err)
		}
	}
	for i := range 2 {
		if offered := offeredTools(reqs[i]); slices.Contains(offered, "write_file") || slices.Contains(offered, "edit_file") {
			t.Errorf("plan-mode request %d offers writing tools: %v", i, offered)
		}
	}
	if offered := offeredTools(reqs[2]); !slices.Contains(offered, "edit_file") {
		t.Errorf("after /plan go the request lacks edit_file: %v", offered)
	}
	msgs := reqs[2].Body["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "user" || !strings.Contains(last["content"].(string), plan) {
		t.Errorf("/plan go sent %v, want the plan as the user's message", last)
	}
}

// TestTUIStartsInPlanMode: pincer --plan opens the screen in plan mode,
// and the first request offers only the read-only tools.
func TestTUIStartsInPlanMode(t *testing.T) {
	srv := agenttest.New(agenttest.Text("1. Look. 2. Change.", 6))
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	ts := e2etest.NewTmuxScreen(t, s, 100, 24, "--plan")
	ts.WaitFor("plan mode", "Ask pincer", " plan  · idle")
	ts.Keys("what would you do?", "Enter")
	ts.WaitFor("the plan", "1. Look. 2. Change.", "Plan ready")
	if offered := offeredTools(srv.Requests()[0]); slices.Contains(offered, "write_file") {
		t.Errorf("pincer --plan offered write_file: %v", offered)
	}
}
