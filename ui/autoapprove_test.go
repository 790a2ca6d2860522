package ui

import (
	"testing"

	"pincer/agent"
	"pincer/safety"
)

// TestAcceptEditsOnlyAnswersProjectEdits checks what the accept-edits mode
// answers unasked: an edit of the project's own files, and nothing whose
// path needs a yes of its own, nothing dangerous, nothing a hook asked.
func TestAcceptEditsOnlyAnswersProjectEdits(t *testing.T) {
	cases := []struct {
		name string
		q    agent.Approval
		mode agent.Mode
		want bool
	}{
		{"a project edit", agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Confirm}, agent.ModeAcceptEdits, true},
		{"a project edit, asking", agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Confirm}, agent.ModeAsk, false},
		{"outside the project", agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Confirm, PathAsked: true}, agent.ModeAcceptEdits, false},
		{"dangerous", agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Dangerous, PathAsked: true}, agent.ModeAcceptEdits, false},
		{"a hook asked", agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Confirm, HookAsked: true}, agent.ModeAcceptEdits, false},
		{"a command", agent.Approval{Kind: agent.ApproveCommand, Tier: safety.Confirm}, agent.ModeAcceptEdits, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newTestApp(t, 100, 30)
			a.setMode(c.mode, false)
			if got := a.autoApproves(c.q); got != c.want {
				t.Errorf("autoApproves = %v, want %v", got, c.want)
			}
		})
	}
}
