package cli

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"pincer/internal/safetext"
	"pincer/tools/lsp"
)

func (c *cli) lspCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "List the language servers pincer would start for this project",
		Long: `lsp lists, for each language pincer knows (and those the lsp setting adds),
the server it would start, whether its program is on PATH, and whether the
project has files of that language (go.mod, Cargo.toml, tsconfig.json, …).

A server starts when the model first reads or edits a file of its language,
runs in the command jail (the project writable, no network unless
sandbox_network is yours), and tells the model after each edit what the edit
broke. /lsp on the screen shows the running servers and their errors.`,
		Example: `  pincer lsp
  pincer lsp --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := c.loadProject()
			if err != nil {
				return err
			}
			plans := lsp.Plans(p.root, lspServers(p), exec.LookPath)
			if asJSON {
				data, err := lspPlansJSON(plans)
				if err != nil {
					return err
				}
				fmt.Fprintln(c.stdout, string(data))
				return nil
			}
			fmt.Fprint(c.stdout, describePlans(plans, slices.Contains(p.srcs.Ignored, "lsp"), c.sandboxState(p).Active))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

// describePlans is `pincer lsp`: the project's languages first, each with
// what would start and why not when it would not.
func describePlans(plans []lsp.Plan, ignored, jailed bool) string {
	var b strings.Builder
	for _, p := range plans {
		what := "would start"
		switch {
		case p.Reason != "":
			what = "would not start: " + p.Reason
		case !p.Project:
			what = "would start for a file of this language"
		}
		project := ""
		if p.Project {
			project = " (this project)"
		}
		fmt.Fprintf(&b, "%-11s %s%s\n", p.Language, safetext.LineOf(strings.Join(p.Command, " ")), project)
		fmt.Fprintf(&b, "            %s", what)
		if p.Path != "" {
			fmt.Fprintf(&b, " · %s", safetext.LineOf(p.Path))
		}
		fmt.Fprintf(&b, " · %s\n", safetext.LineOf(p.Origin))
	}
	if jailed {
		b.WriteString("Servers run in the command jail: they may write the project only, and reach no network unless sandbox_network is set in your own config.\n")
	} else {
		b.WriteString("The sandbox is off: servers run with your full rights.\n")
	}
	if ignored {
		b.WriteString("This project's .pincer.json sets lsp; it is ignored until you trust the project with 'pincer trust'.\n")
	}
	return b.String()
}
