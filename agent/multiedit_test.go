package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/agent/agenttest"
	"pincer/tools"
)

type twoFilesCall struct{ root string }

func (c twoFilesCall) Summary() string { return "rename x" }
func (c twoFilesCall) Access() tools.Access {
	return tools.Access{Writes: []string{filepath.Join(c.root, "a.go")}}
}
func (c twoFilesCall) Run(context.Context) (tools.Result, error) {
	return tools.Result{Content: "ran without review", IsError: true}, nil
}
func (c twoFilesCall) PlanAll(context.Context) ([]*tools.Change, error) {
	var out []*tools.Change
	for _, n := range []string{"a.go", "b.go"} {
		p := filepath.Join(c.root, n)
		before, _ := os.ReadFile(p)
		out = append(out, &tools.Change{Path: p, Rel: n, Before: before, After: []byte(strings.ReplaceAll(string(before), "x", "y")), Summary: "renamed x to y"})
	}
	return out, nil
}

// A rename across files is reviewed file by file: what the person accepts
// lands, what they refuse does not, and the model is told which.
func TestMultiFileEditsAreReviewedOneByOne(t *testing.T) {
	h := newHarness(t, 30,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "rename_all", Arguments: `{}`}),
		agenttest.Text("Done.", 5),
	)
	h.write("a.go", "var x = 1\n")
	h.write("b.go", "var z = x\n")
	tool, err := tools.New(tools.Spec[struct{}]{Name: "rename_all", Description: "rename", Mutates: true,
		Bind: func(struct{}) tools.Call { return twoFilesCall{root: h.root} }})
	if err != nil {
		t.Fatal(err)
	}
	h.agent.opts.DynamicTools = func() []tools.Tool { return []tools.Tool{tool} }
	h.answer = func(a Approval) Decision { return Decision{Allow: strings.Contains(a.Summary, "file 1 of 2")} }
	if _, err := h.run("rename"); err != nil {
		t.Fatal(err)
	}
	if len(h.asked) != 2 || h.asked[0].Kind != ApproveEdit || h.asked[1].Change == nil || h.asked[1].Change.Rel != "b.go" {
		t.Fatalf("asked %+v", h.asked)
	}
	a, _ := os.ReadFile(filepath.Join(h.root, "a.go"))
	b, _ := os.ReadFile(filepath.Join(h.root, "b.go"))
	if string(a) != "var y = 1\n" || string(b) != "var z = x\n" {
		t.Errorf("a.go %q, b.go %q", a, b)
	}
	got := h.toolMessages(1)[0]["content"].(string)
	if !strings.Contains(got, "changed a.go; not changed (the user refused): b.go") {
		t.Errorf("the model read %q", got)
	}
}
