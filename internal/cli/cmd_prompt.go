package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"pincer/agent"
	"pincer/tools"
)

func (c *cli) promptCommand() *cobra.Command {
	var sources, tokens bool
	var profile string
	var window int
	cmd := &cobra.Command{
		Use:   "prompt",
		Short: "Print the system prompt pincer would send here, or its weight in tokens",
		Long: `prompt prints the system prompt assembled for this project: AGENT.md (who the
assistant is and how it behaves, with the computed environment), SKILLS.md (how to
use each tool and the composite skills), and the project's instruction files
(AGENT.md, SKILLS.md, AGENTS.md, CLAUDE.md in the project root, each capped).

Your own AGENT.md and SKILLS.md next to the user config file
(~/.config/pincer/) extend the built-in ones; start one with

  ---
  mode: replace
  ---

to replace the built-in text instead.

The prompt comes in two profiles: full, and compact (short instructions and tool
descriptions) for context windows of 16384 tokens or less; prompt_profile in the
config chooses one for good. Rarely used tools are listed by name only and loaded
when the model asks. --tokens prints what each part weighs at the wire (characters
over four), for the profile in effect, or the one --profile or --window chooses.
MCP servers are not started, so their tools are not counted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := c.loadProject()
			if err != nil {
				return err
			}
			switch profile {
			case "", "auto", "full", "compact":
			default:
				return usageError(fmt.Errorf("--profile %q is not a profile; give full, compact or auto", profile))
			}
			if profile != "" {
				p.cfg.PromptProfile = profile
			}
			if window < 0 {
				return usageError(fmt.Errorf("--window %d is negative; give the context window in tokens, such as 8192", window))
			}
			if window > 0 {
				p.cfg.ContextWindow = window
				if profile == "" || profile == "auto" {
					// As for that window, whatever the server says.
					p.cfg.PromptProfile = string(agent.ProfileFor(window))
				}
			}
			if tokens {
				return c.printWeight(p)
			}
			in, err := c.instructions(p)
			if err != nil {
				return err
			}
			// The project's instruction files are foreign: on a terminal
			// they are shown under the policy, piped they are exact.
			return exportTo(c.stdout, func(out io.Writer) error {
				if sources {
					fmt.Fprintf(out, "AGENT.md:  %s\nSKILLS.md: %s\n", in.AgentSource, in.SkillsSource)
					for _, f := range in.Project {
						fmt.Fprintf(out, "project:   %s (%d bytes)\n", f.Name, len(f.Content))
					}
					for _, s := range in.AllSkills() {
						fmt.Fprintf(out, "skill:     %s\n", s.Name)
					}
					return nil
				}
				shell := tools.Options{}.ShellPath()
				_, err := fmt.Fprintln(out, agent.SystemPrompt(agent.PromptParts{
					Agent: in.Agent, Skills: in.Skills, Project: in.Project,
					Env: agent.DetectEnvironment(p.root, shell, time.Now()),
				}))
				return err
			}, "")
		},
	}
	cmd.Flags().BoolVar(&sources, "sources", false, "list where each part came from and the composite skills, instead of the prompt")
	cmd.Flags().BoolVar(&tokens, "tokens", false, "print the weight in tokens of the instructions and of each tool, instead of the prompt")
	cmd.Flags().StringVar(&profile, "profile", "", "the prompt profile to show: full, compact or auto (default: prompt_profile from the config)")
	cmd.Flags().IntVar(&window, "window", 0, "choose the profile as for a context window of this many tokens (default: context_window)")
	return cmd
}

// printWeight prints what the agent's first request carries before the
// conversation, part by part, as an agent made here would send it.
func (c *cli) printWeight(p *project) error {
	st, err := c.openStoreFor(p, true) // for the tools that need one
	if err != nil {
		return err
	}
	if p.cfg.Model == "" {
		p.cfg.Model = "any" // a local server's first model; the weight does not depend on it
	}
	a, _, err := c.newAgent(p, agentSetup{store: st, offline: true})
	if err != nil {
		return err
	}
	w := a.Weight()
	how := "prompt_profile " + p.cfg.PromptProfile
	if p.cfg.PromptProfile == "auto" {
		how = fmt.Sprintf("auto: compact for a context window of %d tokens or less; this one is %d", agent.CompactWindow, p.cfg.ContextWindow)
	}
	fmt.Fprintf(c.stdout, "profile %s (%s)\n\n", w.Profile, how)
	fmt.Fprintf(c.stdout, "%-22s %6d\n", "instructions", w.Instructions)
	for _, t := range w.Tools {
		fmt.Fprintf(c.stdout, "%-22s %6d\n", t.Name, t.Tokens)
	}
	fmt.Fprintf(c.stdout, "%-22s %6d tokens (characters over four, at the wire)\n", "total", w.Total())
	if len(w.Deferred) > 0 {
		fmt.Fprintf(c.stdout, "\nlisted by name in load_tools, loaded when asked for: %s\n", strings.Join(w.Deferred, ", "))
	}
	return nil
}
