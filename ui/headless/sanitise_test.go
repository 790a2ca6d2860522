package headless

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"pincer/agent"
	"pincer/internal/safetext/safetexttest"
	"pincer/safety"
	"pincer/tools"
)

// TestTextOutputSanitises feeds each hostile string through every line
// `pincer run` prints: on a terminal nothing foreign may drive it; piped,
// the answer stays exact while the activity lines are still sanitised.
func TestTextOutputSanitises(t *testing.T) {
	for _, tc := range safetexttest.Cases() {
		for _, terminal := range []bool{true, false} {
			var out, errOut bytes.Buffer
			p := NewPrinter(&out, &errOut, false)
			p.cleanOut = terminal
			p.Event(agent.TextDelta{Text: "answer " + tc.Raw})
			p.Event(agent.TextDelta{Text: " more\n"})
			p.Event(agent.AssistantMessage{})
			p.Event(agent.ToolStarted{Summary: "run_command " + tc.Raw})
			p.Event(agent.ToolResult{Content: "output " + tc.Raw})
			p.Event(agent.Notice{Text: "notice " + tc.Raw})
			p.Event(agent.Retrying{Attempt: 1, Err: errors.New("server said " + tc.Raw)})
			ap := Policy{}.Approver(&errOut)
			ap.Approve(context.Background(), agent.Approval{Kind: agent.ApproveCommand, Step: 1, Tier: safety.Confirm, Summary: "run_command " + tc.Raw, Reasons: []string{tc.Raw}})
			ap.Approve(context.Background(), agent.Approval{Kind: agent.ApproveEdit, Step: 1, Tier: safety.Confirm, Change: &tools.Change{Rel: "f" + tc.Raw}})
			p.Finish(agent.Result{}, errors.New("failed: "+tc.Raw))

			if err := safetexttest.Check(errOut.String()); err != nil {
				t.Errorf("%s, terminal %v: stderr: %v\n%q", tc.Name, terminal, err, errOut.String())
			}
			if n := strings.Count(errOut.String(), tc.Visible); n != 8 {
				t.Errorf("%s, terminal %v: stderr shows %q %d times, want 8:\n%s", tc.Name, terminal, tc.Visible, n, errOut.String())
			}
			if !terminal {
				if want := "answer " + tc.Raw + " more\n"; out.String() != want {
					t.Errorf("%s: piped answer %q, want it exact: %q", tc.Name, out.String(), want)
				}
				continue
			}
			if err := safetexttest.Check(out.String()); err != nil {
				t.Errorf("%s: stdout on a terminal: %v\n%q", tc.Name, err, out.String())
			}
			if !strings.Contains(out.String(), "answer "+tc.Visible+" more") {
				t.Errorf("%s: stdout %q lacks %q", tc.Name, out.String(), tc.Visible)
			}
		}
	}
}

// TestTerminalAnswerKeepsSplitLineBreaks checks that a "\r\n" split
// between two streamed pieces is a line break, not a visible ␍, and that a
// lone "\r" at the end is shown.
func TestTerminalAnswerKeepsSplitLineBreaks(t *testing.T) {
	var out, errOut bytes.Buffer
	p := NewPrinter(&out, &errOut, false)
	p.cleanOut = true
	for _, d := range []string{"one\r", "\ntwo\r", "x\tthree\r"} {
		p.Event(agent.TextDelta{Text: d})
	}
	p.Event(agent.AssistantMessage{})
	if got, want := out.String(), "one\ntwo␍x   three␍\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}
