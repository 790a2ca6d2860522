package acp

import (
	"slices"
	"strings"
	"testing"

	"pincer/agent"
	"pincer/safety"
	"pincer/tools"
)

// TestOptions: the answers each question offers. "Always" only where the
// screen offers it (a rule fits, not dangerous, not a scheduled task, not
// leaving the sandbox); a dangerous action's second step leads with the
// refusal and labels its one yes with the command.
func TestOptions(t *testing.T) {
	cmd := agent.Approval{Kind: agent.ApproveCommand, Command: "go install ./...", Tier: safety.Confirm, SuggestedRule: "go install *"}
	danger := agent.Approval{Kind: agent.ApproveCommand, Command: "rm -rf build", Tier: safety.Dangerous, SuggestedRule: "rm *"}
	edit := agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Confirm, Change: &tools.Change{Path: "/p/a.go"}}
	with := func(a agent.Approval, f func(*agent.Approval)) agent.Approval { f(&a); return a }
	for _, tc := range []struct {
		name string
		a    agent.Approval
		want []string // id:kind:name
	}{
		{"a command a rule fits", cmd, []string{"allow:allow_once:Allow once", "allow-always:allow_always:Always allow go install * in this session", "reject:reject_once:No"}},
		{"a command no rule fits", with(cmd, func(a *agent.Approval) { a.SuggestedRule = "" }), []string{"allow:allow_once:Allow once", "reject:reject_once:No"}},
		{"dangerous, first step", danger, []string{"allow:allow_once:Yes (a second confirmation follows)", "reject:reject_once:No"}},
		{"dangerous, second step", with(danger, func(a *agent.Approval) { a.Step = 2 }), []string{"reject:reject_once:No, do not run it", "yes-run-it:allow_once:rm -rf build — yes, run it"}},
		{"an edit", edit, []string{"allow:allow_once:Apply this edit", "accept-edits:allow_always:Apply, and accept edits from now on", "reject:reject_once:No"}},
		{"an edit a hook asks about", with(edit, func(a *agent.Approval) { a.HookAsked = true }), []string{"allow:allow_once:Apply this edit", "reject:reject_once:No"}},
		{"a dangerous edit", with(edit, func(a *agent.Approval) { a.Tier = safety.Dangerous }), []string{"allow:allow_once:Yes (a second confirmation follows)", "reject:reject_once:No"}},
		{"a scheduled task", agent.Approval{Kind: agent.ApproveAction, Schedule: true, Tier: safety.Confirm, SuggestedRule: "x"}, []string{"allow:allow_once:Allow once", "reject:reject_once:No"}},
		{"leaving the sandbox", with(cmd, func(a *agent.Approval) { a.Kind = agent.ApproveUnsandboxed }), []string{"allow:allow_once:Allow once", "reject:reject_once:No"}},
		{"a command with a line break, second step", agent.Approval{Kind: agent.ApproveCommand, Command: "rm -rf a\nrm -rf b", Tier: safety.Dangerous, Step: 2},
			[]string{"reject:reject_once:No, do not run it", "yes-run-it:allow_once:rm -rf a␊rm -rf b — yes, run it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, o := range options(tc.a) {
				got = append(got, o.OptionID+":"+o.Kind+":"+o.Name)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("options\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestQuestionShowsItWhole: the question shows the command whole, in a
// fence no line of it can close, with control characters made visible;
// an edit's carries its diff.
func TestQuestionShowsItWhole(t *testing.T) {
	s := &session{conv: &Conversation{Root: "/p"}, calls: map[string]*call{}, byID: map[string]string{}}
	c := &call{key: "k", title: "run_command", kind: "execute"}
	cmd := "echo ```\x1b[2J\nrm -rf /tmp/x"
	q := s.question("k", c, agent.Approval{Kind: agent.ApproveCommand, Command: cmd, Tier: safety.Confirm, Reasons: []string{"writes /tmp"}})
	body := q.Content[0].Content.Text
	if !strings.Contains(body, "````sh\necho ```␛[2J\nrm -rf /tmp/x\n````") || !strings.Contains(body, "writes /tmp") {
		t.Errorf("the question reads:\n%s", body)
	}
	before := "a\n"
	e := s.question("k", c, agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Confirm, Change: &tools.Change{Path: "/p/a.txt", Before: []byte(before), After: []byte("b\n")}})
	if len(e.Content) != 2 || e.Content[1].Type != "diff" || *e.Content[1].OldText != before || *e.Content[1].NewText != "b\n" || e.Kind != "edit" {
		t.Errorf("the edit's question: %+v", e)
	}
}

// TestQuestionTitleInert: a question's title, which an editor may render
// as markdown, carries the model's image links inert.
func TestQuestionTitleInert(t *testing.T) {
	s := &session{conv: &Conversation{Root: "/p"}, calls: map[string]*call{}, byID: map[string]string{}}
	for _, c := range []struct{ title, want string }{
		{"run_command echo ![x](https://evil.example/?q=s)", `run_command echo \![x](https://evil.example/?q=s)`},
		{"run_command echo <img src=https://evil.example/>", `run_command echo \<img src=https://evil.example/>`},
		{"read_file notes.md", "read_file notes.md"},
	} {
		q := s.question("k", &call{key: "k", title: c.title, kind: "execute"}, agent.Approval{Kind: agent.ApproveCommand, Command: "true", Tier: safety.Confirm})
		if q.Title != c.want {
			t.Errorf("title %q asked as %q, want %q", c.title, q.Title, c.want)
		}
	}
}

// modeAgent is an Agent whose mode is fixed; nothing else is called.
type modeAgent struct {
	Agent
	mode agent.Mode
}

func (m modeAgent) Mode() agent.Mode { return m.mode }

// TestAutoApprovesReadsTheSessionsMode: the editor's session answers an
// edit unasked by the agent's one rule (agent.Approval.AnsweredUnasked,
// tested there) in the mode the session's agent is in.
func TestAutoApprovesReadsTheSessionsMode(t *testing.T) {
	edit := agent.Approval{Kind: agent.ApproveEdit, Tier: safety.Confirm, Change: &tools.Change{Path: "/p/a.go"}}
	for _, tc := range []struct {
		mode agent.Mode
		want bool
	}{{agent.ModeAcceptEdits, true}, {agent.ModeAsk, false}} {
		s := &session{conv: &Conversation{Root: "/p", Agent: modeAgent{mode: tc.mode}}}
		if got := s.autoApproves(edit); got != tc.want {
			t.Errorf("in mode %v autoApproves = %v, want %v", tc.mode, got, tc.want)
		}
	}
}
