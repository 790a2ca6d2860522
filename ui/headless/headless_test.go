package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"pincer/agent"
	"pincer/safety"
	"pincer/tools"
)

func TestPolicyApprover(t *testing.T) {
	cases := []struct {
		name      string
		policy    Policy
		approval  agent.Approval
		wantAllow bool
		wantFlag  string // in the refusal note; "" when allowed
		wantIn    string // also in the refusal note, when set
	}{
		{"confirm without flags", Policy{}, agent.Approval{Kind: agent.ApproveCommand, Step: 1, Tier: safety.Confirm, Summary: "run_command touch x"}, false, "--yes", ""},
		{"confirm with --yes", Policy{Yes: true}, agent.Approval{Kind: agent.ApproveCommand, Step: 1, Tier: safety.Confirm}, true, "", ""},
		{"dangerous with --yes", Policy{Yes: true}, agent.Approval{Kind: agent.ApproveCommand, Step: 1, Tier: safety.Dangerous, Reasons: []string{"rm -rf x: recursive forced delete"}}, false, "--dangerously-approve-all", ""},
		{"dangerous step 2 with --yes", Policy{Yes: true}, agent.Approval{Kind: agent.ApproveCommand, Step: 2, Tier: safety.Dangerous}, false, "", ""},
		{"dangerous with approve-all", Policy{ApproveAll: true}, agent.Approval{Kind: agent.ApproveCommand, Step: 1, Tier: safety.Dangerous}, true, "", ""},
		{"dangerous step 2 with approve-all", Policy{ApproveAll: true}, agent.Approval{Kind: agent.ApproveCommand, Step: 2, Tier: safety.Dangerous}, true, "", ""},
		{"leaving the sandbox with approve-all", Policy{ApproveAll: true}, agent.Approval{Kind: agent.ApproveUnsandboxed, Step: 1, Tier: safety.Confirm, Reasons: []string{"write to /x"}}, false, "--sandbox off", ""},
		{"leaving the sandbox with --yes", Policy{Yes: true}, agent.Approval{Kind: agent.ApproveUnsandboxed, Step: 1, Tier: safety.Confirm}, false, "--sandbox off", ""},
		{"edit without flags", Policy{}, agent.Approval{Kind: agent.ApproveEdit, Step: 1, Tier: safety.Confirm, Change: &tools.Change{Rel: "a.go"}}, false, "--yes", ""},
		{"edit with --yes", Policy{Yes: true}, agent.Approval{Kind: agent.ApproveEdit, Step: 1, Tier: safety.Confirm, Change: &tools.Change{Rel: "a.go"}}, true, "", ""},
		{"path outside the project with --yes", Policy{Yes: true}, agent.Approval{Kind: agent.ApprovePath, Step: 1, Tier: safety.Confirm}, true, "", ""},
		// A read of a secret: the jail hides it from approved commands,
		// and the file tools run outside the jail.
		{"a secret with --yes", Policy{Yes: true}, agent.Approval{Kind: agent.ApprovePath, Step: 1, Tier: safety.Confirm, Secret: true, Summary: "read_file ~/.aws/credentials"}, false, "--dangerously-approve-all", ""},
		{"a secret with approve-all", Policy{ApproveAll: true}, agent.Approval{Kind: agent.ApprovePath, Step: 1, Tier: safety.Confirm, Secret: true}, true, "", ""},
		// A scheduled task runs later, unattended: only the flag that
		// names scheduling approves it.
		{"scheduling with --yes", Policy{Yes: true}, agent.Approval{Kind: agent.ApproveAction, Schedule: true, Step: 1, Tier: safety.Confirm, Summary: "schedule_task every 1m: run curl"}, false, "--allow-schedule", ""},
		{"scheduling with approve-all", Policy{ApproveAll: true}, agent.Approval{Kind: agent.ApproveAction, Schedule: true, Step: 1, Tier: safety.Confirm}, false, "--allow-schedule", ""},
		{"scheduling with --allow-schedule", Policy{AllowSchedule: true}, agent.Approval{Kind: agent.ApproveAction, Schedule: true, Step: 1, Tier: safety.Confirm}, true, "", ""},
		// An MCP call is named on one line, its arguments compact.
		{"an MCP call without flags", Policy{}, agent.Approval{Kind: agent.ApproveAction, Step: 1, Tier: safety.Confirm,
			Summary: "tool echo of the MCP server ev, with the arguments:\n{\n  \"message\": \"ping\"\n}",
			MCP:     &tools.MCPUse{Server: "ev", Tool: "echo", Arguments: "{\n  \"message\": \"ping\"\n}"}}, false, "--yes",
			`refused tool echo of the MCP server ev with the arguments {"message":"ping"}: it needs`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var errOut bytes.Buffer
			d, err := tc.policy.Approver(&errOut).Approve(context.Background(), tc.approval)
			if err != nil {
				t.Fatal(err)
			}
			if d.Allow != tc.wantAllow {
				t.Errorf("allow = %v, want %v", d.Allow, tc.wantAllow)
			}
			if tc.wantFlag == "" && errOut.Len() > 0 {
				t.Errorf("unexpected note %q", errOut.String())
			}
			if tc.wantIn != "" && !strings.Contains(errOut.String(), tc.wantIn) {
				t.Errorf("note %q lacks %q", errOut.String(), tc.wantIn)
			}
			if tc.wantFlag != "" && !strings.Contains(errOut.String(), tc.wantFlag) {
				t.Errorf("note %q does not name %s", errOut.String(), tc.wantFlag)
			}
			// A refusal by tier says what is missing in words, not "confirm
			// needs approval".
			if strings.HasPrefix(tc.wantFlag, "--yes") || strings.HasPrefix(tc.wantFlag, "--dangerously") {
				if want := "needs your approval (rated " + tc.approval.Tier.String(); !strings.Contains(errOut.String(), want) {
					t.Errorf("note %q lacks %q", errOut.String(), want)
				}
			}
			for _, r := range tc.approval.Reasons {
				if !strings.Contains(errOut.String(), r) {
					t.Errorf("note %q lacks the reason %q", errOut.String(), r)
				}
			}
		})
	}
}

func TestTextOutput(t *testing.T) {
	var out, errOut bytes.Buffer
	p := NewPrinter(&out, &errOut, false)
	p.Event(agent.TextDelta{Text: "Let me "})
	p.Event(agent.TextDelta{Text: "look."})
	p.Event(agent.AssistantMessage{})
	p.Event(agent.ToolStarted{Summary: "read_file a.go"})
	p.Event(agent.ToolResult{Content: "1\tpackage a\n2\t", IsError: false})
	p.Event(agent.ToolResult{Content: "no such file", IsError: true})
	p.Event(agent.TextDelta{Text: "Done.\n"})
	p.Event(agent.AssistantMessage{})
	if code := p.Finish(agent.Result{StopReason: "answer"}, nil); code != ExitOK {
		t.Errorf("exit %d", code)
	}
	if got, want := out.String(), "Let me look.\nDone.\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	for _, want := range []string{"▸ read_file a.go", "✓ 1   package a …", "✗ no such file"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr %q lacks %q", errOut.String(), want)
		}
	}
}

func TestFinishExitCodes(t *testing.T) {
	cases := []struct {
		name    string
		res     agent.Result
		err     error
		want    int
		wantMsg string
	}{
		{"answer", agent.Result{StopReason: "answer"}, nil, ExitOK, ""},
		{"model error", agent.Result{StopReason: "error"}, errors.New("the model server answered 500"), ExitFailure, "500"},
		{"interrupted", agent.Result{StopReason: "cancelled"}, context.Canceled, ExitFailure, "interrupted"},
		{"iteration limit", agent.Result{StopReason: "max_iterations", Iterations: 31}, nil, ExitFailure, "iteration limit"},
	}
	for _, tc := range cases {
		for _, asJSON := range []bool{false, true} {
			var out, errOut bytes.Buffer
			p := NewPrinter(&out, &errOut, asJSON)
			if got := p.Finish(tc.res, tc.err); got != tc.want {
				t.Errorf("%s json=%v: exit %d, want %d", tc.name, asJSON, got, tc.want)
			}
			if !asJSON {
				if !strings.Contains(errOut.String(), tc.wantMsg) {
					t.Errorf("%s: stderr %q lacks %q", tc.name, errOut.String(), tc.wantMsg)
				}
				continue
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			var last map[string]any
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
				t.Fatal(err)
			}
			if last["type"] != "result" || last["is_error"] != (tc.want != ExitOK) || last["stop_reason"] != tc.res.StopReason {
				t.Errorf("%s: result line %v", tc.name, last)
			}
			if tc.err != nil && !strings.Contains(out.String(), `"type":"error"`) {
				t.Errorf("%s: no error line in %q", tc.name, out.String())
			}
		}
	}
}

func TestJSONAssistantLine(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, &bytes.Buffer{}, true)
	p.Event(agent.AssistantMessage{FinishReason: "tool_calls", Message: agent.Message{Content: "x", ToolCalls: []agent.ToolCall{
		{ID: "a", Name: "read_file", Arguments: `{"path":"f"}`},
		{ID: "b", Name: "glob", Arguments: `{"pattern":`},
	}}})
	var line struct {
		Type      string `json:"type"`
		ToolCalls []struct {
			ID        string `json:"id"`
			Arguments any    `json:"arguments"`
		} `json:"tool_calls"`
		FinishReason string `json:"finish_reason"`
	}
	if err := json.Unmarshal(out.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	if line.Type != "assistant" || line.FinishReason != "tool_calls" || len(line.ToolCalls) != 2 {
		t.Fatalf("line %+v", line)
	}
	if m, ok := line.ToolCalls[0].Arguments.(map[string]any); !ok || m["path"] != "f" {
		t.Errorf("valid arguments not parsed: %#v", line.ToolCalls[0].Arguments)
	}
	if s, ok := line.ToolCalls[1].Arguments.(string); !ok || s != `{"pattern":` {
		t.Errorf("invalid arguments not kept as text: %#v", line.ToolCalls[1].Arguments)
	}
	if !strings.HasPrefix(out.String(), `{"type":"assistant"`) {
		t.Errorf("type is not the first field: %s", out.String())
	}
}

// TestTextOutputNamesRefusedCalls: a call refused before it started gets
// the line a started call has, with the agent's summary (which says when
// the model wrote it as text), before its ✗.
func TestTextOutputNamesRefusedCalls(t *testing.T) {
	var out, errOut bytes.Buffer
	p := NewPrinter(&out, &errOut, false)
	p.Event(agent.ToolStarted{ID: "c1", Summary: "read_file a.go"})
	p.Event(agent.ToolResult{ID: "c1", Summary: "read_file a.go", Content: "1\tpackage a"})
	p.Event(agent.ToolResult{ID: "c2", Summary: "read_file b.go (recovered from text)", Content: "User cancelled the operation", IsError: true})
	want := "▸ read_file a.go\n  ✓ 1   package a\n▸ read_file b.go (recovered from text)\n  ✗ User cancelled the operation\n"
	if got := errOut.String(); got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
}
