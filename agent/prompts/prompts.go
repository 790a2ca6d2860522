// Package prompts holds what pincer tells the model by default, embedded
// in the binary: AGENT.md (who the assistant is and how it behaves) and
// SKILLS.md (how to use its tools, and the multi-step workflows it knows).
// They live with the agent, apart from the user documentation in docs/, so
// editing the documentation never changes what the model is told.
package prompts

import _ "embed"

// AgentMD is the default AGENT.md: character, rules and formatting. Its
// {{.Env}} placeholder receives the computed environment facts.
//
//go:embed AGENT.md
var AgentMD string

// SkillsMD is the default SKILLS.md: when and how to use each tool, and the
// composite skills.
//
//go:embed SKILLS.md
var SkillsMD string
