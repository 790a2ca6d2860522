package agent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

func TestCheckSendsFailuresBackUntilItPasses(t *testing.T) {
	h := newHarness(t, 30,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "write_file", Arguments: args(map[string]any{"path": "a.txt", "content": "broken\n"})}),
		agenttest.Text("Done.", 5),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "write_file", Arguments: args(map[string]any{"path": "a.txt", "content": "fixed\n"})}),
		agenttest.Text("Fixed.", 5),
	)
	h.agent.opts.Check = &CheckOptions{Command: "grep -q fixed a.txt || { echo 'a.txt: not fixed'; exit 1; }"}
	res, err := h.run("write a.txt")
	if err != nil {
		t.Fatal(err)
	}
	if res.Check != "passed" || res.Text != "Fixed." || len(h.srv.Requests()) != 4 {
		t.Fatalf("result %+v after %d requests", res, len(h.srv.Requests()))
	}
	msgs := h.srv.Requests()[2].Body["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "user" || !strings.Contains(last["content"].(string), "a.txt: not fixed") || !strings.Contains(last["content"].(string), "round 1 of 3") {
		t.Errorf("the model was told %v", last)
	}
	var runs []string
	for _, ev := range h.events {
		if c, ok := ev.(Checked); ok {
			runs = append(runs, strings.Join([]string{c.Command[:4], map[bool]string{true: "passed", false: "failed"}[c.Passed]}, " "))
		}
	}
	if strings.Join(runs, ", ") != "grep failed, grep passed" {
		t.Errorf("checks %q", runs)
	}
	if h.records[4].Kind != KindCheck {
		t.Errorf("the check's message was stored as %+v", h.records[4])
	}
}

func TestCheckStopsAfterItsRounds(t *testing.T) {
	h := newHarness(t, 30,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "run_command", Arguments: args(map[string]any{"command": "touch x"})}),
		agenttest.Text("Done.", 5),
		agenttest.Tools("", agenttest.Call{ID: "c2", Name: "run_command", Arguments: args(map[string]any{"command": "touch y"})}),
		agenttest.Text("Still done.", 5),
		agenttest.Text("Not reached.", 5),
	)
	h.agent.opts.Check = &CheckOptions{Command: "false", Rounds: 2}
	res, err := h.run("touch")
	if err != nil {
		t.Fatal(err)
	}
	if res.Check != "failed" || res.Text != "Still done." || len(h.srv.Requests()) != 4 {
		t.Fatalf("result %+v after %d requests", res, len(h.srv.Requests()))
	}
	var notices []string
	for _, ev := range h.events {
		if n, ok := ev.(Notice); ok {
			notices = append(notices, n.Text)
		}
	}
	if !strings.Contains(strings.Join(notices, "\n"), "still fails after 2 rounds") {
		t.Errorf("notices %q", notices)
	}
}

// Asked once: a no is remembered, and nothing runs; a turn that changed
// nothing never runs the check.
func TestCheckAsksFirst(t *testing.T) {
	for _, allow := range []bool{false, true} {
		h := newHarness(t, 30,
			agenttest.Text("Nothing to change.", 5),
			agenttest.Tools("", agenttest.Call{ID: "c1", Name: "write_file", Arguments: args(map[string]any{"path": "a.txt", "content": "x\n"})}),
			agenttest.Text("Done.", 5),
		)
		var decided []bool
		h.agent.opts.Check = &CheckOptions{Command: "touch checked", Ask: true, Decided: func(run bool) { decided = append(decided, run) }}
		h.answer = func(a Approval) Decision { return Decision{Allow: a.Tool != "check" || allow} }
		if _, err := h.run("look"); err != nil {
			t.Fatal(err)
		}
		if len(h.asked) != 0 {
			t.Fatalf("asked %+v for a turn that changed nothing", h.asked)
		}
		if _, err := h.run("write"); err != nil {
			t.Fatal(err)
		}
		_, statErr := os.Stat(filepath.Join(h.root, "checked"))
		if len(decided) != 1 || decided[0] != allow || errors.Is(statErr, os.ErrNotExist) == allow {
			t.Errorf("allow=%v: decided %v, ran: %v", allow, decided, statErr == nil)
		}
	}
}
