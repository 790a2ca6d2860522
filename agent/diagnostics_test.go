package agent

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"pincer/agent/agenttest"
	"pincer/tools/lsp"
)

// fakeDiagnostics answers like a language server that finds an error in
// every file with "broken" in it.
type fakeDiagnostics struct {
	mu       sync.Mutex
	before   map[string]string
	touched  []string
	changed  [][]string
	refresh  int
	duringRe bool
}

func (f *fakeDiagnostics) Touch(paths ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.touched = append(f.touched, paths...)
}

func (f *fakeDiagnostics) Before(path string, content []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.before == nil {
		f.before = map[string]string{}
	}
	f.before[path] = string(content)
}

func (f *fakeDiagnostics) AfterChange(_ context.Context, paths []string) lsp.Report {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.changed = append(f.changed, paths)
	rep := lsp.Report{Servers: []string{"fakels"}, Baseline: true}
	for _, p := range paths {
		rep.Files = append(rep.Files, filepath.Base(p))
	}
	if strings.Contains(f.before[paths[0]], "fine") && len(f.changed) == 1 {
		rep.Items = []lsp.Item{{Path: "main.go", Line: 3, Column: 2, Severity: lsp.SeverityError, Message: "undefined: broken", New: true}}
		rep.Errors, rep.New, rep.Total = 1, 1, 1
	}
	rep.Notices = []string{"a notice from the servers"}
	return rep
}

func (f *fakeDiagnostics) Refresh(context.Context) lsp.Report {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refresh++
	return lsp.Report{}
}

func TestEditResultsCarryDiagnostics(t *testing.T) {
	h := newHarness(t, 30,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "read_file", Arguments: args(map[string]any{"path": "main.go"})}),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "edit_file", Arguments: args(map[string]any{"path": "main.go", "old_text": "fine", "new_text": "broken"})}),
		agenttest.Tools("", agenttest.Call{ID: "c3", Name: "edit_file", Arguments: args(map[string]any{"path": "main.go", "old_text": "broken", "new_text": "fixed"})}),
		agenttest.Tools("", agenttest.Call{ID: "c4", Name: "run_command", Arguments: args(map[string]any{"command": "ls"})}),
		agenttest.Text("Done.", 5),
	)
	diag := &fakeDiagnostics{}
	h.agent.opts.Diagnostics = diag
	h.write("main.go", "package main\n\nvar x = fine\n")
	if _, err := h.run("break it, then fix it"); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(h.root, "main.go")
	if len(diag.touched) != 1 || diag.touched[0] != main {
		t.Errorf("touched %q", diag.touched)
	}
	if diag.before[main] != "package main\n\nvar x = broken\n" || len(diag.changed) != 2 {
		t.Errorf("before %q, changed %q", diag.before, diag.changed)
	}
	// The request after the breaking edit carries the error, marked new.
	broke := h.toolMessages(2)[1]["content"].(string)
	if !strings.Contains(broke, "Edited main.go") || !strings.Contains(broke, "main.go:3:2: error: undefined: broken [new]") {
		t.Errorf("the model read:\n%s", broke)
	}
	fixed := h.toolMessages(3)[2]["content"].(string)
	if !strings.Contains(fixed, "Diagnostics (fakels): no errors in main.go.") {
		t.Errorf("after the fix the model read:\n%s", fixed)
	}
	if diag.refresh != 1 {
		t.Errorf("refreshed %d times after the command", diag.refresh)
	}
	var labels, notices []string
	for _, ev := range h.events {
		switch e := ev.(type) {
		case Diagnosed:
			labels = append(labels, e.ID+" "+e.Report.Label())
		case Notice:
			notices = append(notices, e.Text)
		}
	}
	if strings.Join(labels, "; ") != "c2 1 error; c3 no problems" {
		t.Errorf("diagnosed events %q", labels)
	}
	if len(notices) != 2 {
		t.Errorf("notices %q", notices)
	}
}

// Without servers the results are as they were.
func TestNoDiagnosticsWithoutServers(t *testing.T) {
	h := newHarness(t, 30,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "edit_file", Arguments: args(map[string]any{"path": "a.txt", "old_text": "a", "new_text": "b"})}),
		agenttest.Text("Done.", 5),
	)
	h.write("a.txt", "a\n")
	if _, err := h.run("edit"); err != nil {
		t.Fatal(err)
	}
	if got := h.toolMessages(1)[0]["content"].(string); strings.Contains(got, "Diagnostics") {
		t.Errorf("the model read %q", got)
	}
}
