// Package docs holds the texts pincer ships: the default AGENT.md (who the
// assistant is and how it behaves) and SKILLS.md (how to use its tools and
// the multi-step workflows it knows), embedded in the binary, and the user
// documentation next to them.
package docs

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
