package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"pincer/agent/llm"
	"pincer/config"
	"pincer/themes"
	"pincer/ui/headless"
	"pincer/ui/setup"
)

// firstRun walks the person through choosing a provider when none is
// configured and no local Ollama answers, saves the choice to the user
// config file (mode 0600), and loads the project again with it. It returns
// false when the person left without saving.
func (c *cli) firstRun(cmd *cobra.Command, p *project, ov config.Overrides) (*project, bool, error) {
	ps := config.Presets()
	presets := make([]setup.Preset, len(ps))
	for i, pr := range ps {
		presets[i] = setup.Preset{Name: pr.Name, Title: pr.Title, BaseURL: pr.BaseURL, KeyEnv: pr.KeyEnv, DefaultModel: pr.DefaultModel, Local: pr.Local}
	}
	path := config.UserConfigPath(c.getenv)
	if path == "" {
		return nil, false, usageError(errors.New("cannot tell where the user config file goes; set XDG_CONFIG_HOME or HOME, or PINCER_CONFIG"))
	}
	theme, _, _ := c.pickTheme(p.cfg.Theme)
	if theme.Name == "" {
		theme = themes.Dark()
	}
	r, saved, err := setup.Run(cmd.Context(), setup.Options{
		Presets:    presets,
		Getenv:     c.getenv,
		ConfigPath: path,
		Theme:      theme,
		ListModels: func(ctx context.Context, base, key string) ([]string, error) {
			return llm.ListModels(ctx, llm.ClientOptions{BaseURL: base, APIKey: key})
		},
	})
	if err != nil || !saved {
		return nil, false, err
	}
	err = config.SaveUser(path, func(f *config.FileConfig) {
		f.Provider, f.Model = config.Ptr(r.Provider), config.Ptr(r.Model)
		f.BaseURL = nil
		if pr, ok := config.LookupPreset(r.Provider); !ok || pr.BaseURL != r.BaseURL {
			f.BaseURL = config.Ptr(r.BaseURL)
		}
		switch {
		case r.APIKey != "":
			f.APIKey, f.APIKeyEnv = config.Ptr(r.APIKey), nil
		case r.APIKeyEnv != "":
			f.APIKeyEnv, f.APIKey = config.Ptr(r.APIKeyEnv), nil
		}
	})
	if err != nil {
		return nil, false, fmt.Errorf("save the configuration to %s: %w", path, err)
	}
	fmt.Fprintf(c.stderr, "pincer: saved %s (provider %s, model %s)\n", path, r.Provider, r.Model)
	np, err := c.loadProjectAt(c.cwd, ov)
	if err != nil {
		return nil, false, err
	}
	return np, true, nil
}

// canRunSetup reports whether the setup screen can be shown: standard input
// and output are a terminal.
func (c *cli) canRunSetup() bool {
	in, ok1 := c.stdin.(*os.File)
	out, ok2 := c.stdout.(*os.File)
	return ok1 && ok2 && headless.IsTerminal(in) && headless.IsTerminal(out)
}
