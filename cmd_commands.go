package main

import (
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
		out = append(out, ui.PromptCommand(cmd.Name, cmd.ArgumentHint, help, cmd.Expand))
	}
	return out
}
