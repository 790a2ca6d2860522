package ui

import (
	"context"
	"strings"
	"testing"

	"pincer/agent"
	"pincer/safety"
	"pincer/tools"
	"pincer/tools/lsp"
)

// refreshOnly is a language-server manager that only answers Refresh,
// with the report a rewind would bring.
type refreshOnly struct {
	report lsp.Report
	asked  int
}

func (r *refreshOnly) Touch(...string)                                  {}
func (r *refreshOnly) Before(string, []byte)                            {}
func (r *refreshOnly) AfterChange(context.Context, []string) lsp.Report { return lsp.Report{} }
func (r *refreshOnly) Refresh(context.Context) lsp.Report               { r.asked++; return r.report }

// TestRewindAsksTheLanguageServersAgain: after a rewind put files back,
// the status line and the tree show what the servers say of the files
// now, not the errors of the files the rewind took away; a rewind of the
// conversation alone asks nothing.
func TestRewindAsksTheLanguageServersAgain(t *testing.T) {
	a := newTestApp(t, 120, 36)
	d := &refreshOnly{report: lsp.Report{Servers: []string{"gopls"}, Problems: map[string]int{}, Total: 0}}
	reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: a.opts.Root})...)
	if err != nil {
		t.Fatal(err)
	}
	cls, _ := safety.NewClassifier(safety.Rules{})
	ag, err := agent.New(agent.Options{Model: silentModel{t}, Tools: reg, Safety: cls, Root: a.opts.Root, Diagnostics: d, Budget: agent.Budget{ContextWindow: 30000, CompressAt: 0.8, KeepRecent: 10}})
	if err != nil {
		t.Fatal(err)
	}
	a.agent = ag
	a.diagErrors, a.diagSeen = 2, true
	a.tree.SetProblems(map[string]int{"main.go": 2})
	if s := screen(a); !strings.Contains(s, "2 errors") {
		t.Fatalf("the status does not show the errors before the rewind:\n%s", s)
	}
	if cmd := a.rediagnose(false); cmd != nil {
		t.Error("a rewind of the conversation alone asks the servers")
	}
	cmd := a.rediagnose(true)
	if cmd == nil {
		t.Fatal("a rewind of the files does not ask the servers")
	}
	a.Update(cmd())
	if d.asked != 1 {
		t.Errorf("the servers were asked %d times", d.asked)
	}
	s := screen(a)
	if strings.Contains(s, "2 errors") || !strings.Contains(s, "0 errors") {
		t.Errorf("after the rewind the status still shows the old errors:\n%s", s)
	}
}
