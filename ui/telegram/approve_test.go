package telegram

import (
	"strings"
	"testing"

	"pincer/agent"
	"pincer/safety"
)

// TestQuestionSaysWhoAsks: a sub-agent's approval names it, and one a
// hook asked for says so, as the screen's dialog does; what they carry is
// escaped for Telegram's HTML.
func TestQuestionSaysWhoAsks(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    agent.Approval
		want []string
		not  []string
	}{
		{"main agent", agent.Approval{Kind: agent.ApproveCommand, Command: "touch x", Tier: safety.Confirm}, []string{"Run this command?", "touch x"}, []string{"asked by", "hook"}},
		{"sub-agent", agent.Approval{Kind: agent.ApproveCommand, Command: "touch x", Tier: safety.Confirm, Agent: "sub-agent <scribe> (notes)"}, []string{"asked by sub-agent &lt;scribe&gt; (notes)"}, []string{"<scribe>"}},
		{"hook", agent.Approval{Kind: agent.ApproveCommand, Command: "ls", Tier: safety.Safe, HookAsked: true}, []string{"a hook asked for this approval"}, nil},
	} {
		text, _ := question(tc.a)
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q lacks %q", tc.name, text, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(text, n) {
				t.Errorf("%s: %q holds %q", tc.name, text, n)
			}
		}
	}
}
