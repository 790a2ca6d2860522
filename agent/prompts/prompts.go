// Package prompts holds what pincer tells the model by default, embedded
// in the binary: AGENT.md (who the assistant is and how it behaves) and
// SKILLS.md (how to use its tools, and the multi-step workflows it knows)
// for the full profile, and COMPACT.md, the whole of it for the compact
// profile that small context windows get. They live with the agent, apart
// from the user documentation in docs/, so editing the documentation
// never changes what the model is told.
package prompts

import _ "embed"

// AgentMD is the default AGENT.md: character, rules and formatting. Its
// {{.Env}} placeholder receives the computed environment facts.
//
//go:embed AGENT.md
var AgentMD string

// SkillsMD is the default SKILLS.md: habits that go with the tools, and
// the composite skills.
//
//go:embed SKILLS.md
var SkillsMD string

// CompactMD is the compact profile's AGENT.md: the rules that matter most
// in a few lines, with the {{.Env}} placeholder; it has no SKILLS.md.
//
//go:embed COMPACT.md
var CompactMD string

// Defaults returns the built-in AGENT.md and SKILLS.md texts of a profile:
// "compact", or anything else for the full one.
func Defaults(profile string) (agentMD, skillsMD string) {
	if profile == "compact" {
		return CompactMD, ""
	}
	return AgentMD, SkillsMD
}
