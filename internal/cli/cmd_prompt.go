package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"pincer/agent"
	"pincer/tools"
)

func (c *cli) promptCommand() *cobra.Command {
	var sources bool
	cmd := &cobra.Command{
		Use:   "prompt",
		Short: "Print the system prompt pincer would send here",
		Long: `prompt prints the system prompt assembled for this project: AGENT.md (who the
assistant is and how it behaves, with the computed environment), SKILLS.md (how to
use each tool and the composite skills), and the project's instruction files
(AGENT.md, SKILLS.md, AGENTS.md, CLAUDE.md in the project root, each capped).

Your own AGENT.md and SKILLS.md next to the user config file
(~/.config/pincer/) extend the built-in ones; start one with

  ---
  mode: replace
  ---

to replace the built-in text instead.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := c.loadProject(cmd)
			if err != nil {
				return err
			}
			in, err := c.instructions(p)
			if err != nil {
				return err
			}
			if sources {
				fmt.Fprintf(c.stdout, "AGENT.md:  %s\nSKILLS.md: %s\n", in.AgentSource, in.SkillsSource)
				for _, f := range in.Project {
					fmt.Fprintf(c.stdout, "project:   %s (%d bytes)\n", f.Name, len(f.Content))
				}
				for _, s := range in.AllSkills() {
					fmt.Fprintf(c.stdout, "skill:     %s\n", s.Name)
				}
				return nil
			}
			shell := tools.Options{}.ShellPath()
			fmt.Fprintln(c.stdout, agent.SystemPrompt(agent.PromptParts{
				Agent: in.Agent, Skills: in.Skills, Project: in.Project,
				Env: agent.DetectEnvironment(p.root, shell, time.Now()),
			}))
			return nil
		},
	}
	cmd.Flags().BoolVar(&sources, "sources", false, "list where each part came from and the composite skills, instead of the prompt")
	return cmd
}
