package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"pincer/internal/safetext"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"pincer/agent"
	"pincer/agent/llm"
	"pincer/config"
)

// configOptions are the flags of `pincer config`: the flags that
// override the configuration it shows.
type configOptions struct {
	model   modelFlags
	theme   themeFlag
	sandbox sandboxFlag
	json    bool
}

func (c *cli) configCommand() *cobra.Command {
	var o configOptions
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the merged configuration and where each value came from",
		Long: `config prints the configuration pincer would use here, merged from (lowest to
highest): built-in defaults, the user file, the project's .pincer.json, the
environment, and flags. The API key is never shown.

Files:
  user     $XDG_CONFIG_HOME/pincer/config.json (default ~/.config/pincer/config.json),
           or the file named by PINCER_CONFIG
  project  .pincer.json in the project directory (never put a key here)

Environment: PINCER_PROVIDER, PINCER_BASE_URL, PINCER_MODEL, PINCER_API_KEY,
OPENAI_API_KEY and OPENAI_BASE_URL as fallbacks, PINCER_CONFIG, PINCER_DATA_DIR.

Providers (preset names fill in the base URL and the key's variable):
` + presetHelp() + `
A minimal user file:

  {"provider": "deepseek", "model": "deepseek-chat"}

with the key in DEEPSEEK_API_KEY. 'pincer config schema' prints the JSON Schema
of the file, for editors.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := c.loadProject(&o.model, &o.theme, &o.sandbox)
			if err != nil {
				return err
			}
			red := p.cfg.Redacted()
			if o.json {
				return c.writeJSON(red)
			}
			if err := c.printConfig(red, p.srcs, p.cfg.APIKeySource(c.getenv)); err != nil {
				return err
			}
			return c.printWindow(cmd.Context(), p)
		},
	}
	o.model.register(cmd.Flags())
	o.theme.register(cmd.Flags())
	o.sandbox.register(cmd.Flags())
	cmd.Flags().BoolVar(&o.json, "json", false, "print the merged configuration as JSON")
	cmd.AddCommand(&cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the config file",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			s, err := config.Schema()
			if err != nil {
				return err
			}
			_, err = c.stdout.Write(append(s, '\n'))
			return err
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "path",
		Short: "Print the path of the user config file",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintln(c.stdout, config.UserConfigPath(c.getenv))
			return err
		},
	})
	return cmd
}

// printConfig shows each field with its value and its source.
func (c *cli) printConfig(cfg config.Config, srcs config.Sources, keySource string) error {
	raw, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return err
	}
	names := make([]string, 0, len(fields))
	width := 0
	for k := range fields {
		names = append(names, k)
		width = max(width, len(k))
	}
	sort.Strings(names)
	for _, k := range names {
		// A project's values are foreign: JSON escapes control characters
		// but not bidi controls or invisible ones.
		fmt.Fprintf(c.stdout, "%-*s  %-40s  %s\n", width, k, safetext.LineOf(string(fields[k])), safetext.LineOf(srcs.Of(k).String()))
	}
	switch keySource {
	case "":
		fmt.Fprintf(c.stdout, "\napi key: not set\n")
	default:
		fmt.Fprintf(c.stdout, "\napi key: set (from %s; never shown)\n", keySource)
	}
	if len(srcs.Files) > 0 {
		fmt.Fprintf(c.stdout, "\nfiles read: %s\n", safetext.LineOf(strings.Join(srcs.Files, ", ")))
	}
	return nil
}

func presetHelp() string { return config.ProviderHelp() }

// printWindow says which context window pincer will budget for, asking
// the server as a session would (briefly: WindowProbeTimeout).
func (c *cli) printWindow(ctx context.Context, p *project) error {
	b := agent.Budget{ContextWindow: p.cfg.ContextWindow, CapWindow: p.srcs.Of("context_window").Explicit()}
	var w llm.Window
	if p.cfg.Model != "" {
		if client, err := llm.NewClient(p.clientOptions()); err == nil {
			w = windowProbe(p, client)(ctx, "")
		}
	}
	tokens, from := agent.WindowFor(b, w)
	line := fmt.Sprintf("\nwindow: %d tokens (%s)", tokens, from)
	if p.cfg.Model == "" {
		line += "; learned from the server once a model is chosen"
	} else if w.Assumed {
		line += "; the server reports the real one once the model is loaded"
	}
	_, err := fmt.Fprintln(c.stdout, line)
	return err
}
