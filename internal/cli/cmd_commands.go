package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"pincer/agent"
	"pincer/config"
	"pincer/customcommands"
	"pincer/internal/human"
	"pincer/ui"
)

// customCommands loads the person's own slash commands for the project:
// from the config directory's commands/ and the project's .pincer/commands
// and .claude/commands, with a warning for each file left out, and one
// naming the project's commands whose "!" lines wait for pincer trust.
func (c *cli) customCommands(p *project) ([]customcommands.Command, []string) {
	configDir := ""
	if path := config.UserConfigPath(c.getenv); path != "" {
		configDir = filepath.Dir(path)
	}
	cmds, warnings := customcommands.Load(customcommands.Dirs(configDir, p.root))
	if !p.trusted {
		var held []string
		for _, cmd := range cmds {
			if cmd.RunsShell() && inProject(p.root, cmd.Path) {
				held = append(held, "/"+cmd.Name)
			}
		}
		if len(held) > 0 {
			warnings = append(warnings, fmt.Sprintf("this project's %s %s run%s shell lines (\"!\"), which do not run until you trust the project with 'pincer trust'",
				human.Noun(len(held), "command"), strings.Join(held, ", "), map[bool]string{true: "", false: "s"}[len(held) > 1]))
		}
	}
	return cmds, warnings
}

// commandRunner is the function a command's "!" lines run through: the
// agent's (the same checks, approvals and sandbox as run_command), or, for
// a project's command while the project is not trusted, one that refuses,
// so the command is not sent and the person is told why.
func commandRunner(p *project, cmd customcommands.Command, run customcommands.RunFunc) customcommands.RunFunc {
	if p.trusted || !inProject(p.root, cmd.Path) {
		return run
	}
	rel, err := filepath.Rel(p.root, cmd.Path)
	if err != nil {
		rel = cmd.Path
	}
	return func(ctx context.Context, command string) (string, error) {
		return "", fmt.Errorf("its line %q comes from this project (%s), and a project's command lines do not run until you trust the project with 'pincer trust'",
			"!"+command, filepath.ToSlash(rel))
	}
}

// screenCommands turns custom commands into the screen's slash commands.
func screenCommands(p *project, cmds []customcommands.Command) []ui.Command {
	out := make([]ui.Command, 0, len(cmds))
	for _, cmd := range cmds {
		help := cmd.Description
		if help == "" {
			help = "your command (" + filepath.Base(cmd.Path) + ")"
		}
		out = append(out, ui.PromptCommand(ui.CustomCommand{
			Name: cmd.Name, Args: cmd.ArgumentHint, Help: help, Model: cmd.Model,
			Render: func(ctx context.Context, args string, run func(context.Context, string) (string, error)) (string, error) {
				return cmd.Render(ctx, args, commandRunner(p, cmd, run))
			},
		}))
	}
	return out
}

// trustedAgents leaves out the project's agent files while the project is
// not trusted: an agent file chooses what a sub-agent may do and what it
// is told, and the project chose it. They are named in a warning, which
// /agents shows.
func (p *project) trustedAgents(defs []agent.AgentDef, warnings []string) ([]agent.AgentDef, []string) {
	if p.trusted {
		return defs, warnings
	}
	var kept []agent.AgentDef
	var held []string
	for _, d := range defs {
		if inProject(p.root, d.Path) {
			held = append(held, d.Name)
			continue
		}
		kept = append(kept, d)
	}
	if len(held) > 0 {
		warnings = append(warnings, fmt.Sprintf("this project's %s %s %s not offered until you trust the project with 'pincer trust'",
			human.Noun(len(held), "agent"), strings.Join(held, ", "), map[bool]string{true: "are", false: "is"}[len(held) > 1]))
	}
	return kept, warnings
}

// inProject reports a file inside the project root.
func inProject(root, path string) bool {
	if root == "" || path == "" {
		return false
	}
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
