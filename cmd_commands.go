package main

import (
	"context"
	"path/filepath"

	"pincer/commands"
	"pincer/config"
	"pincer/ui"
)

// customCommands loads the person's own slash commands for the project:
// from the config directory's commands/ and the project's .pincer/commands
// and .claude/commands, with a warning for each file left out.
func (c *cli) customCommands(p *project) ([]commands.Command, []string) {
	configDir := ""
	if path := config.UserConfigPath(c.getenv); path != "" {
		configDir = filepath.Dir(path)
	}
	return commands.Load(commands.Dirs(configDir, p.root))
}

// screenCommands turns custom commands into the screen's slash commands.
func screenCommands(cmds []commands.Command) []ui.Command {
	out := make([]ui.Command, 0, len(cmds))
	for _, cmd := range cmds {
		help := cmd.Description
		if help == "" {
			help = "your command (" + filepath.Base(cmd.Path) + ")"
		}
		out = append(out, ui.PromptCommand(ui.CustomCommand{
			Name: cmd.Name, Args: cmd.ArgumentHint, Help: help, Model: cmd.Model,
			Render: func(ctx context.Context, args string, run func(context.Context, string) (string, error)) (string, error) {
				return cmd.Render(ctx, args, run)
			},
		}))
	}
	return out
}
