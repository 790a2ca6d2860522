package cli

import (
	"context"
	"strings"
	"testing"

	"pincer/agent"
	"pincer/agent/llm"
	"pincer/safety"
	"pincer/tools"
)

// noModel is a model that is never asked.
type noModel struct{}

func (noModel) Complete(context.Context, llm.Request, func(agent.Event)) (llm.Reply, error) {
	return llm.Reply{}, nil
}

// TestDescribeAgents: /agents lists each agent with its tools, model and
// file (the home directory shortened), and the files left out and why.
func TestDescribeAgents(t *testing.T) {
	reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: t.TempDir()})...)
	if err != nil {
		t.Fatal(err)
	}
	cls, _ := safety.NewClassifier(safety.Rules{})
	a, err := agent.New(agent.Options{Model: noModel{}, Tools: reg, Safety: cls, SubAgents: &agent.SubAgents{
		Agents: []agent.AgentDef{
			{Name: "scout", Description: "finds things", Path: "/home/me/.config/pincer/agents/scout.md"},
			{Name: "scribe", Tools: []string{"read_file", "write_file"}, Model: "big", Path: "/p/.pincer/agents/scribe.md"},
			{Name: "typo", Tools: []string{"nope"}, Path: "/p/.pincer/agents/typo.md"},
		},
		Warnings: []string{"left out the agent file /p/.pincer/agents/bad.md: too large"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := describeAgents(a, "/home/me")
	for _, want := range []string{
		"• scout — finds things\n  tools: read-only default · ~/.config/pincer/agents/scout.md",
		"• scribe — (no description)\n  tools: read_file, write_file, model big · /p/.pincer/agents/scribe.md",
		"! left out the agent file /p/.pincer/agents/bad.md: too large",
		`! left out the agent typo (/p/.pincer/agents/typo.md): it names the unknown tool "nope"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("/agents lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "• typo") {
		t.Errorf("a left-out agent is listed:\n%s", got)
	}
}
