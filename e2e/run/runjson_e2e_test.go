package run

import (
	"pincer/e2e/e2etest"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// TestRunJSONRefusedCallHasItsStart: with the binary, a command refused
// for want of --yes, and a call of a tool that does not exist, each get a
// tool_start line (with what the call would do) before their tool_result,
// as a call that runs does.
func TestRunJSONRefusedCallHasItsStart(t *testing.T) {
	t.Parallel()
	srv := agenttest.New(
		agenttest.Tools("",
			agenttest.Call{ID: "call_1", Name: "read_file", Arguments: `{"path":"notes.txt"}`},
			agenttest.Call{ID: "call_2", Name: "run_command", Arguments: `{"command":"touch made.txt"}`},
			agenttest.Call{ID: "call_3", Name: "no_such_tool", Arguments: `{}`}),
		agenttest.Text("Done.", 2),
	)
	defer srv.Close()
	s := e2etest.NewSandbox(t, srv.BaseURL())
	s.Write("notes.txt", "buy milk\n")
	r := s.Run("", "run", "--json", "read my notes and touch a file")
	if r.Code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	var got []string
	for _, l := range e2etest.JSONLines(t, r.Stdout) {
		switch l["type"] {
		case "tool_start":
			got = append(got, "start "+l["id"].(string)+" "+l["summary"].(string))
		case "tool_result":
			got = append(got, "result "+l["id"].(string))
		}
	}
	want := []string{"start call_1", "result call_1", "start call_2", "result call_2", "start call_3", "result call_3"}
	if len(got) != len(want) {
		t.Fatalf("tool lines %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("line %d is %q, want %q…", i, got[i], want[i])
		}
	}
	if !strings.Contains(got[2], "touch made.txt") || !strings.Contains(got[4], "no_such_tool") {
		t.Errorf("the refused calls' tool_start lines do not say what they are: %q", got)
	}
}
