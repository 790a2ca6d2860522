package agent

import (
	"fmt"
	"strings"

	"pincer/safety"
	"pincer/tools"
)

// Mode is how the agent treats changes for the person: ask before each
// one, apply edits without the review dialog, or only plan. It is
// separate from the approval setting of commands (safety.ApprovalMode),
// which decides whether ordinary commands run unasked in the sandbox.
type Mode string

// The modes, in the order the screen cycles through them.
const (
	// ModeAsk reviews every edit and asks for every command that changes
	// something (the default).
	ModeAsk Mode = "ask"
	// ModeAcceptEdits applies file edits without the review dialog; commands
	// keep their approvals and anything dangerous still asks twice. The
	// front end applies it: it answers edit questions itself.
	ModeAcceptEdits Mode = "accept-edits"
	// ModePlan offers only tools that change nothing, refuses any other call
	// without running it, and asks the model for a plan.
	ModePlan Mode = "plan"
)

// Modes lists the modes in cycling order.
func Modes() []Mode { return []Mode{ModeAsk, ModeAcceptEdits, ModePlan} }

// ParseMode reads a mode as written in a flag or stored with a session;
// "" is ModeAsk.
func ParseMode(s string) (Mode, error) {
	switch strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), " ", "-") {
	case "", "ask", "default":
		return ModeAsk, nil
	case "accept-edits", "acceptedits", "edits":
		return ModeAcceptEdits, nil
	case "plan":
		return ModePlan, nil
	}
	return ModeAsk, fmt.Errorf("unknown mode %q; use ask, accept-edits or plan", s)
}

// Next is the mode after m in the cycle ask → accept edits → plan → ask.
func (m Mode) Next() Mode {
	all := Modes()
	for i, x := range all {
		if x == m {
			return all[(i+1)%len(all)]
		}
	}
	return ModeAsk
}

// Label is the mode as people read it: "ask", "accept edits", "plan".
func (m Mode) Label() string {
	if m == "" {
		return string(ModeAsk)
	}
	return strings.ReplaceAll(string(m), "-", " ")
}

// SetMode switches the mode, also while a turn runs: the next request
// offers the tools of the new mode, and calls not yet judged follow it.
func (a *Agent) SetMode(m Mode) {
	if m == "" {
		m = ModeAsk
	}
	a.mode.Store(m)
}

// Mode is the mode in effect.
func (a *Agent) Mode() Mode {
	if a.role != nil && a.role.parent != nil {
		return a.role.parent.Mode() // a sub-agent follows the screen's mode live
	}
	if m, ok := a.mode.Load().(Mode); ok {
		return m
	}
	return ModeAsk
}

// inPlan reports whether plan mode offers the tool called name. It is the
// one place that decides: a tool that cannot change anything opts in with
// its name here. run_command is offered, but runs only commands the
// classifier, without the person's allow rules, proves read-only (see
// planRefusal). MCP tools are never offered: their readOnlyHint is the
// server's own claim, and the server runs outside the sandbox.
func inPlan(name string) bool {
	switch name {
	case "tree_view", "read_file", "grep", "glob", "read_web", "recall":
		return true
	case "lsp_definition", "lsp_references", "lsp_hover", "lsp_symbols": // questions to a language server
		return true
	case "todo_write": // the task list changes nothing outside the session
		return true
	case "task": // its sub-agent runs in plan mode too
		return true
	case "run_command":
		return true
	}
	return false
}

// planPrompt is the system message added in plan mode.
const planPrompt = `# Plan mode

The user has switched pincer to plan mode: they want a plan before anything changes.
- Research first, with the read-only tools you are given: read files, search, list the tree, and run only commands that change nothing (ls, cat, grep, git status, git log, git diff, …).
- Do not change anything. Do not edit, create or delete files, and do not run commands that build, install, write or commit: such calls are refused in plan mode.
- When you know enough, answer with a concise plan: numbered steps, each naming the files or commands involved and what changes; then the risks and any open questions.
- Stop there. The user will review the plan and leave plan mode to have it carried out.`

// planRefusal says why plan mode refuses a call, or "" when it may run.
// Before the arguments are read call is nil, and only the tool is judged.
func (a *Agent) planRefusal(name string, call tools.Call) string {
	if !inPlan(name) {
		return fmt.Sprintf("Not run: pincer is in plan mode, which forbids %s; nothing was changed. "+
			"In plan mode only read-only tools are available (%s). Research with them, then present your plan; "+
			"the user will leave plan mode to have it carried out.", name, strings.Join(a.toolNames(), ", "))
	}
	if call == nil {
		return ""
	}
	acc := call.Access()
	if len(acc.Writes) > 0 {
		return fmt.Sprintf("Not run: pincer is in plan mode, which forbids writing %s; nothing was changed. Present your plan instead.", strings.Join(acc.Writes, ", "))
	}
	if acc.Command == "" {
		return ""
	}
	// The person's allow rules and unknown_commands do not count here: they
	// say what may run unasked, not what changes nothing.
	strict, err := a.strict()
	if err != nil {
		return fmt.Sprintf("Not run: pincer is in plan mode and could not judge the command (%v); nothing was changed.", err)
	}
	v := strict.Classify(acc.Command)
	if v.Tier == safety.Safe {
		return ""
	}
	why := ""
	if len(v.Reasons) > 0 {
		why = " (" + strings.Join(v.Reasons, "; ") + ")"
	}
	return fmt.Sprintf("Not run: pincer is in plan mode, where run_command runs only read-only commands, and this one may change something%s; nothing was changed. "+
		"Use read-only commands (ls, cat, grep, git status, git log, git diff, …) to research, and put the commands that change things in your plan.", why)
}
